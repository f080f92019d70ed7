import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Reads an Anki collection database (schema 11 to 18) into the model.
///
/// Note types and decks come from the `col` JSON (schema 11–14) or from their own tables
/// (schema 15–18); notes, cards and the review log have the same columns in every schema.
struct CollectionReader {
  /// The schema versions read: 11 (every legacy file) to 18 (current Anki).
  static let supportedSchemas: ClosedRange<Int64> = 11...18
  /// The separator Anki stores between field values.
  static let fieldSeparator: Character = "\u{1F}"

  let database: SQLiteDatabase
  /// The database file.
  let path: String
  /// The collection's location (file and member), for errors and warnings.
  let location: SourceLocation
  /// Where the rows read are counted, or nil.
  let progress: ProgressReporter?

  /// How many rows are read between two progress reports.
  static let progressStep = 2048

  /// Opens the collection file at `path` (a private temporary copy, so it may be opened
  /// read-write, which WAL-mode files need) and checks that it is an Anki collection.
  init(path: String, location: SourceLocation, progress: ProgressReporter? = nil) throws {
    // Each thread reads through its own connection (see `read()`), so SQLite need not lock.
    self.database = try SQLiteDatabase(path: path, readOnly: false, confined: true, location: location)
    self.path = path
    self.location = location
    self.progress = progress
    database.registerUnicaseCollation()
    for table in ["col", "notes", "cards"] where !database.tableExists(table) {
      throw DeckError(
        .wrongFormat, at: location,
        "not an Anki collection: the SQLite database has no '\(table)' table")
    }
  }

