import DeckAnki
import DeckCore
import DeckIO
import Foundation

/// Writes the shared model as a CSV or TSV file in the layout of Anki's own "Notes in Plain
/// Text" export, so that Anki's importer, given the file, recreates every note's fields, tags,
/// deck and note type; or, with a header row or chosen columns, as a plain spreadsheet.
///
/// ```swift
/// let warnings = try CSVWriter().write(collection, to: "French.txt")
/// let sheet = CSVOptions(hasHeaderRow: true, columns: try ColumnMapping(parsing: "front,back"))
/// try CSVWriter(options: sheet).write(collection, to: "French.csv")
/// ```
///
/// Anki's layout:
///
/// ```
/// #separator:tab
/// #html:true
/// #guid column:1
/// #notetype column:2
/// #deck column:3
/// #tags column:6
/// GUID→note type→deck→field 1→field 2→tags
/// ```
///
/// Every row has as many field columns as the note type with the most fields (shorter notes end
/// in empty fields, as in Anki's export); fields are written as stored (HTML), or as one line of
/// plain text each with ``CSVOptions/isHTML`` false; tags are joined
/// with spaces; the deck is the home deck of the note's first card. When every note has one
/// note type, a `#columns:` line names the columns. Rows whose deck is a parent of another
/// row's deck come first, because Anki's importer renames a parent deck that a later row names
/// after creating it implicitly (`Parent` becomes `Parent+`).
///
/// The separator is ``CSVOptions/separator``, else comma for a `.csv` path and tab otherwise.
/// What a CSV cannot hold (scheduling, the review log, media, note type definitions, deck
/// settings) is reported in the returned warnings.
package struct CSVWriter: Sendable {
  /// How to write.
  package var options: CSVOptions
  /// Where the notes written are counted, or nil.
  package var progress: ProgressReporter?

  /// Creates a writer.
  package init(options: CSVOptions = CSVOptions(), progress: ProgressReporter? = nil) {
    self.options = options
    self.progress = progress
  }

  /// The separator a file at `path` gets when none is chosen: comma for `.csv`, else tab.
  package static func defaultSeparator(forPath path: String) -> CSVSeparator {
    (path as NSString).pathExtension.lowercased() == "csv" ? .comma : .tab
  }

  /// Writes `collection` to `path` (created or replaced). Messages name `destination` when
  /// given (the final name of a temporary file).
  ///
  /// Notes with the wrong number of fields and cards in a missing deck are repaired first
  /// (``CollectionRepair``), so each row has its note type's columns and a deck name.
  ///
  /// - Returns: what the file does not keep, one warning per kind of loss, after a warning for
  ///   each repair.
  /// - Throws: ``DeckError`` when the deck holds no notes, when a note's note type is missing,
  ///   when a deck name has more than ``Deck/maximumLevels`` levels (which no CSV reader of
  ///   deckport's would take back), or when writing fails.
  @discardableResult
  package func write(_ collection: DeckCollection, to path: String, reportingAs destination: String? = nil) throws
    -> [Diagnostic]
  {
    let location = SourceLocation(file: destination ?? path)
    try Deck.checkDepth(of: collection.decks, at: location)
    // A row holds a note's values in its note type's field order, and its deck by name.
    let (collection, repairs) = try CollectionRepair.repaired(collection, location: location)
    let separator = options.separator ?? Self.defaultSeparator(forPath: destination ?? path)
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Each deck under the name Anki's import stores (` A :: B ` is `A::B`), as a package gets it.
    let (deckNames, renamedDecks) = CSVDeckCell.storedNames(of: collection.decks, location: location)
    for note in collection.notes where noteTypes[note.noteTypeID] == nil {
      throw DeckError(
        .invalidRequest, at: location,
        "note \(note.id) (GUID '\(note.guid)') uses note type \(note.noteTypeID), which the deck does not define; a CSV row needs the note type's name"
      )
    }

    // A file without rows is one Anki's importer refuses as empty, and so does the reader.
    guard !collection.notes.isEmpty else {
      throw DeckError(
        .invalidRequest, at: location,
        "the deck holds no notes, and a CSV file holds notes only: Anki refuses a file without rows as empty (as deckport does), so none is written"
      )
    }

    // Anki's export with "Include HTML and media references" off: each field one line of text.
    let writesPlainText = options.isHTML == false
    let fieldText: (String) -> String = { writesPlainText ? AnkiFieldText.noteExportPlainText($0) : $0 }
    let deckOfNote = NoteDecks(collection)
    func deckName(_ note: Note) -> String {
      deckOfNote[note.id].flatMap { deckNames[$0] } ?? ""
    }

    let scheduleWriting = CSVScheduleCells.Writing(collection, timeZone: options.timeZone)
    var warnings =
      repairs
      + CSVLossReport.warnings(
        for: collection, deckOfNote: deckOfNote,
        keptColumns: Set(options.columns?.schedulingColumns.keys.map { $0 } ?? []),
        scheduleWriting: scheduleWriting, location: location)
    let layout: SheetLayout
    if let mapping = options.columns {
      layout = .columns(mapping)
    } else if options.hasHeaderRow {
      layout = .columns(Self.fullMapping(collection, noteTypes: noteTypes))
    } else {
      layout = .anki
    }
    if case .columns(let mapping) = layout {
      warnings += Self.mappingLosses(mapping, collection: collection, noteTypes: noteTypes, location: location)
    } else {
      // Anki's layout names its deck column, which Anki's importer reads (a sheet's it does not).
      var notesOfDeck: [String: Int] = [:]
      for note in collection.notes { notesOfDeck[deckName(note), default: 0] += 1 }
      if let warning = CSVDeckCell.deckIDWarning(notesOfDeck, location: location) { warnings.append(warning) }
    }
    let writesGUIDs: Bool
    let writesDecks: Bool
    let writesTags: Bool
    if case .columns(let mapping) = layout {
      writesGUIDs = mapping.column(of: .guid) != nil
      writesDecks = mapping.column(of: .deck) != nil
      writesTags = mapping.column(of: .tags) != nil
    } else {
      (writesGUIDs, writesDecks, writesTags) = (true, true, true)
    }
    // Renamed decks are said only where a column names them.
    if writesDecks { warnings += renamedDecks }
    if writesGUIDs {
      warnings += NoteIdentity.sharedGUIDWarnings(
        in: collection.notes, importer: "Anki's CSV import", location: location)
    }
    if let warning = separator.warningUnlessKnownToAnki(at: location) { warnings.append(warning) }
    if writesPlainText {
      warnings += CSVPlainTextLosses.warnings(for: collection.notes, plainText: fieldText, location: location)
    }

    // With a deck column, parents before children, so Anki's importer does not rename a
    // parent deck; otherwise the collection's order.
    // The order is kept as indices, not as a sorted copy of the notes.
    var order = Array(collection.notes.indices)
    if case .columns(let mapping) = layout, mapping.column(of: .deck) == nil {
    } else {
      var depthOfDeck: [Int64: Int] = [:]
      for deck in collection.decks { depthOfDeck[deck.id] = deck.nameComponents.count }
      let depths = collection.notes.map { note in deckOfNote[note.id].flatMap { depthOfDeck[$0] } ?? 0 }
      order.sort { depths[$0] != depths[$1] ? depths[$0] < depths[$1] : $0 < $1 }
    }
    // Tags as Anki's import stores them (a cell of tags split at spaces, NFC, no empty level,
    // one spelling under case folding, the first met in row order), as a deck package holds them.
    let ordered: [Note]
    if writesTags {
      let tagged = ImportedTags.storedInRowOrder(order.map { collection.notes[$0] }, location: location)
      warnings += tagged.warnings
      ordered = tagged.notes
    } else {
      ordered = order.map { collection.notes[$0] }
    }
    var row: [Int64: Int] = [:]
    for (index, position) in order.enumerated() { row[collection.notes[position].id] = index }
    if let count = NewCardOrder.changedCount(in: collection, addedAt: row) {
      warnings.append(
        Diagnostic(
          .csvScheduling, at: location,
          "the order of \(CountedNoun.phrase(count, "new card")) is not kept: a CSV holds no positions, and Anki's importer numbers new cards in the order of the rows, which is not the order the deck shows them in"
        ))
    }

    progress?.start(.writingNotes, total: Int64(order.count))
    defer { progress?.finish(.writingNotes) }
    try FileSink.writing(to: path) { sink in
      var emitter = CSVEmitter(sink: sink, separator: separator)
      switch layout {
      case .anki:
        try Self.writeAnkiLayout(
          ordered, noteTypes: noteTypes, deckName: deckName, isHTML: options.isHTML != false, fieldText: fieldText,
          emitter: &emitter, progress: progress)
      case .columns(let mapping):
        if options.hasHeaderRow { try emitter.writeRow(mapping.roles.map(ColumnMapping.name(of:))) }
        let writesSchedules = !mapping.schedulingColumns.isEmpty
        var targets: [Int64: [Int?]] = [:]
        var htmlOnlyLater = LateHTMLRows(watching: !writesPlainText, headerRow: options.hasHeaderRow)
        for (index, note) in ordered.enumerated() {
          // Checked above: every note's note type exists.
          guard let noteType = noteTypes[note.noteTypeID] else { continue }
          let fieldTargets = targets[noteType.id] ?? mapping.fieldTargets(in: noteType.fieldNames)
          targets[noteType.id] = fieldTargets
          var fieldColumn = 0
          try Cancellation.check(atItem: index)
          defer { progress?.advance(.writingNotes) }
          let firstCard = writesSchedules ? deckOfNote.firstCardIndex(of: note.id) : nil
          let schedule = firstCard.flatMap { scheduleWriting.cells(of: collection.cards[$0]) }
          let cells =
            mapping.roles.map { role in
              switch role {
              case .field:
                defer { fieldColumn += 1 }
                return fieldTargets[fieldColumn].flatMap {
                  note.fields.indices.contains($0) ? fieldText(note.fields[$0]) : nil
                } ?? ""
              case .guid: return note.guid
              case .noteType: return noteType.name
              case .deck: return deckName(note)
              case .tags: return note.tags.joined(separator: " ")
              case .scheduling(.suspended):
                return firstCard.map { CSVScheduleCells.suspendedText(of: collection.cards[$0]) } ?? ""
              case .scheduling(let part): return schedule?[part] ?? ""
              case .skipped: return ""
              }
            }
          htmlOnlyLater.note(cells, ofRow: index)
          try emitter.writeRow(cells)
        }
        if let warning = htmlOnlyLater.warning(at: location) { warnings.append(warning) }
      }
      try emitter.flush()
    }
    return warnings
  }

  private enum SheetLayout {
    case anki
    case columns(ColumnMapping)
  }

  private static func writeAnkiLayout(
    _ notes: some Collection<Note>, noteTypes: [Int64: NoteType], deckName: (Note) -> String, isHTML: Bool,
    fieldText: (String) -> String, emitter: inout CSVEmitter,
    progress: ProgressReporter?
  ) throws {
    let used = Set(notes.lazy.map(\.noteTypeID)).compactMap { noteTypes[$0] }
    let fieldColumns = used.map(\.fields.count).max() ?? 0
    try emitter.writeLine(
      emitter.separator.headerLine)
    try emitter.writeLine("#html:\(isHTML)")
    try emitter.writeLine("#guid column:1")
    try emitter.writeLine("#notetype column:2")
    try emitter.writeLine("#deck column:3")
    try emitter.writeLine("#tags column:\(4 + fieldColumns)")
    if used.count == 1, let only = used.first {
      let labels = ["guid", "notetype", "deck"] + only.fieldNames + ["tags"]
      if !labels.contains(where: { $0.contains("\n") || $0.contains("\r") }) {
        let encoded = labels.map { String(decoding: emitter.encoded($0), as: UTF8.self) }
        try emitter.writeLine(
          "#columns:" + encoded.joined(separator: String(decoding: [emitter.separator.byte], as: UTF8.self)))
      }
    }
    for (index, note) in notes.enumerated() {
      guard let noteType = noteTypes[note.noteTypeID] else { continue }
      try Cancellation.check(atItem: index)
      let padding = Array(repeating: "", count: max(0, fieldColumns - note.fields.count))
      try emitter.writeRow(
        [note.guid, noteType.name, deckName(note)] + note.fields.map(fieldText) + padding
          + [note.tags.joined(separator: " ")])
      progress?.advance(.writingNotes)
    }
  }

  /// The columns of a plain sheet when only a header row is asked for: GUID, note type, deck,
  /// the fields (by name when every note has one note type, else `Field 1…N`), tags.
  private static func fullMapping(_ collection: DeckCollection, noteTypes: [Int64: NoteType]) -> ColumnMapping {
    let used = Set(collection.notes.map(\.noteTypeID)).compactMap { noteTypes[$0] }
    let names: [String]
    if used.count == 1, let only = used.first {
      names = only.fieldNames
    } else {
      names = (0..<(used.map(\.fields.count).max() ?? 0)).map { "Field \($0 + 1)" }
    }
    let roles: [ColumnMapping.Role] = [.guid, .noteType, .deck] + names.map { .field($0) } + [.tags]
    return ColumnMapping(checkedRoles: roles)
  }

  /// What a plain sheet with `mapping` leaves out: fields no column names, and the GUIDs, note
  /// types, decks and tags when no column holds them.
  private static func mappingLosses(
    _ mapping: ColumnMapping, collection: DeckCollection, noteTypes: [Int64: NoteType], location: SourceLocation
  ) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    func warn(_ message: DeckMessage) { warnings.append(Diagnostic(.csvColumns, at: location, message)) }
    var notesPerType: [Int64: Int] = [:]
    for note in collection.notes { notesPerType[note.noteTypeID, default: 0] += 1 }
    var leftOut: [String] = []
    for noteType in collection.noteTypes.sorted(by: { $0.name < $1.name }) {
      guard let count = notesPerType[noteType.id] else { continue }
      let targets = Set(mapping.fieldTargets(in: noteType.fieldNames).compactMap { $0 })
      let missing = noteType.fieldNames.indices.filter { !targets.contains($0) }.map { noteType.fieldNames[$0] }
      if !missing.isEmpty {
        leftOut.append("\(noteType.name): \(missing.joined(separator: ", ")) (\(CountedNoun.phrase(count, "note")))")
      }
    }
    if !leftOut.isEmpty {
      warn("fields not in \(setting: .csvColumns) are not written: \(leftOut.joined(separator: "; "))")
    }
    if mapping.column(of: .guid) == nil, !collection.notes.isEmpty {
      warn(
        "the notes' GUIDs are not written (no guid column), so importing the sheet again adds new notes instead of updating these"
      )
    }
    if mapping.column(of: .noteType) == nil {
      let names = Set(collection.notes.compactMap { noteTypes[$0.noteTypeID]?.name }).sorted()
      if names.count > 1 || names.contains(where: { $0 != StockNoteType.basic.rawValue }) {
        warn("note types are not written (no notetype column): \(ShortList.quoted(names))")
      }
    }
    if mapping.column(of: .deck) == nil {
      let deckIDs = Set(
        collection.cards.map { $0.scheduling.originalDeckID != 0 ? $0.scheduling.originalDeckID : $0.deckID })
      let names = deckIDs.compactMap { collection.deck(id: $0)?.name }.sorted()
      if names.count > 1 || names.contains(where: { $0 != "Default" }) {
        warn("decks are not written (no deck column): \(ShortList.quoted(names))")
      }
    }
    if mapping.column(of: .tags) == nil {
      let tagged = collection.notes.filter { !$0.tags.isEmpty }.count
      if tagged > 0 {
        warn("tags are not written (no tags column): \(tagged) note\(tagged == 1 ? " has" : "s have") tags")
      }
    }
    return warnings
  }
}
