import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Writes a schema-11 Anki collection database: the tables exactly as Anki creates them, the
/// `col` row with the JSON of note types, decks and option groups, and one row per note, card
/// and review.
///
/// Schema 11 is what every Anki since 2.0 and most other tools read, and current Anki upgrades
/// it on import, including inside a Latest package (`anki-formats.md` §2.5, §12.13).
struct CollectionWriter {
  /// The schema version written to `col.ver`.
  static let schemaVersion: Int64 = 11

  /// The tables and indexes of a schema-11 collection (`rslib/src/storage/schema11.sql`).
  static let schemaSQL = """
    CREATE TABLE col (
      id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
      ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL,
      conf text NOT NULL, models text NOT NULL, decks text NOT NULL, dconf text NOT NULL,
      tags text NOT NULL
    );
    CREATE TABLE notes (
      id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
      usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,
      -- integer affinity, so that sort fields holding numbers sort numerically
      sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL
    );
    CREATE TABLE cards (
      id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
      mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL,
      due integer NOT NULL, ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL,
      lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL,
      flags integer NOT NULL, data text NOT NULL
    );
    CREATE TABLE revlog (
      id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
      ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
      type integer NOT NULL
    );
    CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
    """

  /// The indexes of a schema-11 collection, created once the rows are in (one sort per index
  /// instead of an index update per row).
  static let indexSQL = """
    CREATE INDEX ix_notes_usn ON notes (usn);
    CREATE INDEX ix_cards_usn ON cards (usn);
    CREATE INDEX ix_revlog_usn ON revlog (usn);
    CREATE INDEX ix_cards_nid ON cards (nid);
    CREATE INDEX ix_cards_sched ON cards (did, queue, due);
    CREATE INDEX ix_revlog_cid ON revlog (cid);
    CREATE INDEX ix_notes_csum ON notes (csum);
    """

  /// The size of the database's pages (SQLite's default); the first page holds the header.
  static let pageSize = 4096

  /// The update sequence number of rows changed locally, as Anki's exports keep them.
  static let localUSN: Int64 = -1

  /// The checked collection to write.
  let collection: DeckCollection
  /// The `dconf` entries.
  let deckOptions: [(id: Int64, json: JSONValue)]
  /// Deck package or collection package (decides the tag registry).
  let kind: AnkiPackageKind
  /// Where errors point: the output file and the collection member.
  let location: SourceLocation
  /// Where the rows written are counted, or nil.
  var progress: ProgressReporter? = nil
  /// The notes' sort fields and checksums, in note order (``NoteSortFields/of(_:noteTypes:)``
  /// of the collection), asked for once the cards and reviews are in: the package writer hands
  /// over work computing them on another thread meanwhile.
  var sortFields: (() throws -> [NoteSortFields])? = nil

  /// Called with the database file's size once the rows are in and on disk, before the indexes
  /// are built: the file's pages up to there, but the first, do not change any more (the
  /// indexes go after them, and the header on the first page is rewritten last), so the
  /// package writer starts compressing them meanwhile.
  var rowsWritten: ((UInt64) -> Void)? = nil

  /// How many rows are written between two progress reports (a multiple of ``rowsPerStatement``).
  static let progressStep = 2048

  /// How many rows one INSERT statement writes: running a statement costs more than binding
  /// its values, and 32 rows a statement make the same file in some 8 % fewer instructions.
  static let rowsPerStatement = 32

