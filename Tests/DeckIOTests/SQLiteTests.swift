import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("SQLiteDatabase")
struct SQLiteTests {
  /// A new database in `scratch` with a `notes` table of every storage class.
  static func makeDatabase(in scratch: TemporaryDirectory) throws -> (SQLiteDatabase, String) {
    let path = scratch.path(for: "test.sqlite")
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: "test.sqlite"))
    try database.execute(
      """
      CREATE TABLE notes (id integer PRIMARY KEY, flds text, score real, data blob, extra text);
      INSERT INTO notes VALUES (1, 'front\u{1F}back', 2.5, x'00ff10', NULL);
      """)
    return (database, path)
  }

  /// Inserts row 2 of `notes`: a blob just over the spill threshold as `data`, and `extra`.
  static func insertPicture(into database: SQLiteDatabase, extra: String? = nil) throws -> Data {
    let picture = Data((0..<(SpilledBytes.threshold + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let insert = try database.prepare("INSERT INTO notes (id, data, extra) VALUES (?, ?, ?)", table: "notes")
    insert.bind(1, int64: 2)
    insert.bind(2, blob: picture)
    if let extra { insert.bind(3, text: extra) } else { insert.bindNull(3) }
    #expect(try insert.step() == false)
    return picture
  }

  @Test("rows round-trip through bound parameters and typed columns")
  func roundTrip() throws {
    let scratch = try TemporaryDirectory()
    let (database, _) = try Self.makeDatabase(in: scratch)
    let insert = try database.prepare("INSERT INTO notes VALUES (?, ?, ?, ?, ?)", table: "notes")
    insert.bind(1, int64: 1_700_000_000_000)
    insert.bind(2, text: "café 😀\u{0}tail")
    insert.bind(3, double: -0.125)
    insert.bind(4, blob: Data([9, 8, 7]))
    insert.bindNull(5)
    #expect(try insert.step() == false)
    insert.reset()
    insert.bind(1, .integer(3))
    insert.bind(2, .text(""))
    insert.bind(3, .null)
    insert.bind(4, blob: Data())
    insert.bind(5, .text("x"))
    #expect(try insert.step() == false)

    let rows = try database.prepare("SELECT id, flds, score, data, extra FROM notes ORDER BY id", table: "notes")
    #expect(rows.columnCount == 5)
    #expect(rows.columnName(1) == "flds")
    #expect(try rows.step())
    #expect(rows.int64(0) == 1)
    #expect(rows.text(1) == "front\u{1F}back")
    #expect(rows.double(2) == 2.5)
    #expect(rows.blob(3) == Data([0x00, 0xFF, 0x10]))
    #expect(rows.columnType(4) == .null)
    #expect(rows.text(4) == "")
    #expect(rows.optionalText(4) == nil)
    #expect(rows.value(0) == .integer(1))
    #expect(rows.value(2) == .real(2.5))
    #expect(rows.value(3) == .blob(Data([0x00, 0xFF, 0x10])))
    #expect(rows.value(4) == .null)

    #expect(try rows.step())
    #expect(rows.int64(0) == 3)
    #expect(rows.columnType(1) == .text)
    #expect(rows.optionalText(1) == "")
    #expect(rows.columnType(3) == .blob, "an empty blob stays a blob")
    #expect(rows.blob(3).isEmpty)

    #expect(try rows.step())
    #expect(rows.int64(0) == 1_700_000_000_000)
    #expect(rows.text(1) == "café 😀\u{0}tail", "text with an embedded NUL keeps its length")
    #expect(rows.value(2) == .real(-0.125))
    #expect(rows.columnType(1) == .text)
    #expect(rows.columnType(2) == .real)
    #expect(rows.columnType(0) == .integer)
    #expect(try rows.step() == false)

    rows.reset()
    #expect(try rows.step())
    #expect(rows.int64(0) == 1)
  }

  @Test("a blob is compared with bytes where SQLite holds it: equal only to the same bytes, never to text or NULL")
  func blobComparedInPlace() throws {
    let scratch = try TemporaryDirectory()
    let (database, _) = try Self.makeDatabase(in: scratch)
    let picture = try Self.insertPicture(into: database, extra: "\u{00}\u{FF}\u{10}")
    let rows = try database.prepare("SELECT data, extra, score FROM notes ORDER BY id", table: "notes")
    #expect(try rows.step())
    #expect(rows.blob(0, isEqualTo: Data([0x00, 0xFF, 0x10])))
    #expect(!rows.blob(0, isEqualTo: Data([0x00, 0xFF, 0x11])))
    #expect(!rows.blob(0, isEqualTo: Data([0x00, 0xFF])))
    #expect(!rows.blob(1, isEqualTo: Data()), "NULL is no blob")
    #expect(!rows.blob(2, isEqualTo: Data("2.5".utf8)), "a real is no blob")
    #expect(try rows.step())
    #expect(rows.blob(0, isEqualTo: picture))
    var changed = picture
    changed[changed.count - 1] ^= 1
    #expect(!rows.blob(0, isEqualTo: changed))
    #expect(!rows.blob(1, isEqualTo: Data("\u{00}\u{FF}\u{10}".utf8)), "text is no blob")
  }

  @Test("a large blob is read mapped from a private temporary file, the same bytes; a small one into memory")
  func largeBlobIsSpilled() throws {
    let scratch = try TemporaryDirectory()
    let (database, _) = try Self.makeDatabase(in: scratch)
    let picture = try Self.insertPicture(into: database)
    let rows = try database.prepare("SELECT data FROM notes ORDER BY id", table: "notes")
    #expect(try rows.step())
    let small = rows.blob(0)
    #expect(small == Data([0x00, 0xFF, 0x10]))
    #expect(!MemoryMaps.isSpilled(small))
    #expect(try rows.step())
    let large = rows.blob(0)
    guard case .blob(let value) = rows.value(0) else {
      Issue.record("not a blob")
      return
    }
    #expect(large == picture)
    #expect(value == picture)
    #if os(Linux)
    #expect(MemoryMaps.isSpilled(large), "\(MemoryMaps.file(holding: large) ?? "heap")")
    #expect(MemoryMaps.isSpilled(value))
    #endif
  }

  @Test("a read-only database can be read but not written")
  func readOnly() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeDatabase(in: scratch).1
    let database = try SQLiteDatabase(path: path, readOnly: true, location: SourceLocation(file: "ro.sqlite"))
    let count = try database.prepare("SELECT count(*) FROM notes")
    #expect(try count.step())
    #expect(count.int64(0) == 1)
    let error = try #require(throws: DeckError.self) { try database.execute("DELETE FROM notes") }
    #expect(error.kind == .writeFailed)
    #expect(error.message.contains("readonly"))
  }

  @Test("a file that is not SQLite is wrongFormat at once")
  func notADatabase() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "fake.sqlite")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    for readOnly in [true, false] {
      let error = try #require(throws: DeckError.self) {
        _ = try SQLiteDatabase(
          path: path, readOnly: readOnly, location: SourceLocation(file: "deck.apkg", member: "collection.anki21"))
      }
      #expect(error.kind == .wrongFormat)
      #expect(
        error.description == "deck.apkg: member 'collection.anki21': not an SQLite database (file is not a database)")
    }
  }

  @Test("a missing file opened read-only is unreadableFile")
  func missingFile() throws {
    let error = try #require(throws: DeckError.self) {
      _ = try SQLiteDatabase(path: "/nonexistent/x.sqlite", readOnly: true, location: SourceLocation(file: "x.sqlite"))
    }
    #expect(error.kind == .unreadableFile)
  }

  @Test("SQL errors name the table, SQLite's message and the SQL")
  func sqlErrors() throws {
    let scratch = try TemporaryDirectory()
    let (database, _) = try Self.makeDatabase(in: scratch)
    let error = try #require(throws: DeckError.self) {
      _ = try database.prepare("SELECT nope FROM notes", table: "notes")
    }
    #expect(error.kind == .corrupt)
    #expect(error.location.table == "notes")
    #expect(error.description == "test.sqlite: table notes: SQLite: no such column: nope (SQL: SELECT nope FROM notes)")

    let execError = try #require(throws: DeckError.self) { try database.execute("DROP TABLE missing") }
    #expect(execError.message == "SQLite: no such table: missing (SQL: DROP TABLE missing)")

    let bad = try database.prepare("SELECT ?", table: "notes")
    bad.bind(2, int64: 1)
    let bindError = try #require(throws: DeckError.self) { _ = try bad.step() }
    #expect(bindError.message.hasPrefix("SQLite: cannot bind parameter 2: "))
    bad.reset()
    bad.bind(1, int64: 5)
    #expect(try bad.step())
    #expect(bad.int64(0) == 5)
  }

  @Test("tableExists and columnNames")
  func schema() throws {
    let scratch = try TemporaryDirectory()
    let (database, _) = try Self.makeDatabase(in: scratch)
    #expect(database.tableExists("notes"))
    #expect(database.tableExists("NOTES"))
    #expect(!database.tableExists("cards"))
    #expect(!database.tableExists("notes' OR 1=1 --"))
    #expect(try database.columnNames(of: "notes") == ["id", "flds", "score", "data", "extra"])
    let error = try #require(throws: DeckError.self) { _ = try database.columnNames(of: "cards") }
    #expect(error.kind == .missingPart)
    #expect(error.location.table == "cards")
  }

  @Test("the unicase collation: needed by schema 18, case-insensitive like Anki's")
  func unicase() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "col.anki21b")
    do {
      let creator = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
      creator.registerUnicaseCollation()
      try creator.execute(
        """
        CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE unicase);
        CREATE UNIQUE INDEX idx_decks_name ON decks (name);
        """)
    }
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
    let withoutCollation = try #require(throws: DeckError.self) {
      try database.execute("INSERT INTO decks VALUES (1, 'x')")
    }
    #expect(withoutCollation.message.contains("no such collation sequence: unicase"))

    database.registerUnicaseCollation()
    let names = [
      "beta", "Alpha", "ÉCOLE", "Zebra", "zèbre", "Ölfeld", "apple", "Default", "", "Straße", "Strasse X", "Tıp", "Tip",
    ]
    let insert = try database.prepare("INSERT INTO decks VALUES (?, ?)", table: "decks")
    for (index, name) in names.enumerated() {
      insert.reset()
      insert.bind(1, int64: Int64(index + 1))
      insert.bind(2, text: name)
      _ = try insert.step()
    }
    var sorted: [String] = []
    let rows = try database.prepare("SELECT name FROM decks ORDER BY name", table: "decks")
    while try rows.step() { sorted.append(rows.text(0)) }
    // The real backend's order of these names (anki 26.9.3, `ORDER BY name` on its decks table):
    // ß folds to ss, so `Straße` comes before `Strasse X`; ı is not i.
    #expect(
      sorted == [
        "", "Alpha", "apple", "beta", "Default", "Straße", "Strasse X", "Tip", "Tıp", "Zebra", "zèbre", "ÉCOLE",
        "Ölfeld",
      ])

    // As in Anki, names that differ only in case are the same name.
    let lookup = try database.prepare("SELECT id FROM decks WHERE name = 'école'", table: "decks")
    #expect(try lookup.step())
    #expect(lookup.int64(0) == 3)
    insert.reset()
    insert.bind(1, int64: 100)
    insert.bind(2, text: "alpha")
    let duplicate = try #require(throws: DeckError.self) { _ = try insert.step() }
    #expect(duplicate.message.contains("UNIQUE constraint failed: decks.name"))
    #expect(duplicate.kind == .invalidRequest)
  }

  @Test("the database stays usable while statements outlive their variable scope")
  func lifetimes() throws {
    let scratch = try TemporaryDirectory()
    var statement: SQLiteStatement?
    do {
      let (database, _) = try Self.makeDatabase(in: scratch)
      statement = try database.prepare("SELECT flds FROM notes")
    }
    let rows = try #require(statement)
    #expect(try rows.step())
    #expect(rows.text(0) == "front\u{1F}back")
  }
}
