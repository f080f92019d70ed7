import DeckCore
import Foundation

/// Builds a deck from app records (see ``AppRecordMapping/collection(from:profile:)``).
struct RecordsToDeck {
  let records: AppRecords
  let profile: AppRecordProfile?
  /// When the storage last changed (seconds since 1970; 0 when unknown): every note's
  /// modification time, or its record's creation date when that is later. Records keep no time
  /// of their own changes, so a later version of the storage is newer and Anki's import of the
  /// deck updates the notes it has.
  var modificationTime: Int64 = 0
  /// The storage the records were read from, which warnings name (nil: none).
  var file: String? = nil

  /// The Anki default style sheet.
  static let css =
    ".card {\n    font-family: arial;\n    font-size: 20px;\n    text-align: center;\n    color: black;\n    background-color: white;\n}\n"

  /// The note type of records without a profile: `Challenge (app records)` for `Challenge`.
  static func noteTypeName(forRecordType recordType: String) -> String { recordType + appRecordsSuffix }

  /// The record type a note type of ``noteTypeName(forRecordType:)`` came from, or the note
  /// type's own name.
  static func recordType(ofNoteType name: String) -> String {
    guard name.hasSuffix(appRecordsSuffix), name.count > appRecordsSuffix.count else { return name }
    return String(name.dropLast(appRecordsSuffix.count))
  }

  private static let appRecordsSuffix = " (app records)"

  /// Which record key fills which note field, in field order.
  private var fieldKeys: [(field: String, key: String)] {
    if let profile {
      return profile.fields.compactMap { if case .field(let name) = $0.role { (name, $0.key) } else { nil } }
    }
    return zip(Self.fieldNames(for: records.shape.keys), records.shape.keys).map { ($0, $1) }
  }

  /// The note type of a deck made from records: one card, the first field on the front and the
  /// others below it on the back, Anki's default styling.
  private static func noteType(id: Int64, name: String, fieldNames: [String]) -> NoteType {
    let back = fieldNames.dropFirst().map { "{{\($0)}}" }.joined(separator: "<br>\n")
    return NoteType(
      id: id, name: name,
      fields: fieldNames.map { NoteType.Field(name: $0) },
      templates: [
        NoteType.CardTemplate(
          name: "Card 1", questionFormat: "{{\(fieldNames.first ?? "")}}",
          answerFormat: "{{FrontSide}}\n\n<hr id=answer>\n\n" + back)
      ], css: css)
  }

  /// Whether `noteType` is one a deck made from records has, as it was made (its fields,
  /// templates and styling), which records therefore give back whole.
  static func isMadeFromRecords(_ noteType: NoteType) -> Bool {
    let made = Self.noteType(id: noteType.id, name: noteType.name, fieldNames: noteType.fieldNames)
    return noteType.id == noteTypeID(named: noteType.name)
      && noteType.kind == made.kind && noteType.css == made.css
      && noteType.templates.map { [$0.name, $0.questionFormat, $0.answerFormat] }
        == made.templates.map { [$0.name, $0.questionFormat, $0.answerFormat] }
  }

  /// The id of the note type a deck made from records has, by its name.
  private static func noteTypeID(named name: String) -> Int64 {
    DerivedID.id(for: "notetype\u{1F}deckport-app\u{1F}" + name)
  }

  /// The note type's name and id: the profile's title, or `<record type> (app records)`.
  private var noteType: (title: String, id: Int64) {
    let title = profile?.title ?? Self.noteTypeName(forRecordType: records.name)
    return (title, Self.noteTypeID(named: title))
  }

