import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@testable import DeckAppStorage

@Suite("Round trips between storage kinds")
struct RoundTripTests {
  /// Records with every value type, nested containers, unusual key order, an absent key and a null.
  static let corpus = AppRecords(
    name: "Everything",
    records: [
      AppRecord([
        ("zulu", .string("last key first")), ("text", .string("Zwölf? 日本 🃏 \"q\" a/b\n\t<b>&amp;")),
        ("int", .integer(Int64.min)), ("double", .double(0.1)), ("whole", .double(2)), ("flag", .bool(true)),
        ("when", .date(Date(timeIntervalSinceReferenceDate: 700_000_000.123456))),
        ("id", .uuid(UUID(uuidString: "7C1EA5A6-0D9B-4B74-A530-13251F4943D8") ?? UUID())),
        ("blob", .data(Data([0, 1, 2, 255]))), ("empty", .data(Data())),
        (
          "list",
          .array([
            .integer(1), .string("two"), .array([]),
            .object(AppRecord([("k", .date(Date(timeIntervalSinceReferenceDate: -1.5)))])),
          ])
        ),
        ("nested", .object(AppRecord([("b", .integer(2)), ("a", .object(AppRecord([("deep", .data(Data([9])))])))]))),
        ("nothing", .null),
      ]),
      AppRecord([
        ("text", .string("")), ("zulu", .string("order differs")), ("int", .integer(Int64.max)),
        ("double", .double(-0.0)), ("flag", .bool(false)),
      ]),
      AppRecord([("int", .integer(0)), ("double", .double(.nan)), ("mixed", .string("a string here"))]),
      AppRecord([("mixed", .integer(7)), ("double", .double(1e300))]),
    ])

