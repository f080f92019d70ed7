import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import JSONCore
import Testing

@testable import DeckAnki

/// What Anki keeps of a deck, note type, field or template besides the model's own properties
/// (``AnkiProperty``): read from schema 11 (the JSON of the `col` row) and schema 18 (the
/// `decks`, `notetypes`, `fields` and `templates` tables), written back into every package.
///
/// The expected values are what the `sqlite3` shell showed in each real package's collection
/// (schema 11: the JSON text; schema 18: the protobuf blobs, decoded by hand in the comments),
/// written here as data. That Anki's own restore of what deckport writes holds every deck and
/// note type member for member is checked against the real backend in
/// `Tests/anki/test_writer_judged_by_anki.py`.
@Suite("Anki packages: what Anki keeps of decks and note types besides their content")
struct AnkiPropertiesTests {
  static func read(_ package: String) throws -> DeckCollection {
    try AnkiPackageReader().read(path: Fixtures.path(package)).collection
  }

  static func texts(_ properties: [AnkiProperty]) -> [String: String] {
    #expect(properties.map(\.key) == properties.map(\.key).sorted())
    return Dictionary(properties.map { ($0.key, $0.jsonText) }, uniquingKeysWith: { first, _ in first })
  }

  static func deck(_ name: String, in collection: DeckCollection) throws -> Deck {
    try #require(collection.decks.first { $0.name == name })
  }