  /// - Throws: ``DeckError/Kind/memoryLimitExceeded`` when records without some of the keys would be
  ///   filled with more empty values than ``FieldFilling`` allows.
  func collection() throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    var warnings: [Diagnostic] = []
    let location = AppRecordMapping.location(ofRecords: records.name, in: file)
    let mapping = fieldKeys
    let deckName = profile?.app ?? records.name
    let deck = Deck(id: DerivedID.id(for: "deck\u{1F}" + deckName), name: deckName)
    // Records without a key (an empty file's `[]`, or records `{}`) fill no field, and Anki
    // needs a field in every note type: no note type then, and no note (each would be empty).
    guard !mapping.isEmpty else {
      let count = records.records.count
      if count > 0 {
        warnings.append(
          Diagnostic(
            .recordsWithoutKeys, at: location,
            "\(CountedNoun.phrase(count, "record")) \(CountedNoun.noun("holds", plural: "hold", for: count)) no keys, so no note is made of \(CountedNoun.noun("it", plural: "them", for: count)): a note needs a field"
          ))
      }
      return (DeckCollection(decks: [deck]), warnings)
    }
    let (title, noteTypeID) = noteType
    let fieldNames = mapping.map(\.field)
    let noteType = Self.noteType(id: noteTypeID, name: title, fieldNames: fieldNames)
    var collection = DeckCollection(decks: [deck], noteTypes: [noteType])
    var mediaNames = Set<String>()
    var usedNoteIDs = Set<Int64>()
    // Note and card ids count up from a base derived from the note type, so the deck lists the
    // notes in the records' order (Anki matches notes by GUID on import, not by id).
    let firstNoteID = DerivedID.id(for: "notes\u{1F}" + title)
    let firstCardID = DerivedID.id(for: "cards\u{1F}" + title)
    var textTypes: [String: AppValueType] = [:]
    // Every record's field texts first: its GUID comes from some of them, and a value that is a
    // picture's base64 is decoded and hashed once.
    var recordFields: [[String]] = []
    recordFields.reserveCapacity(records.records.count)
    // A record without a key gets an empty field for it: records of many keys each make
    // a note type of many fields.
    var filling = FieldFilling()
    for (index, record) in records.records.enumerated() {
      var fields: [String] = []
      var given = 0
      for (_, key) in mapping {
        let stored = record[key]
        if stored != nil { given += 1 }
        let value = noteValue(stored)
        if profile == nil, ![.string, .data, .any].contains(value.type) { textTypes[key] = value.type }
        // A profile's empty Data is no picture (NeoMnemo stores `Data()`): no media file, an empty
        // field, and empty data again on the way back.
        if profile != nil, case .data(let bytes) = value, bytes.isEmpty {
          fields.append("")
          continue
        }
        let (text, file) = Self.fieldText(value)
        if let file, mediaNames.insert(file.name).inserted { collection.media.append(file) }
        fields.append(text)
      }
      filling.countText(of: fields)
      if given < fields.count {
        try filling.countFill(
          given: given, of: fields.count, noteType: title, at: location.itemPart(records.label(ofRecord: index)))
      }
      recordFields.append(fields)
    }
    let identityPositions = Self.identityFields(mapping: mapping, profile: profile)
    let guids = noteGUIDs { index in identityPositions.map { recordFields[index][$0] } }
    // Records whose creation date names no date: (position, key, value).
    var undated: [(index: Int, key: String, value: AppValue)] = []
    // Records whose UUID identity is no UUID, with the UUID their note gives back.
    var replacedIDs: [(index: Int, key: String, value: AppValue, uuid: UUID)] = []
    for (index, record) in records.records.enumerated() {
      let fields = recordFields[index]
      var guid = guids[index].guid
      var noteID = firstNoteID + Int64(index)
      var modified = modificationTime
      for field in profile?.fields ?? [] {
        switch (field.role, record[field.key]) {
        case (.noteGUID, .uuid(let uuid)?): guid = uuid.uuidString
        case (.noteGUID, let value?) where !value.isNull:
          // A UUID in any spelling `UUID(uuidString:)` takes is that UUID, in the upper case the
          // app writes (so the note's GUID is the same when the app has written the id again);
          // other text is the GUID as it is, and any value that is no UUID gets one derived from
          // the GUID on the way back, which a warning names.
          if case .string(let text) = value, let uuid = UUID(uuidString: text) {
            guid = uuid.uuidString
            break
          }
          if case .string(let text) = value, !text.isEmpty { guid = text }
          replacedIDs.append((index, field.key, value, NoteIdentity.uuid(forGUID: guid)))
        case (.noteCreation, let value?) where !value.isNull:
          // A value typing left as it was (an ISO 8601 date with an offset) is still the date it
          // names; one that names none is reported below, and the note keeps its counted id.
          guard let date = Self.date(of: value, dates: records.jsonDates) else {
            undated.append((index, field.key, value))
            continue
          }
          let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
          noteID = Int64(milliseconds)
          modified = max(modificationTime, Int64((date.timeIntervalSince1970).rounded(.down)))
          // Within a microsecond is a whole millisecond: `.123` of a date counted from 2001 is
          // not exactly `.123` counted from 1970.
          if abs(milliseconds - date.timeIntervalSince1970 * 1000) >= 0.001 {
            warnings.append(
              Diagnostic(
                .datePrecision, at: location.itemPart(records.label(ofRecord: index)),
                "\(field.key) \(date.timeIntervalSinceReferenceDate) has more than millisecond precision; the note id keeps milliseconds"
              ))
          }
        default: break
        }
      }
      while !usedNoteIDs.insert(noteID).inserted { noteID += 1 }
      collection.notes.append(
        Note(id: noteID, guid: guid, noteTypeID: noteTypeID, fields: fields, modificationTime: modified))
      collection.cards.append(
        Card(id: firstCardID + Int64(index), noteID: noteID, templateOrdinal: 0, deckID: deck.id))
    }
    collection.notes.sort { $0.id < $1.id }
    collection.cards.sort { $0.id < $1.id }
    if let undatedWarning = undatedWarning(undated, at: location) { warnings.append(undatedWarning) }
    if let replacedWarning = replacedIDsWarning(replacedIDs, at: location) { warnings.append(replacedWarning) }
    for (field, key) in mapping where profile == nil && field != key {
      warnings.append(
        Diagnostic(
          .keyRenamed, at: location.itemPart("key '\(key)'"),
          "is the note field '\(field)' (Anki's field names hold no :{}\" and no leading #^/, and each name once); converting the deck back into storage that has the key restores it"
        ))
    }
    for (key, type) in textTypes.sorted(by: { $0.key < $1.key }) {
      warnings.append(
        Diagnostic(
          .typeToText, at: location.itemPart("key '\(key)'"),
          "\(type.rawValue) values become note text; converting the deck back types them again by a profile, a store's model or the values the file already holds under the key, else they stay text"
        ))
    }
    return (collection, warnings)
  }

  /// The date a profile's date value names: a date, or a value of the records' JSON date
  /// encoding that typing left as it was because it would be written back as other text
  /// (``JSONDateEncoding/date(in:)``); nil when it names none or one beyond a note id's range.
  private static func date(of value: AppValue, dates: JSONDateEncoding) -> Date? {
    if case .date(let date) = value { return JSONDateEncoding.isWithinRange(date) ? date : nil }
    return dates.date(in: value)
  }

  /// A warning naming the records whose creation date names no date (`undated`): their notes
  /// get ids counted from the note type's, not from the value, and the value is not kept in the
  /// deck, so converting it back writes the date of that id instead. Nil when there are none.
  private func undatedWarning(_ undated: [(index: Int, key: String, value: AppValue)], at location: SourceLocation)
    -> Diagnostic?
  {
    guard let first = undated.first else { return nil }
    let named = undated.map { "\(records.label(ofRecord: $0.index)) (\($0.key) \($0.value.noteText ?? "data"))" }
    return Diagnostic(
      .dateUnreadable, at: location,
      "\(CountedNoun.phrase(undated.count, "record")) \(CountedNoun.noun("has", plural: "have", for: undated.count)) a \(first.key) that names no date (read as \(records.jsonDates.rawValue), the encoding of the file's dates): \(ShortList.text(named)); \(CountedNoun.noun("its note gets an id", plural: "their notes get ids", for: undated.count)) of \(CountedNoun.noun("its", plural: "their", for: undated.count)) own, not from the date, and converting back writes \(CountedNoun.noun("that id's", plural: "those ids'", for: undated.count)) date as \(first.key); if the dates are in another encoding, name it with \(setting: .jsonDates)"
    )
  }

  /// A warning naming the records whose UUID identity (Flashzilla's `id`) is no UUID
  /// (`replaced`): the note's GUID keeps the text, but the app decodes only a UUID, so the
  /// record written from the note gets a UUID derived from the GUID. Nil when there are none.
  private func replacedIDsWarning(
    _ replaced: [(index: Int, key: String, value: AppValue, uuid: UUID)], at location: SourceLocation
  ) -> Diagnostic? {
    guard let first = replaced.first else { return nil }
    let named = replaced.map { item in
      let old = item.value.noteText.map { "'\($0)'" } ?? "data"
      return "\(records.label(ofRecord: item.index)) (\(item.key) \(old) becomes \(item.uuid.uuidString))"
    }
    return Diagnostic(
      .idNotUUID, at: location,
      "\(replaced.count == 1 ? "the \(first.key) of 1 record is no UUID" : "the \(first.key)s of \(replaced.count) records are no UUIDs"), which the app cannot decode: \(ShortList.text(named)); the note's GUID is the old \(first.key) (made from the record's text when that is empty), and writing the note into app storage gives the record the new one, the same every time"
    )
  }

  /// The positions of the fields whose text identifies a note made from a record, from which its
  /// GUID is derived when the record has no id of its own (``DerivedNoteGUIDs/next(noteTypeID:identity:)``)
  /// and is not a store's row (whose note keeps its object URI, ``NoteIdentity/guid(ofObject:)``):
  /// those the profile's identity keys fill (NeoMnemo's keyword, Flashcard Quiz's word), else
  /// the first field. So a record whose other keys changed (a mnemonic's story) gives the same
  /// GUID, and Anki's import of the new deck updates the note.
  private static func identityFields(mapping: [(field: String, key: String)], profile: AppRecordProfile?) -> [Int] {
    let byKey = profile?.identityKeys.compactMap { key in mapping.firstIndex { $0.key == key } } ?? []
    return byKey.isEmpty ? (mapping.isEmpty ? [] : [0]) : byKey
  }

  /// The GUID each record's note gets when the records have no profile GUID key: from the row's
  /// object URI for a store's rows (``NoteIdentity/guid(ofObject:)``), else from the note type
  /// and the identity fields' text (``identityFields(mapping:profile:)``), numbered by occurrence.
  /// `unambiguous` is false for a GUID whose identity other records share: which record it
  /// names then depends on their order.
  func noteGUIDs() -> [(guid: String, unambiguous: Bool)] {
    let keys = Self.identityFields(mapping: fieldKeys, profile: profile).map { fieldKeys[$0].key }
    return noteGUIDs { index in
      keys.map { key in
        let value = noteValue(records.records[index][key])
        // A profile's empty Data is an empty field (see collection()).
        if profile != nil, case .data(let bytes) = value, bytes.isEmpty { return "" }
        return Self.fieldText(value).text
      }
    }
  }

  /// ``noteGUIDs()`` from `identity`, the identity fields' texts of the record at an index.
  private func noteGUIDs(identity: (Int) -> [String]) -> [(guid: String, unambiguous: Bool)] {
    // A store's rows are known by their object URIs, unless a profile names their identity.
    if profile == nil, let uris = records.objectURIs, uris.count == records.records.count {
      return uris.map { (NoteIdentity.guid(ofObject: $0), true) }
    }
    let noteTypeID = noteType.id
    let identities = records.records.indices.map(identity)
    var counts: [[String]: Int] = [:]
    for identity in identities { counts[identity, default: 0] += 1 }
    var guids = DerivedNoteGUIDs()
    return identities.map { identity in
      (guids.next(noteTypeID: noteTypeID, identity: identity), counts[identity] == 1)
    }
  }

  /// The value a note field is made of: the record's value under the field's key (`stored`; null
  /// when the record lacks the key); without a profile, a string that is a media file's base64
  /// (an app's `Data` in a JSON file, which has no type for it) is that file's bytes
  /// (``MediaSniffing/media(inBase64:)``).
  private func noteValue(_ stored: AppValue?) -> AppValue {
    let value = stored ?? .null
    guard profile == nil, case .string(let text) = value, let data = MediaSniffing.media(inBase64: text) else {
      return value
    }
    return .data(data)
  }

  /// The field text for a value (``AppValue/noteText`` as HTML); `Data` becomes a media file
  /// referenced from the field.
  private static func fieldText(_ value: AppValue) -> (text: String, file: MediaFile?) {
    guard case .data(let data) = value else { return (FieldText.html(value.noteText ?? ""), nil) }
    let kind = MediaSniffing.kind(of: data)
    let name = SHA1.hex(SHA1.digest(data)) + "." + kind.ext
    return (
      MediaSniffing.fieldText(for: name, reference: kind.reference), MediaFile(name: name, blob: MediaBlob(data: data))
    )
  }

  /// Note field names for record keys: the key with Anki's forbidden characters (`:{}"`) and a
  /// leading `#^/` removed, empty names called `Field`, and duplicates numbered.
  static func fieldNames(for keys: [String]) -> [String] {
    var used = Set<String>()
    return keys.map { key in
      var name = key.filter { !":{}\"".contains($0) }.trimmingCharacters(in: .whitespaces)
      while let first = name.first, "#^/".contains(first) { name.removeFirst() }
      if name.isEmpty { name = "Field" }
      var candidate = name
      var suffix = 2
      while !used.insert(candidate.lowercased()).inserted {
        candidate = "\(name) \(suffix)"
        suffix += 1
      }
      return candidate
    }
  }
}
