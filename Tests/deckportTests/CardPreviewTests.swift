import DeckConversion
import DeckCore
import Foundation
import Testing

/// `deckport render`'s report: each card tied to its note type's styling by id. The cards and
/// styling are judged by the backend in `Tests/anki/test_card_rendering.py`.
@Suite("The card preview (deckport render)")
struct CardPreviewTests {
  /// Two note types named `Twin` with their own CSS, a card of each, and a card whose note is
  /// missing.
  private static func twins() -> CardPreview {
    let noteTypes = [("red", Int64(10)), ("blue", Int64(20))].map { color, id in
      NoteType(
        id: id, name: "Twin", fields: [NoteType.Field(name: "F")],
        templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{F}}", answerFormat: "{{F}}")],
        css: ".card { color: \(color); }")
    }
    let collection = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: noteTypes,
      notes: [
        Note(id: 1, guid: "a", noteTypeID: 20, fields: ["blue card"]),
        Note(id: 2, guid: "b", noteTypeID: 10, fields: ["red card"]),
      ],
      cards: [
        Card(id: 100, noteID: 1, templateOrdinal: 0, deckID: 1),
        Card(id: 200, noteID: 2, templateOrdinal: 0, deckID: 1),
        Card(id: 300, noteID: 9, templateOrdinal: 0, deckID: 1),
      ])
    return CardPreview(LoadedDeck(collection: collection, formatName: "test", warnings: []))
  }

  @Test("two note types of one name each have their styling, and each card names its note type's id")
  func sameNamedNoteTypes() {
    let preview = Self.twins()
    #expect(
      preview.styling.map { "\($0.noteTypeID) \($0.noteType) \($0.css)" } == [
        "10 Twin .card { color: red; }", "20 Twin_ .card { color: blue; }",
      ])
    #expect(preview.cards.map(\.noteTypeID) == [20, 10, nil])
    let styling = Dictionary(uniqueKeysWithValues: preview.styling.map { ($0.noteTypeID, $0.css) })
    #expect(styling[preview.cards[0].noteTypeID ?? 0] == ".card { color: blue; }")
    // Anki renames one of the two when it opens the file; the preview shows the second renamed,
    // and says so.
    #expect(preview.cards.map(\.noteType) == ["Twin_", "Twin", ""])
    let warnings = preview.warnings(at: SourceLocation(file: "t.apkg"))
    #expect(warnings.map(\.category) == ["note-type-renamed", "card-rendering"])
  }

  @Test("the JSON spells the id noteTypeId, and leaves it out for a card without a note type")
  func json() throws {
    let object = try JSONSerialization.jsonObject(with: Data(Self.twins().jsonText().utf8)) as? [String: Any]
    let cards = try #require(object?["cards"] as? [[String: Any]])
    #expect(cards.map { $0["noteTypeId"] as? Int64 } == [20, 10, nil])
    #expect(cards[2].keys.contains("noteTypeId") == false)
    let styling = try #require(object?["styling"] as? [[String: Any]])
    #expect(styling.map { $0["noteTypeId"] as? Int64 } == [10, 20])
    #expect(styling.map { $0["noteType"] as? String } == ["Twin", "Twin_"])
  }
}
