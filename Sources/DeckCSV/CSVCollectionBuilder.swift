import DeckAnki
import DeckCore
import Foundation

/// Turns the rows read from a file into the shared model: note types, decks (with their
/// parents), notes in file order, and the cards Anki would make for each note.
///
/// A row without a GUID (the file has no GUID column, or repeats one) gets a GUID derived from
/// its note's identity (``DerivedNoteGUIDs/next(noteTypeID:deck:firstField:)``): its note
/// type, its first field and its top-level deck. So the same file always gives the same deck,
/// and a package made from an edited file updates the notes whose other fields, tags or
/// subdeck changed, as Anki's own CSV import matches notes by their first field. Note and card ids are
/// numbered in file order from a base derived from all the GUIDs, so the notes keep the file's
/// order in id order.
struct CSVCollectionBuilder {
  /// One row, read and mapped.
  struct Row {
    /// The index of its note type in the catalog.
    var noteType: Int
    /// Field values, in the note type's field order (possibly fewer than it has).
    var values: [String]
    /// How many of the note type's fields the row itself supplied.
    var supplied: Int
    /// Tags.
    var tags: [String]
    /// The full deck name.
    var deck: String
    /// The GUID from a GUID column, or empty.
    var guid: String
    /// The schedule its scheduling columns give the note's cards, or nil for new cards.
    var schedule: ReviewSchedule?
    /// Whether its `suspended` column suspends the note's cards.
    var suspended = false
    /// The line the row starts on.
    var line: Int
  }

  let location: SourceLocation
  /// The modification time given to every note and card (the file's, in seconds).
  let modificationTime: Int64
  /// The zone of the scheduling columns' days: the collection's days start at 4 a.m. there.
  let timeZone: TimeZone

