import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

@Suite("Bad input: clear messages naming the file, key or table, and record")
struct BadInputTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    /// The file's name and bytes.
    var name: String
    var bytes: @Sendable () throws -> Data
    var key: String?
    var kind: DeckError.Kind
    /// The message after `<path>`.
    var message: String
    var testDescription: String { id }
  }

  static func plist(_ root: [String: Any], format: PropertyListSerialization.PropertyListFormat = .binary) throws
    -> Data
  {
    try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
  }

  static let cases: [Case] = [
    Case(
      id: "not a plist", name: "prefs.plist", bytes: { Data("hello, world".utf8) }, kind: .wrongFormat,
      message: ": not a property list (neither a binary plist starting with 'bplist00' nor an XML plist)"),
    Case(
      id: "OpenStep text", name: "prefs.plist", bytes: { Data("{ Cards = <5b5d>; }".utf8) }, kind: .wrongFormat,
      message:
        ": an OpenStep (old-style text) property list, which deckport does not read; convert it with `plutil -convert xml1`"
    ),
    Case(
      id: "truncated binary plist", name: "prefs.plist",
      bytes: { try Data(contentsOf: URL(fileURLWithPath: AppFixtures.path("flashzilla-binary.plist"))).prefix(300) },
      kind: .corrupt,
      message:
        ": byte 274: the plist is damaged: the trailer gives offset size 34 and reference size 58 (each must be 1 to 8)"
    ),
    Case(
      id: "XML plist with a bad element", name: "prefs.plist",
      bytes: {
        Data(
          "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Cards</key>\n<blob>x</blob>\n</dict>\n</plist>\n"
            .utf8)
      },
      kind: .corrupt, message: ":5: the plist is damaged: <blob> is not a plist element"),
    Case(
      id: "missing key", name: "prefs.plist", bytes: { try plist(["Cards": Data("[]".utf8)]) }, key: "Cardz",
      kind: .missingPart, message: ": key 'Cardz': no such key in the plist (its keys: 'Cards')"),
    Case(
      id: "a key that holds no records", name: "prefs.plist", bytes: { try plist(["launchCount": 3]) },
      key: "launchCount",
      kind: .corrupt,
      message:
        ": key 'launchCount': holds an integer, not records (JSON data, a JSON string, or an array of dictionaries)"),
    Case(
      id: "no key holds records", name: "prefs.plist", bytes: { try plist(["launchCount": 3]) },
      kind: .invalidRequest,
      message: ": no key holds records (its keys: 'launchCount'); name the key with AppStorageOptions.key"),
    Case(
      id: "JSON data that does not decode", name: "prefs.plist",
      bytes: { try plist(["Cards": Data(#"[{"prompt":"a","answer":"b"},{"prompt":"c" "answer":"d"}]"#.utf8)]) },
      key: "Cards",
      kind: .corrupt,
      message:
        ": key 'Cards': the JSON data does not decode: line 1, column 44 of the JSON: expected ',' or '}' after an object value"
    ),
    Case(
      id: "JSON data holding an object", name: "prefs.plist",
      bytes: { try plist(["Cards": Data(#"{"prompt":"a"}"#.utf8)]) },
      key: "Cards", kind: .corrupt, message: ": key 'Cards': the JSON data holds an object, not an array of records"),
    Case(
      id: "a record that is not an object", name: "prefs.plist",
      bytes: { try plist(["Cards": Data(#"[{"prompt":"a","answer":"b"},"oops"]"#.utf8)]) }, key: "Cards",
      kind: .corrupt,
      message: ": key 'Cards': record 2: is a string, not an object"),
    Case(
      id: "a native record that is not a dictionary", name: "prefs.plist",
      bytes: { try plist(["Cards": [["prompt": "a"], 7]], format: .xml) }, key: "Cards", kind: .corrupt,
      message: ": key 'Cards': record 2: is an integer, not a dictionary"),
    Case(
      id: "an NSKeyedArchiver archive", name: "prefs.plist",
      bytes: {
        try plist([
          "Cards": try NSKeyedArchiver.archivedData(withRootObject: ["a"] as NSArray, requiringSecureCoding: false)
        ])
      },
      key: "Cards", kind: .wrongFormat,
      message:
        ": key 'Cards': holds an NSKeyedArchiver archive (root class NSArray), not Codable records; deckport reads JSON data, a JSON string, PropertyListEncoder data or an array of dictionaries"
    ),
    Case(
      id: "invalid JSON file", name: "cards.json",
      bytes: { Data("[\n  {\"prompt\": \"a\"},\n  {\"prompt\": }\n]".utf8) },
      kind: .wrongFormat,
      message: ":3:14: invalid JSON: expected a value (an object, array, string, number, true, false or null)"),
    Case(
      id: "a deck document, not records", name: "deck.json",
      bytes: { Data(#"{"format": "deckport-deck", "version": 1, "notes": []}"#.utf8) },
      kind: .wrongFormat,
      message:
        ": a deckport deck document (\"format\": \"deckport-deck\"), not app records; convert decks with `deckport convert`"
    ),
    Case(
      id: "an SQLite file of an unknown layout", name: "cards.sqlite",
      bytes: { try Data(contentsOf: URL(fileURLWithPath: AppFixtures.path("unknown-layout.sqlite"))) },
      kind: .wrongFormat,
      message:
        ": an SQLite file of an unknown layout: its tables are cards, settings; deckport reads its own app-records schema (table deckport_app_storage) and Core Data/SwiftData stores (tables Z_PRIMARYKEY and Z_METADATA)"
    ),
    Case(
      id: "a .sqlite that is not a database", name: "cards.sqlite",
      bytes: { Data("SQLite format 3\0garbage".utf8) + Data(count: 100) },
      kind: .wrongFormat, message: ": not an SQLite database (file is not a database)"),
  ]

  @Test("a column another program added to a deckport SQLite table, which no key names, is named in a warning")
  func unlistedSQLiteColumn() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.sqlite")
    let made = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-binary.plist"), path])
    #expect(made.status == 0, "stderr: \(made.standardError)")
    #expect(try AppStorageReader().read(path: path).warnings.isEmpty)
    try AppFixtures.execute(
      "ALTER TABLE \"Cards\" ADD COLUMN extra TEXT; UPDATE \"Cards\" SET extra = 'LOSTDATA';", on: path)
    let content = try AppStorageReader().read(path: path)
    #expect(content.records.records.count == 3)
    let warning = try #require(content.warnings.first { $0.category == "columns-unread" })
    #expect(warning.location.table == "Cards")
    #expect(
      warning.message
        == "the table has 1 column that deckport's metadata (deckport_fields) does not list, extra: no key names its values, which are not read"
    )
  }

  @Test(arguments: cases)
  func badFile(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: testCase.name)
    try testCase.bytes().write(to: URL(fileURLWithPath: path))
    let before = try AppFixtures.snapshot(path)
    let error = try #require(throws: DeckError.self) {
      try AppStorageReader().read(path: path, options: AppStorageOptions(key: testCase.key))
    }
    #expect(error.description == path + testCase.message)
    #expect(error.kind == testCase.kind)
    #expect(try AppFixtures.snapshot(path) == before)
  }

  @Test("a cell that does not match its declared type names the table, row and column")
  func badCell() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.sqlite")
    _ = try AppStorageWriter().write(
      AppRecords(name: "cards", records: AppFixtures.flashzillaRecords, profile: .flashzilla), to: path)
    try AppFixtures.python(
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update cards set prompt = x'0001' where deckport_position = 1\"); c.commit()",
      [path])
    let error = try #require(throws: DeckError.self) { try AppStorageReader().read(path: path) }
    #expect(
      error.description
        == "\(path): table cards, row 1: column 'prompt': expected text (the field's type is string), found a blob of 2 bytes"
    )
  }

  /// One record with `count` integer keys `k0`, `k1`, ….
  static func wide(_ count: Int, name: String = "wide") -> AppRecords {
    AppRecords(name: name, records: [AppRecord((0..<count).map { ("k\($0)", AppValue.integer(Int64($0))) })])
  }

  /// Records deckport's SQLite schema cannot store, and the message after `<path>: `.
  struct Unstorable: Sendable, CustomTestStringConvertible {
    var id: String
    var records: AppRecords
    var message: String
    var testDescription: String { id }
  }

  static let unstorable = [
    Unstorable(
      id: "a NUL in a key",
      records: AppRecords(name: "cards", records: [AppRecord([("id", .string("A")), ("a\u{0}b", .string("x"))])]),
      message:
        "record type 'cards': the key 'a\\u{00}b' holds a NUL character (U+0000), which SQLite cannot hold in a column name; nothing was written"
    ),
    Unstorable(
      id: "a NUL in the record type's name",
      records: AppRecords(name: "ca\u{0}rds", records: [AppRecord([("id", .string("A"))])]),
      message:
        "record type 'ca\\u{00}rds': the name holds a NUL character (U+0000), which SQLite cannot hold in a table name; name the record type with AppStorageOptions.entity; nothing was written"
    ),
    Unstorable(
      id: "1999 keys",
      records: wide(1_999),
      message:
        "record type 'wide': its records have 1999 keys, and a table holds at most 1998 (SQLite's limit of 2000 columns, less deckport's own deckport_position and deckport_keys); nothing was written"
    ),
  ]

  @Test(
    "records SQLite cannot store (a NUL in a key or the record type's name, more keys than a table's columns) are refused naming the record type, before any SQL",
    arguments: unstorable)
  func unstorableInSQLite(_ testCase: Unstorable) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.sqlite")
    let error = try #require(throws: DeckError.self) { try AppStorageWriter().write(testCase.records, to: path) }
    #expect(error.description == "\(path): \(testCase.message)")
    #expect(error.kind == .invalidRequest)
    #expect(try FolderContents.names(in: scratch.path).isEmpty)

    // Into an existing file, which stays as it was.
    _ = try AppStorageWriter().write(
      AppRecords(name: "cards", records: AppFixtures.flashzillaRecords, profile: .flashzilla), to: path)
    let before = try AppFixtures.snapshot(path)
    let again = try #require(throws: DeckError.self) {
      try AppStorageWriter().write(testCase.records, to: path, options: AppWriteOptions(existing: .replace))
    }
    #expect(again.description == "\(path): \(testCase.message)")
    #expect(try AppFixtures.snapshot(path) == before)
    #expect(try FolderContents.names(in: scratch.path) == ["cards.sqlite"])
  }

  @Test("a record type with as many keys as a table holds beside deckport's two columns is written and read back")
  func widestRecordTypeInSQLite() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "wide.sqlite")
    let records = Self.wide(SQLiteRecordSchema.maximumKeys)
    _ = try AppStorageWriter().write(records, to: path)
    #expect(try AppStorageReader().read(path: path).records.records == records.records)
  }

  /// Starts a Python process that opens `path` and runs `statements`, and waits until it says so.
  static func holdOpen(_ path: String, _ statements: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); \(statements); print('ready', flush=True); time.sleep(60)",
      path,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    _ = output.fileHandleForReading.availableData
    return process
  }

  @Test(
    "a store locked by a running app (a write in progress, or a WAL store held open) is refused",
    arguments: [
      ("flashcard-quiz.sqlite", "c.execute('BEGIN EXCLUSIVE')", "is writing it", "flashcard-quiz.sqlite"),
      ("flashzilla.store", "c.execute('select count(*) from ZCARD').fetchone()", "has it open", "flashzilla.store"),
    ])
  func locked(name: String, statements: String, what: String, lockFile: String) throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy(name, into: scratch)
    let app = try Self.holdOpen(store, statements)
    defer {
      // SIGKILL: the test runner's child may have SIGTERM blocked.
      kill(app.processIdentifier, SIGKILL)
      app.waitUntilExit()
    }
    let error = try #require(throws: DeckError.self) { try AppStorageReader().read(path: store) }
    #expect(
      error.description
        == "\(store): the store is locked (SQLITE_BUSY): process \(app.processIdentifier) \(what) (lock on \(lockFile)); quit the app that uses it and try again"
    )
    let target = scratch.path(for: "out.json")
    #expect(throws: DeckError.self) { try AppMigrator().migrate(source: store, destination: target) }
    #expect(!FileManager.default.fileExists(atPath: target))
  }
}