  @Test("schema 11: every member the model does not own and a fresh deck does not have")
  func schema11() throws {
    let collection = try Self.read("real/c-notes-filtered-legacy1.apkg")
    // {"activeTags":["c-lang"],"collapsed":false,"conf":1,"desc":"","dyn":0,"extendNew":10,
    //  "extendRev":50,"id":…,"inactiveTags":[],"lrnToday":[7,0],"mod":…,"name":"c-language",
    //  "newToday":[7,0],"revToday":[7,0],"timeToday":[7,0],"usn":28}: no browserCollapsed, which
    // Anki takes as false.
    #expect(
      Self.texts(try Self.deck("c-language", in: collection).ankiProperties) == [
        "activeTags": #"["c-lang"]"#, "browserCollapsed": "false", "collapsed": "false", "extendNew": "10",
        "extendRev": "50", "inactiveTags": "[]", "lrnToday": "[7,0]", "newToday": "[7,0]", "revToday": "[7,0]",
        "timeToday": "[7,0]", "usn": "28",
      ])
    // A filtered deck: "delays":null and "separate":true are what a fresh one has; "return" is a
    // key of Anki 2.1's filtered decks that later ones do not have; it has no preview delays,
    // which Anki takes as 0 seconds (a fresh deck has 60 and 600).
    #expect(
      Self.texts(try Self.deck("Custom Study Session", in: collection).ankiProperties) == [
        "browserCollapsed": "false", "collapsed": "false", "lrnToday": "[7,0]", "newToday": "[7,0]",
        "previewAgainSecs": "0", "previewHardSecs": "0", "return": "true", "revToday": "[7,0]",
        "timeToday": "[7,0]", "usn": "28",
      ])
    // "Basic": {…,"did":1514870624479,"tags":["c-lang"],"usn":25,"vers":[]}, each field with
    // "media":[]; its templates have only keys the model owns.
    let basic = try #require(collection.noteTypes.first { $0.name == "Basic" })
    #expect(
      Self.texts(basic.ankiProperties) == [
        "did": "1514870624479", "tags": #"["c-lang"]"#, "usn": "25", "vers": "[]",
      ])
    #expect(basic.fields.allSatisfy { Self.texts($0.ankiProperties) == ["media": "[]"] })
    #expect(basic.templates.allSatisfy { $0.ankiProperties.isEmpty })
  }

  @Test("schema 18: the members Anki gives the protobuf blobs and the usn column")
  func schema18() throws {
    let collection = try Self.read("real/word-list-latest.colpkg")
    // decks row 1: usn -1; common 18 10 | 20 0a | 28 03 | 38 e5 c2 1a | fa 0f 17 {"mid":"1744934370863"}
    // (day 16, 10 new, 3 reviews, 434,533 ms; not collapsed); kind 0a 06 | 08 01 10 0a 18 32
    // (option group 1, extend_new 10, extend_review 50).
    #expect(
      Self.texts(try Self.deck("Default", in: collection).ankiProperties) == [
        "browserCollapsed": "false", "collapsed": "false", "extendNew": "10", "extendRev": "50",
        "lrnToday": "[16,0]", "mid": #""1744934370863""#, "newToday": "[16,10]", "revToday": "[16,3]",
        "timeToday": "[16,434533]", "usn": "-1",
      ])
    // common 08 01 | 10 01 | 18 af 01 | 20 0e | 38 e7 f8 1d: collapsed in both lists (as a fresh
    // deck is), day 175, 14 new, 490,599 ms; kind 0a 02 08 01.
    #expect(
      Self.texts(try Self.deck("Formulas for the SAT Math Section", in: collection).ankiProperties) == [
        "lrnToday": "[175,0]", "newToday": "[175,14]", "revToday": "[175,0]", "timeToday": "[175,490599]",
        "usn": "-1",
      ])
    let vocabulary = try #require(collection.noteTypes.first { $0.name == "Vocabulary" })
    #expect(Self.texts(vocabulary.ankiProperties)["usn"] == "-1")
  }

  @Test("a deck's desired retention in whole percent, any stored float held to what Anki's conversion gives")
  func desiredRetention() {
    #expect(Schema18Config.percent(0.85) == .integer(85))
    #expect(Schema18Config.percent(0.9) == .integer(90))
    #expect(Schema18Config.percent(-0.5) == .integer(0))
    #expect(Schema18Config.percent(1e30) == .integer(4_294_967_295))
    #expect(Schema18Config.percent(.infinity) == .integer(4_294_967_295))
    #expect(Schema18Config.percent(.nan) == .null)
  }

  /// The `decks` JSON of the schema-11 collection in the `.anki21` package at `path`, read with
  /// SQLite and `JSONSerialization` (not deckport's reader), by deck name.
  static func writtenDecks(at path: String) throws -> [String: [String: Any]] {
    try writtenObjects("decks", at: path)
  }

  /// The objects of the JSON column `column` (`decks`, `dconf`) of the `col` row of the
  /// schema-11 collection in the `.anki21` package at `path`, read with SQLite and
  /// `JSONSerialization` (not deckport's reader), by name.
  static func writtenObjects(_ column: String, at path: String) throws -> [String: [String: Any]] {
    let scratch = try TemporaryDirectory()
    let database = scratch.path(for: "collection.anki21")
    try PackageSurgery.member("collection.anki21", of: path).write(to: URL(fileURLWithPath: database))
    let connection = try SQLiteDatabase(path: database, readOnly: true, location: SourceLocation(file: database))
    let statement = try connection.prepare("SELECT \(column) FROM col")
    #expect(try statement.step())
    let objects = try JSONSerialization.jsonObject(with: Data(statement.text(0).utf8)) as? [String: [String: Any]]
    return Dictionary(uniqueKeysWithValues: (objects ?? [:]).values.map { ($0["name"] as? String ?? "", $0) })
  }

  @Test(
    "written: laid over what a fresh deck has; a key the model owns, or text that is not JSON, is left out with a warning"
  )
  func written() throws {
    var collection = try Self.read("anki/legacy2_sched.apkg")
    let index = try #require(collection.decks.firstIndex { $0.name == "Languages" })
    collection.decks[index].ankiProperties = [
      AnkiProperty(key: "browserCollapsed", jsonText: "false"),
      AnkiProperty(key: "name", jsonText: #""Renamed""#),
      AnkiProperty(key: "newToday", jsonText: "[3, 4]"),
      AnkiProperty(key: "reviewLimit", jsonText: "{not json"),
      AnkiProperty(key: "somethingNew", jsonText: #"{"b":1,"a":2.50}"#),
      AnkiProperty(key: "usn", jsonText: "-1"),
    ]
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.apkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .apkg))
      .write(collection, to: path, reportingAs: path)
    let invalid = warnings.filter { $0.category == "anki-property-invalid" }
    let languages = try #require(collection.decks.first { $0.name == "Languages" })
    #expect(
      invalid.map(\.location.item) == [
        "deck 'Languages' (id \(languages.id)), property 'name'",
        "deck 'Languages' (id \(languages.id)), property 'reviewLimit'",
      ])
    #expect(invalid.first?.message == "deckport writes 'name' from the model's own data, so the property is left out")
    #expect(invalid.last?.message == "its value is not JSON text, so the property is left out")

    let deck = try #require(try Self.writtenDecks(at: path)["Languages"])
    #expect(deck["browserCollapsed"] as? Bool == false)
    #expect(deck["collapsed"] as? Bool == true)  // a fresh deck's, no property given
    #expect(deck["newToday"] as? [Int] == [3, 4])
    #expect(deck["reviewLimit"] is NSNull)
    #expect(deck["usn"] as? Int == -1)
    #expect((deck["somethingNew"] as? [String: Any])?["a"] as? Double == 2.5)
    let other = try #require(try Self.writtenDecks(at: path)["Default"])
    #expect(other["usn"] as? Int == 0 && other["collapsed"] as? Bool == true)

    // Read back: what was written, each value in its compact text.
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(
      Self.texts(try Self.deck("Languages", in: back).ankiProperties) == [
        "browserCollapsed": "false", "newToday": "[3,4]", "somethingNew": #"{"b":1,"a":2.5}"#, "usn": "-1",
      ])
  }
}
