import DeckAnki
import DeckCore
import DeckIO
import DeckJSON
import DeckTestSupport
import Foundation
import Testing

/// The JSON deck document and json-dir carry what Anki keeps of decks, note types, fields and
/// templates besides their content (``AnkiProperty``) in an `ankiProperties` object on each,
/// key → the value's JSON text, left out when there is none.
@Suite("JSON deck format: Anki's other properties of decks and note types")
struct AnkiPropertiesJSONTests {
  /// A schema-11 deck package whose decks, note types and fields have properties.
  static func collection() throws -> DeckCollection {
    try AnkiPackageReader().read(path: Fixtures.path("real/c-notes-filtered-legacy1.apkg")).collection
  }

  static func properties(_ collection: DeckCollection) -> [[AnkiProperty]] {
    collection.decks.map(\.ankiProperties) + collection.deckOptions.map(\.ankiProperties)
      + collection.noteTypes.map(\.ankiProperties)
      + collection.noteTypes.flatMap { $0.fields.map(\.ankiProperties) + $0.templates.map(\.ankiProperties) }
  }

  @Test("written on each deck, note type, field and template that has them; read back the same")
  func roundTrip() throws {
    var collection = try Self.collection()
    collection.noteTypes[0].templates[0].ankiProperties = [AnkiProperty(key: "later", jsonText: #"{"x":[1,2.0]}"#)]
    collection.deckOptions[0].ankiProperties = [AnkiProperty(key: "usn", jsonText: "-1")]
    #expect(Self.properties(collection).contains { !$0.isEmpty })
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""activeTags": "[\"c-lang\"]","#))
    #expect(text.contains(#""later": "{\"x\":[1,2.0]}""#))
    let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let groups = document?["deckOptions"] as? [[String: Any]]
    #expect(groups?.first?["ankiProperties"] as? [String: String] == ["usn": "-1"])
    let back = try DeckJSONReader().read(path: path).collection
    #expect(Self.properties(back) == Self.properties(collection))
    #expect(back.decks == collection.decks)
    #expect(back.noteTypes == collection.noteTypes)
    #expect(back.deckOptions == collection.deckOptions)
  }

  @Test("a deck without properties has no ankiProperties member")
  func leftOutWhenEmpty() throws {
    let collection = DeckCollection(decks: [Deck(id: 1, name: "Default")])
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("ankiProperties"))
  }

  @Test(
    "a value that is not JSON text is refused at its JSON path",
    arguments: [
      (#""usn": "28""#, "decks[2].ankiProperties.usn"),
      (#""media": "[]""#, "noteTypes[0].fields[0].ankiProperties.media"),
    ])
  func notJSON(member: String, jsonPath: String) throws {
    let errors = try EditedDocument.readErrors(
      try Self.collection(), replacing: member, with: member.replacingOccurrences(of: #": ""#, with: #": "{"#))
    for error in errors {
      #expect(error.location.jsonPath == jsonPath, "\(error)")
      #expect(error.message.contains("the property's value is not JSON text"))
    }
  }

  @Test("an option group's property that is not JSON text is refused at its JSON path")
  func optionGroupNotJSON() throws {
    var collection = try Self.collection()
    collection.deckOptions[0].ankiProperties = [AnkiProperty(key: "usn", jsonText: "-1")]
    let errors = try EditedDocument.readErrors(collection, replacing: #""usn": "-1""#, with: #""usn": "{-1""#)
    #expect(errors.count == 2)
    for error in errors {
      #expect(error.location.jsonPath == "deckOptions[0].ankiProperties.usn", "\(error)")
      #expect(error.message.contains("the property's value is not JSON text"))
    }
  }

  @Test("a json-dir folder keeps them")
  func directory() throws {
    var collection = try Self.collection()
    collection.deckOptions[0].ankiProperties = [AnkiProperty(key: "usn", jsonText: "-1")]
    let scratch = try TemporaryDirectory()
    let folder = try JSONDirectoryTests.write(collection, scratch, "deck")
    let back = try DeckJSONDirectoryReader().read(path: folder).collection
    #expect(Self.properties(back) == Self.properties(collection))
  }
}