@Suite("Telling app storage from other files")
struct RecognitionTests {
  @Test(
    "recognize: app storage by content; deck documents and other layouts are not",
    arguments: [
      ("flashzilla-binary.plist", "plist"), ("flashzilla-xml.plist", "plist"), ("flashzilla-cards.json", "json"),
      ("flashzilla.store", "core-data"), ("flashcard-quiz.sqlite", "core-data"), ("Idealic.sqlite", "core-data"),
      ("flashzilla-swiftdata.store", "core-data"), ("unknown-layout.sqlite", "none"),
      ("make_app_fixtures.py", "none"),
    ])
  func recognize(name: String, expected: String) {
    #expect(AppStorageKind.recognize(path: AppFixtures.path(name))?.rawValue ?? "none" == expected)
  }

  @Test(
    "a deckport deck document is not app records, whether its format comes first or later",
    arguments: [
      #"{"format": "deckport-deck", "version": 1, "notes": []}"#,
      "\n {\r\n\t\"format\" :\n\"deckport-deck\", \"notes\": [{\"a\": 1}]}",
      #"{"notes": [{"a": 1}], "format": "deckport-deck"}"#,
    ])
  func deckDocument(text: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(DeckportDocumentFormat.namesDeck(path: path))
    #expect(AppStorageKind.recognize(path: path) == nil)
  }

