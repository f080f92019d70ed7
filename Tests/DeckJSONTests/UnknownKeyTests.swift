import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckJSON

/// A key the deck format does not have (a typo in a hand-edited document) is a warning naming
/// it, not a silent loss of what it holds: the document's own keys, a note's, a card's and its
/// scheduling's, a media entry's; field names and settings are free and never warned about.
@Suite("JSON deck format: keys the format lacks")
struct UnknownKeyTests {
  static let document = """
    {"format": "deckport-deck", "version": 1, "creationTim": 5,
     "noteTypes": [{"name": "Basic", "fields": [{"name": "Front"}, {"name": "Back"}],
                    "templates": [{"name": "Card 1", "question": "{{Front}}", "qfmt": "x"}]}],
     "decks": [{"id": 1, "name": "D"}],
     "notes": [{"id": 5, "noteType": "Basic", "fields": {"Front": "a", "Back": "b"}, "Tags": ["t"]},
               {"id": 6, "noteType": "Basic", "fields": {"Front": "c"}, "tags": ["u"]}],
     "cards": [{"id": 8, "note": 5, "template": 0, "deck": 1,
                "scheduling": {"type": 0, "queue": 0, "due": 1, "interval": 0, "easeFactor": 0, "reviews": 0,
                               "lapses": 0, "remainingSteps": 0, "flags": 0, "originalDue": 0, "originalDeck": 0,
                               "data": "", "stability": 3}},
               {"id": 9, "note": 6, "template": 0, "deck": 1}],
     "settings": {"anyKey": "1"},
     "media": [{"name": "a.txt", "data": "YQ==", "checksum": "x"}]}
    """

  @Test("each is named with its path and the keys there, or the key differing only in case")
  func named() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try Data(Self.document.utf8).write(to: URL(fileURLWithPath: path))
    let (collection, warnings) = try DeckJSONReader().read(path: path)
    let unknown = warnings.filter { $0.category == "unknown-key" }
    #expect(
      unknown.map { "\($0.location.jsonPath ?? "") \($0.message)" } == [
        "creationTim 'creationTim' is not a key of deckport's deck format here, so what it holds is not read (the keys here: format, version, creationTime, deckOptions, decks, noteTypes, notes, cards, reviews, deletions, settings, tagRegistry, media)",
        "noteTypes[0].templates[0].qfmt 'qfmt' is not a key of deckport's deck format here, so what it holds is not read (the keys here: name, question, answer, browserQuestion, browserAnswer, browserFont, browserFontSize, targetDeck, ankiId, ankiProperties)",
        "media[0].checksum 'checksum' is not a key of deckport's deck format here, so what it holds is not read (the keys here: name, mimeType, sha1, size, data)",
        "notes[0].Tags 'Tags' is not a key of deckport's deck format here, so what it holds is not read (did you mean 'tags'?)",
        "cards[0].scheduling.stability 'stability' is not a key of deckport's deck format here, so what it holds is not read (the keys here: type, queue, due, interval, easeFactor, reviews, lapses, remainingSteps, flags, originalDue, originalDeck, data)",
      ])
    #expect(unknown.allSatisfy { $0.location.file == path })
    // The document read whole, as an odd one is, names the same keys (in document order).
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    let wholeUnknown = try whole.read(path: path).warnings.filter { $0.category == "unknown-key" }
    #expect(wholeUnknown.map(\.description).sorted() == unknown.map(\.description).sorted())
    // What the known keys hold is read as ever.
    #expect(collection.notes.map(\.tags) == [[], ["u"]])
    #expect(collection.cards.count == 2)
  }

  @Test("a json-dir's note file and index: named by file and path")
  func inFolder() throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(Fixtures.ankiPackages[0])).collection
    let scratch = try TemporaryDirectory()
    let folder = try JSONDirectoryTests.write(collection, scratch, "deck")
    // The last note file: those before it taught the reader their keys, which it then takes
    // without reflecting (UnknownKeys' places), so this checks that a later file is still read.
    let notes = try FileManager.default.contentsOfDirectory(atPath: folder + "/notes").sorted()
    #expect(notes.count > 1)
    let notePath = folder + "/notes/" + (notes.last ?? "")
    var note = try String(contentsOfFile: notePath, encoding: .utf8)
    note = note.replacingOccurrences(of: "\"note\": {", with: "\"note\": {\"Guid\": \"x\", ")
    try note.write(toFile: notePath, atomically: false, encoding: .utf8)
    let indexPath = folder + "/" + DeckJSONDirectory.indexFileName
    var index = try String(contentsOfFile: indexPath, encoding: .utf8)
    index = index.replacingOccurrences(
      of: "{", with: "{\"comment\": \"mine\", ", options: [], range: index.range(of: "{"))
    try index.write(toFile: indexPath, atomically: false, encoding: .utf8)
    let (_, warnings) = try DeckJSONDirectoryReader().read(path: folder)
    #expect(
      warnings.filter { $0.category == "unknown-key" }.map { "\($0.location.file) \($0.location.jsonPath ?? "")" } == [
        "\(indexPath) comment", "\(notePath) note.Guid",
      ])
  }
}