  /// Creates the database at `path` (which must not exist) with SQLite pages of `pageSize`
  /// bytes, and closes it.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` (or SQLite's error kind) naming the output and
  ///   member when SQLite fails.
  func write(to path: String, pageSize: Int = Self.pageSize) throws {
    let database: SQLiteDatabase
    do {
      database = try SQLiteDatabase(path: path, readOnly: false, confined: true, location: location)
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot create the collection database (\(error.message))")
    }
    // The file is private scratch until it is packed: no rollback journal and no syncing
    // while it is built. Neither setting is stored in the file, which is an ordinary
    // rollback-journal database (like Anki's own `journal_mode = delete` exports) once closed.
    try database.execute(
      "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
    try database.execute(Self.schemaSQL)
    try database.execute("BEGIN")
    try insertHeader(database)
    try insertCards(database)
    try insertReviews(database)
    try insertNotes(database)
    try insertDeletions(database)
    // Committed before the indexes (the same file: without a journal, a commit only writes the
    // pages out), so that the rows' pages are on disk while the indexes are built.
    try database.execute("COMMIT")
    let vacuums = pageSize != Self.pageSize
    if let rowsWritten, !vacuums, let size = FileManager.default.fileSize(atPath: path) { rowsWritten(size) }
    try database.execute("BEGIN")
    try database.execute(Self.indexSQL)
    try database.execute("COMMIT")
    if vacuums { try database.execute("VACUUM") }
  }

  // MARK: - col

  private func insertHeader(_ database: SQLiteDatabase) throws {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let noteTypes = collection.noteTypes.map { (id: $0.id, json: Schema11JSON.noteType($0)) }
    let decks = collection.decks.map { (id: $0.id, json: Schema11JSON.deck($0)) }
    let currentDeck = collection.decks.contains { $0.id == 1 } ? 1 : (collection.decks.first?.id ?? 1)
    let config = Schema11JSON.withSettings(
      Schema11JSON.collectionConfig(
        creationTime: collection.creationTime,
        currentNoteTypeID: collection.notes.first?.noteTypeID ?? collection.noteTypes.first?.id,
        currentDeckID: currentDeck, nextPosition: Self.nextPosition(of: collection)),
      collection.settings, deckIDs: Set(collection.decks.map(\.id)),
      lastUnburiedDay: kind == .colpkg ? Self.lastUnburiedDay(of: collection, now: Date()) : nil)
    let statement = try database.prepare(
      "INSERT INTO col VALUES (1, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?, ?)", table: "col")
    statement.bind(1, int64: collection.creationTime)
    statement.bind(2, int64: now)
    statement.bind(3, int64: now)
    statement.bind(4, int64: Self.schemaVersion)
    statement.bind(5, text: config.text)
    statement.bind(6, text: Schema11JSON.map(noteTypes).text)
    statement.bind(7, text: Schema11JSON.map(decks).text)
    statement.bind(8, text: Schema11JSON.map(deckOptions).text)
    statement.bind(9, text: Schema11JSON.tagRegistry(collection, kind: kind).text)
    _ = try statement.step()
  }

  /// The day a collection package records as the last one Anki released its buried cards on
  /// (`lastUnburied`, counted in days from the collection's creation), when cards are buried and
  /// the deck has no collection settings (it was read from a deck package, or from a format
  /// without them): today, so that the restored collection keeps them buried until Anki's next
  /// day, as its import of a deck package does. Without it, Anki releases every buried card as it
  /// opens the collection. Nil otherwise (a collection's own settings are written as they are),
  /// or when the creation time is not a day count away from `now`.
  static func lastUnburiedDay(of collection: DeckCollection, now: Date) -> Int64? {
    guard collection.settings.isEmpty,
      collection.cards.contains(where: { [.buriedBySibling, .buriedByUser].contains($0.scheduling.queue) })
    else { return nil }
    let days = ((now.timeIntervalSince1970 - Double(collection.creationTime)) / 86_400).rounded(.down)
    guard days >= 0, days < 1_000_000 else { return nil }
    return Int64(days)
  }

  /// The position Anki gives the next new card of `collection`: one past its highest new card's.
  static func nextPosition(of collection: DeckCollection) -> Int64 {
    // The highest position of a new card, without gathering the new cards.
    var lastPosition: Int64?
    for card in collection.cards where card.scheduling.type == .new {
      lastPosition = max(lastPosition ?? card.scheduling.due, card.scheduling.due)
    }
    return nextPosition(after: lastPosition)
  }

  /// The position Anki gives the next new card: one past the highest position, at least 1, and
  /// never past the largest 64-bit number (the model's positions are not bounded; the writer
  /// brings them into Anki's 32-bit range before this, see ``AnkiValueRanges``).
  static func nextPosition(after lastPosition: Int64?) -> Int64 {
    guard let lastPosition else { return 1 }
    let (next, overflow) = lastPosition.addingReportingOverflow(1)
    return overflow ? Int64.max : max(1, next)
  }

  // MARK: - Rows

  private func insertNotes(_ database: SQLiteDatabase) throws {
    let derived = try sortFields?() ?? NoteSortFields.of(collection.notes, noteTypes: collection.noteTypes)
    guard derived.count == collection.notes.count else {
      preconditionFailure("sort fields for \(derived.count) notes, not \(collection.notes.count)")
    }
    // `tags` and `flds` are assembled in reused buffers, not as new strings per note.
    var tags: [UInt8] = []
    var fields: [UInt8] = []
    var noteIndex = 0
    try insertRows(
      collection.notes, into: "notes", values: "(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '')", parameters: 9,
      phase: .writingNotes, database
    ) { note, statement, first in
      let columns = derived[noteIndex]
      noteIndex += 1
      tags.removeAll(keepingCapacity: true)
      if !note.tags.isEmpty {
        for tag in note.tags {
          tags.append(0x20)
          tags.append(contentsOf: tag.utf8)
        }
        tags.append(0x20)
      }
      fields.removeAll(keepingCapacity: true)
      for (index, field) in note.fields.enumerated() {
        if index > 0 { fields.append(0x1F) }
        fields.append(contentsOf: field.utf8)
      }
      statement.bind(first + 1, int64: note.id)
      statement.bind(first + 2, text: note.guid)
      statement.bind(first + 3, int64: note.noteTypeID)
      statement.bind(first + 4, int64: note.modificationTime)
      statement.bind(first + 5, int64: Self.localUSN)
      tags.withUnsafeBufferPointer { statement.bind(first + 6, utf8: $0) }
      fields.withUnsafeBufferPointer { statement.bind(first + 7, utf8: $0) }
      // Bound as text; the column's integer affinity stores "12" as 12, exactly as Anki does.
      statement.bind(first + 8, text: columns.sortField)
      statement.bind(first + 9, int64: Int64(columns.checksum))
    }
  }

  private func insertCards(_ database: SQLiteDatabase) throws {
    try insertRows(
      collection.cards, into: "cards", values: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      parameters: 18, phase: .writingCards, database
    ) { card, statement, first in
      let s = card.scheduling
      statement.bind(
        first + 1,
        int64s: [
          card.id,  // id
          card.noteID,  // nid
          card.deckID,  // did
          Int64(card.templateOrdinal),  // ord
          card.modificationTime,  // mod
          Self.localUSN,  // usn
          Int64(s.type.rawValue),  // type
          Int64(s.queue.rawValue),  // queue
          s.due,  // due
          Int64(s.interval),  // ivl
          Int64(s.easeFactor),  // factor
          Int64(s.reviews),  // reps
          Int64(s.lapses),  // lapses
          Int64(s.remainingSteps),  // left
          s.originalDue,  // odue
          s.originalDeckID,  // odid
          Int64(s.flags),  // flags
        ])
      // Kept as stored: Anki reads "" and "{}" alike (CardData::from_str falls back to empty).
      statement.bind(first + 18, text: s.data)
    }
  }

  private func insertReviews(_ database: SQLiteDatabase) throws {
    try insertRows(
      collection.reviews, into: "revlog", values: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", parameters: 9,
      phase: .writingReviews, database
    ) { review, statement, first in
      statement.bind(
        first + 1,
        int64s: [
          review.id,  // id
          review.cardID,  // cid
          Self.localUSN,  // usn
          Int64(review.ease),  // ease
          review.interval,  // ivl
          review.lastInterval,  // lastIvl
          Int64(review.easeFactor),  // factor
          Int64(review.duration),  // time
          Int64(review.kind.rawValue),  // type
        ])
    }
  }

  /// The deletion records, as read (`graves` keeps each one's update sequence number).
  private func insertDeletions(_ database: SQLiteDatabase) throws {
    try insertRows(
      collection.deletions, into: "graves", values: "(?, ?, ?)", parameters: 3, phase: nil, database
    ) { deletion, statement, first in
      statement.bind(first + 1, int64: deletion.updateSequenceNumber)
      statement.bind(first + 2, int64: deletion.objectID)
      statement.bind(first + 3, int64: Int64(deletion.kind.rawValue))
    }
  }

  /// Inserts one row into `table` per element of `rows`, ``rowsPerStatement`` rows a statement
  /// (and one a statement for the rest), and reports the rows written as `phase` (if any). `values` is
  /// the SQL of one row's values with `parameters` parameters; `bind` binds an element's
  /// values to the statement's parameters after `first` (so its first value goes to `first + 1`).
  private func insertRows<Row>(
    _ rows: [Row], into table: String, values: String, parameters: Int32, phase: ConversionPhase?,
    _ database: SQLiteDatabase, bind: (Row, SQLiteStatement, _ first: Int32) -> Void
  ) throws {
    if let phase { progress?.start(phase, total: Int64(rows.count)) }
    defer { if let phase { progress?.finish(phase) } }
    let batch = Self.rowsPerStatement
    let one = try database.prepare("INSERT INTO \(table) VALUES \(values)", table: table)
    let many =
      rows.count >= batch
      ? try database.prepare(
        "INSERT INTO \(table) VALUES " + Array(repeating: values, count: batch).joined(separator: ", "), table: table)
      : one
    var index = 0
    while index < rows.count {
      let count = rows.count - index >= batch ? batch : 1
      let statement = count == batch ? many : one
      if index % Self.progressStep < count {
        try Cancellation.check()
        if let phase { progress?.set(phase, completed: Int64(index)) }
      }
      statement.reset()
      for offset in 0..<count {
        bind(rows[index + offset], statement, Int32(offset) * parameters)
      }
      _ = try statement.step()
      index += count
    }
  }
}

extension SQLiteStatement {
  /// Binds `values` to parameter `index` (1-based) and the ones after it, in order: a row's
  /// integer columns in the order of its table.
  fileprivate func bind(_ index: Int32, int64s values: [Int64]) {
    for (offset, value) in values.enumerated() {
      bind(index + Int32(offset), int64: value)
    }
  }
}