  @Test(
    "records that name deckport's format, or a document in another format, are app records",
    arguments: [
      #"[{"front": "{\"format\": \"deckport-deck\"", "back": "b"}]"#,
      #"{"format": "deckport-deck-2", "cards": [{"front": "a"}]}"#,
      #"{"format": "other", "cards": [{"front": "a"}]}"#,
    ])
  func recordsNamingTheFormat(text: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(!DeckportDocumentFormat.namesDeck(path: path))
    #expect(AppStorageKind.recognize(path: path) == .jsonFile)
  }
}

@Suite("Invalid app JSON in convert")
struct InvalidAppJSONConvertTests {
  @Test(
    "an array of records that is not valid JSON is reported by the app JSON reader, with line and column",
    arguments: [
      (
        #"[{"front":"a","n":18446744073709551615}]"#,
        "1:19: invalid JSON: the integer 18446744073709551615 does not fit in 64 bits"
      ),
      (#"[{"front":"a","back":"b","front":"c"}]"#, #"1:26: invalid JSON: the key "front" occurs twice in this object"#),
      ("\u{FEFF}\n [{\"a\":1e309}]", "2:8: invalid JSON: the number 1e309 is out of range"),
    ])
  func invalidRecords(text: String, expected: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "f9.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(AppStorageKind.recognize(path: path) == .jsonFile)
    let run = try CommandRun.deckport(["convert", path, scratch.path(for: "out.apkg")])
    #expect(run.status != 0)
    #expect(run.standardError == "deckport: error: \(path):\(expected)\n")
  }
}
