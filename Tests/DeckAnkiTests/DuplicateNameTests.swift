import DeckCore
import Testing

@testable import DeckAnki

/// Names Anki takes for one (ignoring case, after NFC), as it treats them when it opens a legacy
/// collection. Judged by the backend in `Tests/anki/test_card_rendering.py` (the
/// `duplicate_names` and `duplicate_fields` packages).
@Suite("Names Anki takes for one")
struct DuplicateNameTests {
  private static let location = SourceLocation(file: "t.apkg")

  @Test("a name taken before, ignoring case as Anki does, gets the suffix until it is its own")
  func takenNames() {
    var names = TakenNames()
    let taken = ["Card", "card", "CARD", "Straße", "STRASSE", "card+", "Other"].map { names.take($0, suffix: "+") }
    #expect(taken == ["Card", "card+", "CARD++", "Straße", "STRASSE+", "card+++", "Other"])
  }

  @Test("fields and templates: NFC, then the later of two of one name gets +, each with a warning")
  func fieldsAndTemplates() {
    let decomposed = "Nai\u{0308}ve"
    let noteType = NoteType(
      id: 5, name: "Kinds", fields: ["dup", "Dup", "Naïve", decomposed].map { NoteType.Field(name: $0) },
      templates: ["Card", "card"].map { NoteType.CardTemplate(name: $0, questionFormat: "{{dup}}", answerFormat: "") })
    let (upgraded, warnings) = Schema11NoteTypeNames.upgraded([noteType], location: Self.location)
    #expect(
      upgraded[0].fields.map { Array($0.name.unicodeScalars) }
        == ["dup", "Dup+", "Naïve", "Naïve+"].map { Array($0.unicodeScalars) })
    #expect(upgraded[0].templates.map(\.name) == ["Card", "card+"])
    #expect(
      warnings.map(\.exactDescription) == [
        "t.apkg: note type 'Kinds' (id 5): warning: [template-renamed] card template 2, 'card', is renamed 'card+', as Anki renames it when it opens the collection: card template 'Card' before it has the same name (Anki compares names ignoring case)",
        "t.apkg: note type 'Kinds' (id 5): warning: [field-renamed] field 2, 'Dup', is renamed 'Dup+', as Anki renames it when it opens the collection: field 'dup' before it has the same name (Anki compares names ignoring case); a template that names it '{{Dup}}' no longer finds it, in Anki as here",
        "t.apkg: note type 'Kinds' (id 5): warning: [field-renamed] field 4, 'Nai\\u{308}ve', is renamed 'Naïve+', as Anki renames it when it opens the collection: its name is not in Unicode NFC (Anki converts it) and field 'Naïve' before it has the same name (Anki compares names ignoring case); a template that names it '{{Nai\\u{308}ve}}' no longer finds it, in Anki as here",
      ])
    let unchanged = NoteType(
      id: 6, name: "Plain", fields: [NoteType.Field(name: "A"), NoteType.Field(name: "B")],
      templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{A}}", answerFormat: "")])
    let (same, none) = Schema11NoteTypeNames.upgraded([unchanged], location: Self.location)
    #expect(same == [unchanged] && none.isEmpty)
    var decomposedName = unchanged
    decomposedName.name = "Typ\u{0301}e"
    let (composed, renamed) = Schema11NoteTypeNames.upgraded([decomposedName], location: Self.location)
    #expect(Array(composed[0].name.unicodeScalars) == Array("Typ\u{0301}e".canonicallyComposed.unicodeScalars))
    #expect(renamed.map(\.category) == ["note-type-renamed"])
  }

  @Test("decks and note types: one of two of one name is shown renamed, deck 1 keeping its name")
  func shownNames() throws {
    let noteTypes = [Int64(10), 20].map { id in
      NoteType(
        id: id, name: "Twin", fields: [NoteType.Field(name: "F")],
        templates: [
          NoteType.CardTemplate(name: "C", questionFormat: "{{F}}|{{Type}}|{{Deck}}|{{Subdeck}}", answerFormat: "")
        ])
    }
    let decks = [
      Deck(id: 5, name: "default"), Deck(id: 1, name: "Default"), Deck(id: 7, name: "alpha"),
      Deck(id: 8, name: " ALPHA "), Deck(id: 9, name: "alpha::kid"),
    ]
    let collection = DeckCollection(
      decks: decks, noteTypes: noteTypes, notes: [Note(id: 1, guid: "g", noteTypeID: 20, fields: ["f"])],
      cards: [Card(id: 3, noteID: 1, templateOrdinal: 0, deckID: 8)])
    let names = AnkiShownNames(collection)
    #expect(names.decks[1]?.name == "Default" && names.decks[5]?.name == "default_")
    #expect(names.decks[8]?.name == "ALPHA_" && names.decks[8]?.last == "ALPHA_")
    #expect(names.decks[9]?.name == "alpha::kid" && names.decks[9]?.last == "kid")
    #expect(names.noteTypes == [10: "Twin", 20: "Twin_"])
    #expect(CardRenderer(collection).render(collection.cards[0]).question == "f|Twin_|ALPHA_|ALPHA_")
    let warnings = AnkiShownNames.warnings(for: names.renamed, at: Self.location).map(\.exactDescription)
    #expect(warnings.count == 3)
    #expect(
      warnings[1]
        == "t.apkg: deck ' ALPHA ' (id 8): warning: [deck-renamed] deck 7, 'alpha', has the same name (Anki compares names ignoring case), and Anki renames one of the two when it opens the collection, but which one differs from one opening to the next; this one is shown as 'ALPHA_', as Anki shows it when it renames this one, and Anki may rename the other instead"
    )
    #expect(
      warnings[2].hasPrefix(
        "t.apkg: note type 'Twin' (id 20): warning: [note-type-renamed] note type 10, 'Twin', has the same name"))
  }
}