  @Test("deckport SQLite keeps every type, key, order, absent key and null exactly")
  func sqliteExact() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "everything.sqlite")
    _ = try AppStorageWriter().write(Self.corpus, to: path)
    let back = try AppStorageReader().read(path: path, options: AppStorageOptions(profile: .generic))
    #expect(back.records.records == Self.corpus.records)
    #expect(back.records.shape == Self.corpus.shape)
    #expect(back.records.shape.field("mixed")?.type == .any)
    // The schema is plain SQLite: Python reads the typed columns.
    let columns = try AppFixtures.python(
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select type, column_name from deckport_fields order by position').fetchall()[:4]); print(c.execute('select typeof(\"when\"), \"when\", typeof(id), id, typeof(blob) from Everything where deckport_position = 0').fetchone())",
      [path])
    #expect(
      columns
        == "[('string', 'zulu'), ('string', 'text'), ('integer', 'int'), ('double', 'double')]\n('real', 700000000.123456, 'text', '7C1EA5A6-0D9B-4B74-A530-13251F4943D8', 'blob')\n"
    )
  }

  @Test("a second record type in the same SQLite file is kept when the first is replaced")
  func sqliteOtherTypes() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "two.sqlite")
    _ = try AppStorageWriter().write(Self.corpus, to: path)
    let cards = AppRecords(name: "Cards", records: AppFixtures.flashzillaRecords, profile: .flashzilla)
    _ = try AppStorageWriter().write(cards, to: path, options: AppWriteOptions(existing: .replace))
    let types = try AppStorageReader().recordTypes(path: path)
    #expect(types.map(\.name) == ["Everything", "Cards"])
    #expect(types.map(\.count) == [4, 3])
    #expect(
      try AppStorageReader().read(path: path, options: AppStorageOptions(entity: "Everything", profile: .generic))
        .records.records == Self.corpus.records)
    #expect(throws: DeckError.self) { try AppStorageReader().read(path: path) }
  }

  @Test("JSON keeps the content; typed values come back as JSON types unless a profile types them, and say so")
  func jsonProjection() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "everything.json")
    var records = Self.corpus
    records.records.removeLast(2)  // NaN and 1e300 mixed types aside; NaN cannot go into JSON
    let report = try AppStorageWriter().write(records, to: path)
    #expect(report.warnings.map(\.category) == ["type-changed", "type-changed", "type-changed", "type-changed"])
    #expect(report.warnings.map { $0.location.item ?? "" } == ["key 'when'", "key 'id'", "key 'blob'", "key 'empty'"])
    #expect(
      report.warnings.first?.description
        == "\(path): key 'when': warning: [type-changed] 1 date value comes back from a JSON file as double (no profile types this key); the content is kept"
    )
    let back = try AppStorageReader().read(path: path, options: AppStorageOptions(profile: .generic)).records.records
    #expect(back[0]["text"] == records.records[0]["text"])
    #expect(back[0]["id"] == .string("7C1EA5A6-0D9B-4B74-A530-13251F4943D8"))
    #expect(back[0]["blob"] == .string("AAEC/w=="))
    #expect(back[0]["when"] == .double(700_000_000.123456))
    #expect(back[0]["nothing"] == .null)
    #expect(back[1].keys == ["text", "zulu", "int", "double", "flag"])
  }

  @Test("NaN cannot go into JSON: refused, naming the record and key, nothing written")
  func nanInJSON() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "nan.json")
    #expect {
      try AppStorageWriter().write(Self.corpus, to: path)
    } throws: { error in
      (error as? DeckError)?.description == "\(path): record 3, key 'double': JSON cannot hold the number nan"
    }
    #expect(try FolderContents.names(in: scratch.path).isEmpty)
  }

  @Test("Flashzilla plist -> JSON file -> SQLite -> plist: every card identical, through the library")
  func flashzillaLibrary() throws {
    let scratch = try TemporaryDirectory()
    let source = AppFixtures.path("flashzilla-binary.plist")
    let before = try AppFixtures.snapshot(source)
    let json = scratch.path(for: "cards.json")
    let sqlite = scratch.path(for: "cards.sqlite")
    let plist = scratch.path(for: "back.plist")
    let migrator = AppMigrator()
    let first = try migrator.migrate(source: source, destination: json)
    let second = try migrator.migrate(source: json, destination: sqlite)
    let third = try migrator.migrate(source: sqlite, destination: plist)
    for report in [first, second, third] {
      #expect(report.destination.recordCount == 3)
      #expect(report.warnings.isEmpty)
    }
    let original = try AppStorageReader().read(path: source).records
    for path in [json, sqlite, plist] {
      let records = try AppStorageReader().read(path: path).records
      #expect(records.records == original.records, "\(path)")
      #expect(records.profile == .flashzilla)
    }
    #expect(original.records == AppFixtures.flashzillaRecords)
    // The JSON file is what Flashzilla's JSONEncoder writes, byte for byte.
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: json))
        == Data(contentsOf: URL(fileURLWithPath: AppFixtures.path("flashzilla-cards.json"))))
    // And the JSON data under 'Cards' in the final plist is the same bytes as in the original.
    guard case .dictionary(let old) = try PlistDocument(data: Data(contentsOf: URL(fileURLWithPath: source))).root,
      case .dictionary(let new) = try PlistDocument(data: Data(contentsOf: URL(fileURLWithPath: plist))).root
    else {
      Issue.record("not dictionaries")
      return
    }
    #expect(new["Cards"] == old["Cards"])
    #expect(try AppFixtures.snapshot(source) == before)
  }

  @Test("native plist dates and data survive plist -> SQLite -> plist with their types")
  func nativeTypes() throws {
    let scratch = try TemporaryDirectory()
    var records = Self.corpus
    records.records = records.records.map { record in
      AppRecord(fields: record.fields.filter { !$0.value.isNull && $0.key != "double" && $0.key != "id" })
    }
    let plist = scratch.path(for: "native.plist")
    _ = try AppStorageWriter().write(
      records, to: plist, options: AppWriteOptions(storage: AppStorageOptions(key: "Things", plistStyle: .native)))
    let sqlite = scratch.path(for: "native.sqlite")
    _ = try AppMigrator().migrate(source: plist, destination: sqlite, options: AppMigrationOptions(profile: .generic))
    let back = scratch.path(for: "back.plist")
    _ = try AppMigrator().migrate(
      source: sqlite, destination: back,
      options: AppMigrationOptions(destinationKey: "Things", profile: .generic, plistStyle: .native))
    let final = try AppStorageReader().read(path: back, options: AppStorageOptions(profile: .generic)).records.records
    #expect(final == records.records)
    #expect(final[0]["when"] == .date(Date(timeIntervalSinceReferenceDate: 700_000_000.123456)))
  }
}