  /// The whole collection, and the warnings about what looked wrong in it; with
  /// `readingSettings`, the collection's own settings and list of tags too (a collection
  /// package's).
  func read(readingSettings: Bool = false) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let header = try readHeader()
    var collection = DeckCollection(creationTime: header.creationTime)
    var nameWarnings: [Diagnostic] = []
    if header.schema >= 15 && database.tableExists("notetypes") {
      collection.noteTypes = try readNoteTypeTables()
      collection.decks = try readDeckTable()
    } else {
      let noteTypes = try Schema11Config.entries(header.models, column: "models", location: location)
        .map { try Schema11Config.noteType($0, location: location) }
        .sorted { $0.id < $1.id }
      (collection.noteTypes, nameWarnings) = Schema11NoteTypeNames.upgraded(noteTypes, location: location)
      collection.decks = try Schema11Config.entries(header.decks, column: "decks", location: location)
        .map { try Schema11Config.deck($0, location: location) }
        .sorted { $0.id < $1.id }
    }
    if database.tableExists("deck_config") {
      collection.deckOptions = try readDeckOptionsTable()
    } else if !header.deckOptions.isEmpty {
      collection.deckOptions = try Schema11Config.entries(header.deckOptions, column: "dconf", location: location)
        .map { try Schema11Config.deckOptions($0, location: location) }
        .sorted { $0.id < $1.id }
    }
    // Cards and the review log are read on a second connection, on a second thread, while
    // this one reads the notes. Problems are still reported in the order notes, cards, reviews.
    let rows = BackgroundWork { [path, location, progress] in
      let reader = try CollectionReader(path: path, location: location, progress: progress)
      let cards = try reader.readCards()
      let reviews = reader.database.tableExists("revlog") ? try reader.readReviews() : []
      return (cards, reviews)
    }
    var invalidText: [Int64] = []
    var withNUL: [Int64] = []
    do {
      (collection.notes, invalidText, withNUL) = try readNotes()
    } catch {
      _ = try? rows.wait()
      throw error
    }
    (collection.cards, collection.reviews) = try rows.wait()
    collection.deletions = try readDeletions()
    var settingWarnings: [Diagnostic] = []
    if readingSettings {
      (collection.settings, settingWarnings) = try readSettings()
      let (tags, tagWarnings) = try readTagRegistry()
      collection.tagRegistry = tags
      settingWarnings += tagWarnings
    } else if let minutesWest = try packageCreationOffset() {
      // A deck package's settings are not kept, but Anki's import counts its days from the date
      // the collection was made in the zone it records.
      collection.creationTime = CardDueDates.creationTime(header.creationTime, madeAt: minutesWest)
    }
    try Self.requireUniqueIDs(collection.notes.map(\.id), table: "notes", location: location)
    try Self.requireUniqueIDs(collection.cards.map(\.id), table: "cards", location: location)
    var schedulerWarnings: [Diagnostic] = []
    switch try schedulerVersion() {
    case .v1:
      let changes = V1SchedulerUpgrade.upgrade(&collection)
      // A collection package's settings are written for the v2 scheduler, whatever the rows.
      if changes != V1SchedulerUpgrade.Changes() || readingSettings {
        schedulerWarnings.append(
          V1SchedulerUpgrade.warning(changes, settingsRewritten: readingSettings, location: location))
      }
    case .v2: break
    case .unreadable(let warning): schedulerWarnings.append(warning)
    }
    let textWarnings = invalidText.prefix(Self.listedInvalidNotes).map { id in
      Diagnostic(
        .invalidUTF8, at: location.table("notes", row: id),
        "the note's fields or tags are not valid UTF-8; each invalid byte sequence is read as U+FFFD (�)")
    }
    let more = invalidText.count - textWarnings.count
    let summary =
      more > 0
      ? [
        Diagnostic(
          .invalidUTF8, at: location.table("notes"), "\(more) more notes have fields or tags that are not valid UTF-8"
        )
      ]
      : []
    let nulWarnings = withNUL.prefix(1).map { first in
      Diagnostic(
        .fieldChanged, at: location.table("notes", row: first),
        "\(CountedNoun.phrase(withNUL.count, "note")) \(withNUL.count == 1 ? "has" : "have") fields holding the character U+0000 (NUL), which Anki removes from every field it saves, as its import of a package does; it is removed (\(CountedNoun.noun("note", for: withNUL.count)) \(ShortList.text(withNUL.map(String.init))))"
      )
    }
    return (
      collection,
      nameWarnings + textWarnings + summary + nulWarnings + schedulerWarnings + settingWarnings
        + CollectionChecks.warnings(for: collection, location: location)
    )
  }

  // MARK: - Deletion records

  /// The collection's deletion records (the `graves` table: notes, cards and decks deleted
  /// since its last sync, which Anki sends at its next one), as stored. Anki's deck packages
  /// hold none; a collection package may, and Anki keeps them when it restores one. Schema 11
  /// and 18 name the columns alike (18 keeps one row per object and kind).
  private func readDeletions() throws -> [Deletion] {
    guard database.tableExists("graves") else { return [] }
    return try readRows("graves", "SELECT oid, type, usn FROM graves") { rows in
      Deletion(
        objectID: rows.int64(0), kind: DeletionKind(rawValue: Int(rows.int64(1))),
        updateSequenceNumber: rows.int64(2))
    }
  }

  // MARK: - The scheduler

  /// Which of Anki's schedulers kept the collection, by its `schedVer` setting.
  private enum SchedulerVersion {
    case v1
    case v2
    /// The setting could not be read: the scheduling is kept as stored, with this warning.
    case unreadable(Diagnostic)
  }

  /// The collection's `schedVer` setting, where Anki reads it: the `config` table when there
  /// is one (schema 14 on), else the `conf` JSON of the `col` row. A missing setting means v1,
  /// as Anki reads it; 2 (or more) means v2, whose rules v3 shares.
  private func schedulerVersion() throws -> SchedulerVersion {
    let text: String
    let settingLocation: SourceLocation
    if database.tableExists("config") {
      settingLocation = location.table("config").item("key 'schedVer'")
      let statement = try database.prepare("SELECT val FROM config WHERE key = 'schedVer'", table: "config")
      guard try statement.step() else { return .v1 }
      text = String(decoding: statement.blob(0), as: UTF8.self)
    } else {
      settingLocation = location.table("col", row: 1).item("column conf")
      let statement = try database.prepare("SELECT conf FROM col", table: "col")
      guard try statement.step() else { return .v2 }
      let object = try? FoundationJSON.object(statement.text(0).utf8)
      guard let settings = object as? [String: Any] else {
        return .unreadable(
          Diagnostic(
            .schedulerUnknown, at: settingLocation,
            "the collection's settings are not a JSON object, so which scheduler kept it is unknown; its scheduling is kept as stored"
          ))
      }
      guard let value = settings["schedVer"] else { return .v1 }
      text = (value as? NSNumber)?.stringValue ?? (value as? String) ?? ""
    }
    guard let version = Int(text.trimmingCharacters(in: .whitespaces)) else {
      return .unreadable(
        Diagnostic(
          .schedulerUnknown, at: settingLocation,
          "the scheduler version is not a whole number, so which scheduler kept the collection is unknown; its scheduling is kept as stored"
        ))
    }
    return version <= 1 ? .v1 : .v2
  }

  /// The collection's `creationOffset` setting (minutes west of UTC of the zone it was made in),
  /// when it holds a whole number: Anki's import of a deck package counts the package's days
  /// from the date the collection was made there.
  private func packageCreationOffset() throws -> Int? {
    try readSetting("creationOffset")?.writtenInteger.flatMap { Int(exactly: $0) }
  }

  /// Refuses two rows of `table` with one id (possible only in a table without its primary key):
  /// every reference to the id would be ambiguous, and Anki refuses such a package.
  private static func requireUniqueIDs(_ ids: [Int64], table: String, location: SourceLocation) throws {
    // Rows are read in id order, so a repeated id follows its first row.
    for index in ids.indices.dropFirst() where ids[index] == ids[index - 1] {
      throw DeckError(
        .corrupt, at: location.table(table, row: ids[index]),
        "two rows have the id \(ids[index]); references to it would be ambiguous, and Anki refuses such a package")
    }
  }

  // MARK: - col

  private struct Header {
    var schema: Int64
    var creationTime: Int64
    var models: String
    var decks: String
    var deckOptions: String
  }

  private func readHeader() throws -> Header {
    let statement = try database.prepare("SELECT ver, crt, models, decks, dconf FROM col", table: "col")
    guard try statement.step() else {
      throw DeckError(.corrupt, at: location.table("col"), "the 'col' table has no row")
    }
    let schema = statement.int64(0)
    guard Self.supportedSchemas.contains(schema) else {
      let relation = schema < Self.supportedSchemas.lowerBound ? "older" : "newer"
      throw DeckError(
        .unsupportedVersion, at: location.table("col", row: 1).item("column ver"),
        "collection schema \(schema) is \(relation) than the schemas deckport reads (11 to 18)")
    }
    return Header(
      schema: schema, creationTime: statement.int64(1), models: statement.text(2),
      decks: statement.text(3), deckOptions: statement.text(4))
  }

  // MARK: - Schema 15+ tables

  private func readNoteTypeTables() throws -> [NoteType] {
    let fields = try readRows("fields", "SELECT ntid, ord, name, config FROM fields ORDER BY ntid, ord") { fields in
      let noteTypeID = fields.int64(0)
      let rowLocation = location.table("fields").item("note type \(noteTypeID), field \(fields.int64(1))")
      return (
        noteTypeID: noteTypeID,
        field: try Schema18Config.field(name: fields.text(2), config: fields.blob(3), location: rowLocation)
      )
    }
    let fieldsByNoteType = Dictionary(grouping: fields, by: \.noteTypeID).mapValues { $0.map(\.field) }
    let templates = try readRows(
      "templates", "SELECT ntid, ord, name, config FROM templates ORDER BY ntid, ord"
    ) { templates in
      let noteTypeID = templates.int64(0)
      let rowLocation = location.table("templates").item(
        "note type \(noteTypeID), template \(templates.int64(1))")
      return (
        noteTypeID: noteTypeID,
        template: try Schema18Config.template(
          name: templates.text(2), config: templates.blob(3), location: rowLocation)
      )
    }
    let templatesByNoteType = Dictionary(grouping: templates, by: \.noteTypeID).mapValues { $0.map(\.template) }
    return try readRows("notetypes", "SELECT id, name, mtime_secs, config, usn FROM notetypes ORDER BY id") { rows in
      let id = rows.int64(0)
      let config = try Schema18Config.noteTypeConfig(
        rows.blob(3), location: location.table("notetypes", row: id).item("column config"))
      return NoteType(
        id: id, name: rows.text(1), kind: config.kind, fields: fieldsByNoteType[id] ?? [],
        templates: templatesByNoteType[id] ?? [], css: config.css,
        sortFieldIndex: config.sortFieldIndex, latexPreamble: config.latexPreamble,
        latexPostamble: config.latexPostamble, latexSVG: config.latexSVG,
        originalStockKind: config.originalStockKind, originalID: config.originalID,
        modificationTime: rows.int64(2), crowdAnkiUUID: config.crowdAnkiUUID,
        ankiProperties: Schema11Properties.properties([("usn", .int(rows.int64(4)))] + config.members, of: .noteType))
    }
  }

  private func readDeckTable() throws -> [Deck] {
    try readRows("decks", "SELECT id, name, mtime_secs, kind, common, usn FROM decks ORDER BY id") { rows in
      let id = rows.int64(0)
      let kind = try Schema18Config.deckKind(
        rows.blob(3), location: location.table("decks", row: id).item("column kind"))
      let common = try Schema18Config.deckCommon(
        rows.blob(4), location: location.table("decks", row: id).item("column common"))
      let members = [("usn", JSONValue.int(rows.int64(5)))] + common.members + kind.members
      return Deck(
        id: id, name: rows.text(1).replacingOccurrences(of: "\u{1F}", with: Deck.levelSeparator),
        description: kind.description, descriptionIsMarkdown: kind.isMarkdown, kind: kind.kind,
        modificationTime: rows.int64(2), crowdAnkiUUID: common.crowdAnkiUUID,
        ankiProperties: Schema11Properties.properties(members, of: Schema11Properties.owner(of: kind.kind)))
    }
  }

  private func readDeckOptionsTable() throws -> [DeckOptions] {
    try readRows("deck_config", "SELECT id, name, mtime_secs, config, usn FROM deck_config ORDER BY id") { rows in
      DeckOptions(
        id: rows.int64(0), name: rows.text(1), modificationTime: rows.int64(2),
        settings: .anki18Protobuf(rows.blob(3)),
        ankiProperties: Schema11Properties.properties([("usn", .int(rows.int64(4)))], of: .optionGroup))
    }
  }

  // MARK: - Rows common to every schema

  /// The number of rows of `table`, to size an array once instead of growing it (a growing
  /// array of 200,000 cards holds both its old and its new buffer for a moment).
  private func rowCount(_ table: String) -> Int {
    guard let statement = try? database.prepare("SELECT count(*) FROM \(table)", table: table),
      (try? statement.step()) == true
    else { return 0 }
    return Int(max(0, statement.int64(0)))
  }

  /// How many notes with invalid UTF-8 are named one by one before the rest are counted.
  static let listedInvalidNotes = 20

  /// The notes, and the ids of those whose fields or tags are not valid UTF-8 (read with
  /// U+FFFD in place of each invalid sequence, as Swift decodes them).
  private func readNotes() throws -> (notes: [Note], invalidText: [Int64], withNUL: [Int64]) {
    var invalidText: [Int64] = []
    var withNUL: [Int64] = []
    var tagLists = TagListCache()
    let notes = try readRows(
      "notes", "SELECT id, guid, mid, mod, tags, flds FROM notes ORDER BY id", phase: .readingNotes
    ) { rows in
      var (fields, fieldsValid) = rows.withUTF8(5, Self.checkedFields)
      let tags = rows.withUTF8(4) { bytes in tagLists.tags(for: bytes, split: Self.tags) }
      let id = rows.int64(0)
      if !fieldsValid || !rows.withUTF8(4, Self.isValidUTF8) { invalidText.append(id) }
      // Anki removes U+0000 from every field it saves, and its import of a package does.
      if rows.withUTF8(5, Self.holdsNUL) {
        fields = fields.map(\.withoutNUL)
        withNUL.append(id)
      }
      return Note(
        id: id, guid: rows.text(1), noteTypeID: rows.int64(2), fields: fields, tags: tags,
        modificationTime: rows.int64(3))
    }
    return (notes, invalidText, withNUL)
  }

  /// Whether `bytes` hold a 0 byte (U+0000; a `memchr`).
  private static func holdsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
    return memchr(base, 0, bytes.count) != nil
  }

  /// Every row of `table` that `query` selects, as `row` makes it from the statement standing
  /// on that row. With a `phase` (the large tables), the array is sized from the table's row
  /// count first and the rows read are reported as that phase.
  ///
  /// - Throws: SQLite's errors naming `table`, and whatever `row` throws.
  private func readRows<Row>(
    _ table: String, _ query: String, phase: ConversionPhase? = nil, row: (SQLiteStatement) throws -> Row
  ) throws -> [Row] {
    var result: [Row] = []
    if let phase {
      let total = rowCount(table)
      result.reserveCapacity(total)
      progress?.start(phase, total: Int64(total))
    }
    defer { if let phase { progress?.finish(phase) } }
    let rows = try database.prepare(query, table: table)
    while try rows.step() {
      if result.count % Self.progressStep == 0 {
        try Cancellation.check()
        if let phase { progress?.set(phase, completed: Int64(result.count)) }
      }
      result.append(try row(rows))
    }
    return result
  }

  /// ``fields(_:)``, and whether every byte was valid UTF-8 (each value that is not ASCII
  /// decoded back to exactly its bytes; an invalid sequence becomes U+FFFD and so differs).
  static func checkedFields(_ bytes: UnsafeBufferPointer<UInt8>) -> (values: [String], isValidUTF8: Bool) {
    var count = 1
    var index = separator(in: bytes, from: 0)
    while let found = index {
      count += 1
      index = separator(in: bytes, from: found + 1)
    }
    var values: [String] = []
    values.reserveCapacity(count)
    var valid = true
    var start = 0
    while true {
      let end = separator(in: bytes, from: start) ?? bytes.count
      let value = decoded(UnsafeBufferPointer(rebasing: bytes[start..<end]))
      valid = valid && value.isExact
      values.append(value.text)
      guard end < bytes.count else { return (values, valid) }
      start = end + 1
    }
  }

  /// The index of the first U+001F in `bytes` at or after `start`, or nil (a `memchr`).
  private static func separator(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = bytes.baseAddress, start < bytes.count, let found = memchr(base + start, 0x1F, bytes.count - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Whether `bytes` are valid UTF-8.
  static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    decoded(bytes).isExact
  }

  /// `bytes` decoded as UTF-8, and whether that kept them exactly: decoding replaces each
  /// invalid sequence with U+FFFD, so the text's UTF-8 is `bytes` exactly when they were valid
  /// (one `memcmp`, faster than looking at each byte).
  private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, isExact: Bool) {
    var text = String(decoding: bytes, as: UTF8.self)
    let isExact = text.withUTF8 { utf8 in
      guard utf8.count == bytes.count, let kept = utf8.baseAddress, let read = bytes.baseAddress else {
        return utf8.count == bytes.count
      }
      return memcmp(kept, read, bytes.count) == 0
    }
    return (text, isExact)
  }

  /// The field values of `notes.flds`, split at U+001F.
  ///
  /// Split on the bytes, not on `Character`s: U+001F is a control character, after and before
  /// which a grapheme always breaks, and never part of a longer UTF-8 sequence, so this gives
  /// exactly the values splitting the decoded text would, without decoding it twice.
  static func fields(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    checkedFields(bytes).values
  }

  /// Anki's tag string (space or U+3000 separated, padded with spaces) as a list.
  static func tags(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\u{3000}" }).map(String.init)
  }

  /// ``tags(_:)`` of the UTF-8 `bytes`; ASCII text (nearly every tag string) is split on its
  /// bytes without decoding it first.
  static func tags(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    guard bytes.allSatisfy({ $0 < 0x80 }) else {
      return tags(String(decoding: bytes, as: UTF8.self))
    }
    var tags: [String] = []
    var count = 0
    for index in 0..<bytes.count where bytes[index] != 0x20 && (index == 0 || bytes[index - 1] == 0x20) {
      count += 1
    }
    tags.reserveCapacity(count)
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x20 {
      if index > start {
        tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
      }
      start = index + 1
    }
    return tags
  }

  private func readCards() throws -> [Card] {
    try readRows(
      "cards",
      """
      SELECT id, nid, did, ord, mod, type, queue, due, ivl, factor, reps, lapses, left, odue,
             odid, flags, data
      FROM cards ORDER BY id
      """, phase: .readingCards
    ) { rows in
      Card(
        id: rows.int64(0), noteID: rows.int64(1), templateOrdinal: Int(rows.int64(3)),
        deckID: rows.int64(2), modificationTime: rows.int64(4),
        scheduling: CardScheduling(
          type: CardType(rawValue: Int(rows.int64(5))), queue: CardQueue(rawValue: Int(rows.int64(6))),
          due: rows.int64(7),
          interval: Int(rows.int64(8)), easeFactor: Int(rows.int64(9)),
          reviews: Int(rows.int64(10)), lapses: Int(rows.int64(11)),
          remainingSteps: Int(rows.int64(12)), flags: Int(rows.int64(15)),
          originalDue: rows.int64(13), originalDeckID: rows.int64(14), data: rows.text(16)))
    }
  }

  private func readReviews() throws -> [Review] {
    try readRows(
      "revlog", "SELECT id, cid, ease, ivl, lastIvl, factor, time, type FROM revlog ORDER BY id",
      phase: .readingReviews
    ) { rows in
      Review(
        id: rows.int64(0), cardID: rows.int64(1), ease: Int(rows.int64(2)),
        interval: rows.int64(3), lastInterval: rows.int64(4), easeFactor: Int(rows.int64(5)),
        duration: Int(rows.int64(6)), kind: ReviewKind(rawValue: Int(rows.int64(7))))
    }
  }
}
