import DeckCore

/// Maps app records onto notes and back, so app storage converts to and from Anki decks.
///
/// Records become notes of one note type: a profile's note fields (Flashzilla: Prompt, Answer),
/// or for a generic shape one field per key. `Data` values become media files named by their
/// SHA-1 (`<sha1>.png`) and referenced from the field (`<img src="…">`); a profile's identity key
/// becomes the note's GUID, a creation date its id. Back, each note becomes a record: field HTML
/// turned into text, referenced media into `Data`.
///
/// ```swift
/// let content = try AppStorageReader().read(path: "default.store")
/// let (deck, warnings) = try AppRecordMapping.collection(from: content.records)
/// let (records, _) = try AppRecordMapping.records(from: deck, profile: .named(.neoMnemo))
/// ```
///
/// Everything that does not fit is reported as a ``Diagnostic``: tags and scheduling a record
/// cannot hold, formatting removed from field HTML, values whose type a generic note loses.
package enum AppRecordMapping {
  /// The deck for `records`: one note type, one deck, a note and a new card per record, media
  /// for their `Data` values.
  ///
  /// - Parameter profile: ``AppProfileChoice/automatic`` uses the records' profile (or the one
  ///   they fit), ``AppProfileChoice/generic`` maps field-for-key.
  /// - Parameter file: the storage the records were read from, which warnings name.
  /// - Throws: ``DeckError/Kind/memoryLimitExceeded`` when records without some keys would be filled
  ///   with more empty values than ``FieldFilling`` allows.
  package static func collection(
    from records: AppRecords, profile: AppProfileChoice = .automatic, modificationTime: Int64 = 0,
    file: String? = nil
  ) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    try RecordsToDeck(
      records: records, profile: resolved(profile, records: records), modificationTime: modificationTime, file: file
    )
    .collection()
  }

  /// The records for the notes of `collection`.
  ///
  /// - Parameter profile: ``AppProfileChoice/automatic`` uses the profile whose note type the
  ///   deck has (one deckport made), else maps field-for-key; a named profile maps the fields by
  ///   name, then by position.
  /// - Parameter file: the storage the records are for, which warnings name.
  /// - Throws: ``DeckError/Kind/memoryLimitExceeded`` when notes with fewer values than their note
  ///   type has fields would be filled with more empty values than ``FieldFilling`` allows.
  package static func records(
    from collection: DeckCollection, profile: AppProfileChoice = .automatic, file: String? = nil
  ) throws -> (records: AppRecords, warnings: [Diagnostic]) {
    let chosen: AppRecordProfile?
    switch profile {
    case .generic: chosen = nil
    case .named(let named): chosen = named
    case .automatic: chosen = Self.profile(ofNoteTypesIn: collection)
    }
    return try DeckToRecords(collection: collection, profile: chosen, file: file).records()
  }

  /// The built-in profile whose note type the deck has (one deckport made from its records), or
  /// nil: the profile ``AppProfileChoice/automatic`` maps the deck's notes by.
  package static func profile(ofNoteTypesIn collection: DeckCollection) -> AppRecordProfile? {
    AppRecordProfile.all.first { profile in collection.noteTypes.contains { $0.name == profile.title } }
  }

  private static func resolved(_ choice: AppProfileChoice, records: AppRecords) -> AppRecordProfile? {
    switch choice {
    case .generic: nil
    case .named(let profile): profile
    case .automatic: records.profile ?? AppRecordProfile.detect(in: records.records)
    }
  }

  /// Where mapping warnings point: the records of type `name` in `file` (the storage read or
  /// written), `app.json: record type 'Card'`; the records alone when they come from no file.
  static func location(ofRecords name: String, in file: String?) -> SourceLocation {
    let records = "record type '\(name)'"
    guard let file else { return SourceLocation(file: records) }
    return SourceLocation(file: file, item: records)
  }
}