  /// The collection made from `rows`, with warnings about note types made up or extended,
  /// rows padded, GUIDs given twice and tags Anki's import stores otherwise.
  ///
  /// `filling` has counted the rows' text and the empty values they were filled with so far.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at a row's line when its deck name has more than
  ///   ``Deck/maximumLevels`` levels; ``DeckError/Kind/memoryLimitExceeded`` when filling the rows to
  ///   their note types' field counts passes ``FieldFilling/limit``.
  func collection(
    rows: consuming [Row], catalog: CSVNoteTypeCatalog, filling: FieldFilling
  ) throws -> (DeckCollection, [Diagnostic]) {
    var rows = rows
    var filling = filling
    var (noteTypes, warnings) = catalog.noteTypes(location: location)
    var decks = DeckTable()
    // Compared exactly: Anki keeps GUIDs that differ only in Unicode composition apart.
    var guids = DerivedNoteGUIDs()
    var padded = CSVLineSample()
    var repeatedGUIDs = CSVLineSample()
    // Each deck name Anki stores otherwise: the name it stores, and the first line naming it.
    var renamedDecks: [String: (stored: String, line: Int)] = [:]
    // The stored name of each deck name the rows give (most rows repeat a few).
    var storedDeckNames: [String: String] = [:]

    // Field values and GUIDs first (in place): the ids are numbered from a base derived from
    // every GUID.
    for index in rows.indices {
      let row = rows[index]
      let noteType = noteTypes[row.noteType]
      var values = Array(row.values.prefix(noteType.fields.count))
      if row.supplied < noteType.fields.count {
        padded.add(row.line)
      }
      if values.count < noteType.fields.count {
        var place = location
        place.line = row.line
        // The row's text was counted as it was read.
        try filling.countFill(given: values.count, of: noteType.fields.count, noteType: noteType.name, at: place)
        values += repeatElement("", count: noteType.fields.count - values.count)
      }
      // Decks by the names Anki stores (` A :: B ` is `A::B`), so rows that spell one deck
      // apart are one deck, as in Anki's own import.
      let deck = storedDeckNames[row.deck] ?? Deck.storedName(row.deck)
      storedDeckNames[row.deck] = deck
      if !deck.unicodeScalars.elementsEqual(row.deck.unicodeScalars) {
        if renamedDecks[row.deck] == nil { renamedDecks[row.deck] = (deck, row.line) }
        rows[index].deck = deck
      }
      var guid = row.guid
      if !guid.isEmpty, guids.contains(guid) {
        repeatedGUIDs.add(row.line)
        guid = ""
      }
      if guid.isEmpty {
        guid = guids.next(noteTypeID: noteType.id, deck: deck, firstField: values.first ?? "")
      } else {
        guids.insert(guid)
      }
      rows[index].values = values
      rows[index].guid = guid
    }

    var drafts: [NewNotes.Draft] = []
    drafts.reserveCapacity(rows.count)
    for row in rows {
      var place = location
      place.line = row.line
      drafts.append(
        NewNotes.Draft(
          guid: row.guid, noteTypeIndex: row.noteType, fields: row.values, tags: row.tags,
          deckID: try decks.id(for: row.deck, at: place)))
    }
    // The line each row starts on, by row: where the card limit and the tags' changes are told.
    let lines = rows.map(\.line)
    var (notes, cards) = try NewNotes.assemble(
      drafts, noteTypes: noteTypes, idSpace: "csv", modificationTime: modificationTime,
      checkingCount: NewNotes.cardLimit { [location] position, _ in
        var place = location
        place.line = lines[position]
        return place
      })
    let creation = Self.schedule(&cards, of: notes, rows: rows, modificationTime: modificationTime, timeZone: timeZone)
    // Tags as Anki's CSV import stores them, meeting the rows in order: `the The` is one tag,
    // spelled as the first row that has it spells it (a `tag-changed` warning at the line).
    let tagged = ImportedTags.readInRowOrder(notes, lines: lines, location: location)
    notes = tagged.notes
    warnings += tagged.warnings

    if padded.count > 0 {
      let paddedCount = padded.count
      var place = location
      place.line = padded.lines.first
      warnings.append(
        Diagnostic(
          .csvPadded, at: place,
          "\(paddedCount) row\(paddedCount == 1 ? " has" : "s have") fewer fields than \(paddedCount == 1 ? "its" : "their") note type and \(paddedCount == 1 ? "was" : "were") padded with empty fields, as Anki pads them (\(padded.listed))"
        ))
    }
    if repeatedGUIDs.count > 0 {
      let repeated = repeatedGUIDs.count
      var place = location
      place.line = repeatedGUIDs.lines.first
      warnings.append(
        Diagnostic(
          .csvGUID, at: place,
          "\(repeated) row\(repeated == 1 ? " repeats the GUID" : "s repeat the GUIDs") of an earlier row; \(repeated == 1 ? "it gets" : "they get") a GUID derived from \(repeated == 1 ? "its" : "their") note type, first field and top-level deck (\(repeatedGUIDs.listed))"
        ))
    }
    for (given, renamed) in renamedDecks.sorted(by: { $0.value.line < $1.value.line }) {
      var place = location
      place.line = renamed.line
      let message: DeckMessage =
        given.isEmpty
        ? "a row's deck cell is empty: Anki's import puts such rows in a deck named '\(renamed.stored)', and so does deckport"
        : "\(Deck.storedNameRule): the deck '\(MediaFileName.visible(given))' is '\(MediaFileName.visible(renamed.stored))', with every row that names either, as Anki's import puts them"
      warnings.append(Diagnostic(.deckRenamed, at: place, message))
    }

    noteTypes.sort { $0.id < $1.id }
    let collection = DeckCollection(
      creationTime: creation, decks: decks.decks.sorted { $0.id < $1.id }, noteTypes: noteTypes, notes: notes,
      cards: cards)
    return (collection, warnings)
  }

  /// Gives the cards of each row's note the row's schedule, if it has one, and suspends them if
  /// the row says so; returns the collection's creation time, from which the cards' due days
  /// count: the start of the Anki day (4 a.m. in `timeZone`) of the earliest due date or the
  /// file's time, or 0 when no row has a schedule.
  private static func schedule(
    _ cards: inout [Card], of notes: [Note], rows: [Row], modificationTime: Int64, timeZone: TimeZone
  ) -> Int64 {
    var schedules: [Int64: ReviewSchedule] = [:]
    var suspended: Set<Int64> = []
    for (note, row) in zip(notes, rows) {
      if let schedule = row.schedule { schedules[note.id] = schedule }
      if row.suspended { suspended.insert(note.id) }
    }
    guard !schedules.isEmpty || !suspended.isEmpty else { return 0 }
    // Days count from the start of the Anki day of the earliest due date (or the file's time).
    let earliest = schedules.values.map(\.due).reduce(Date(timeIntervalSince1970: TimeInterval(modificationTime)), min)
    let creation =
      schedules.isEmpty ? Date(timeIntervalSince1970: 0) : ReviewSchedule.ankiDayStart(of: earliest, timeZone: timeZone)
    for index in cards.indices {
      let noteID = cards[index].noteID
      let isSuspended = suspended.contains(noteID)
      if let schedule = schedules[noteID] {
        cards[index].scheduling = schedule.scheduling(creation: creation, suspended: isSuspended)
      } else if isSuspended {
        cards[index].scheduling.queue = .suspended
      }
    }
    return Int64(creation.timeIntervalSince1970.rounded(.down))
  }
}
