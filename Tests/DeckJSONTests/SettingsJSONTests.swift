import DeckAnki
import DeckCore
import DeckIO
import DeckJSON
import DeckTestSupport
import Foundation
import Testing

/// The JSON deck document and json-dir carry a collection package's settings in a `settings`
/// object (each key's value the setting's JSON text), left out when there are none.
@Suite("JSON deck format: the collection's settings")
struct SettingsJSONTests {
  static func collection() throws -> DeckCollection {
    try AnkiPackageReader().read(path: Fixtures.path("real/word-list-latest.colpkg")).collection
  }

  @Test("written after the deletion records, read back the same by the split reader and whole")
  func roundTrip() throws {
    let collection = try Self.collection()
    #expect(collection.settings.count == 49)
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"    "rollover": "4","#))
    #expect(
      text.contains(#"    "backups": "{\"daily\":12,\"weekly\":10,\"monthly\":9,\"minimum_interval_mins\":30}","#))
    let deletions = try #require(text.range(of: "\n  \"deletions\":"))
    let settings = try #require(text.range(of: "\n  \"settings\": {"))
    let media = try #require(text.range(of: "\n  \"media\":"))
    #expect(deletions.lowerBound < settings.lowerBound && settings.lowerBound < media.lowerBound)
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    #expect(try DeckJSONReader().read(path: path).collection.settings == collection.settings)
    #expect(try whole.read(path: path).collection.settings == collection.settings)
  }

  @Test("settings made in any order are written sorted by key, as every reader gives them")
  func sortedOnWriting() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    collection.settings = [
      AnkiProperty(key: "timeLim", jsonText: "60"), AnkiProperty(key: "rollover", jsonText: "2"),
    ]
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    #expect(try DeckJSONReader().read(path: path).collection.settings.map(\.key) == ["rollover", "timeLim"])
  }

  @Test("a value that is not JSON text is refused at its JSON path")
  func notJSON() throws {
    let errors = try EditedDocument.readErrors(
      try Self.collection(), replacing: #""rollover": "4""#, with: #""rollover": "four""#)
    for error in errors { #expect(error.location.jsonPath == "settings.rollover", "\(error)") }
  }

  @Test("a json-dir folder keeps them in its index")
  func directory() throws {
    let collection = try Self.collection()
    let scratch = try TemporaryDirectory()
    let folder = try JSONDirectoryTests.write(collection, scratch, "deck")
    let index = try String(contentsOfFile: folder + "/" + DeckJSONDirectory.indexFileName, encoding: .utf8)
    #expect(index.contains(#""settings": {"#))
    #expect(try DeckJSONDirectoryReader().read(path: folder).collection.settings == collection.settings)
  }

  @Test("the collection's list of tags: after the settings, read back the same, in a json-dir's index too")
  func tagRegistry() throws {
    var collection = try Self.collection()
    collection.tagRegistry = [
      RegisteredTag(name: "parent", updateSequenceNumber: 7, isCollapsed: false),
      RegisteredTag(name: "HF", updateSequenceNumber: -1, isCollapsed: nil),
    ]
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let settings = try #require(text.range(of: "\n  \"settings\": {"))
    let tags = try #require(text.range(of: "\n  \"tagRegistry\": ["))
    #expect(settings.lowerBound < tags.lowerBound)
    #expect(text.contains(#""name": "parent","#) && text.contains(#""collapsed": false"#))
    #expect(try DeckJSONReader().read(path: path).collection.tagRegistry == collection.tagRegistry)

    let folder = try JSONDirectoryTests.write(collection, scratch, "deck")
    #expect(try DeckJSONDirectoryReader().read(path: folder).collection.tagRegistry == collection.tagRegistry)
  }
}
