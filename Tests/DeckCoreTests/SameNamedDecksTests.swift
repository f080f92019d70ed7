import DeckCore
import Foundation
import Testing

/// Decks Anki matches as one name are made one deck, so that every import of what is written
/// gives the same result (the backend's judgement: `Tests/anki/test_real_same_named_decks.py`).
@Suite("Decks of one name made one")
struct SameNamedDecksTests {
  static let location = SourceLocation(file: "out.apkg")

  static func collection(_ decks: [Deck], cardDecks: [Int64]) -> DeckCollection {
    DeckCollection(
      decks: decks,
      cards: cardDecks.enumerated().map {
        Card(id: Int64(100 + $0.offset), noteID: 1, templateOrdinal: 0, deckID: $0.element)
      })
  }

  /// Anki matches names by full case folding (`Tests/anki/test_values_anki_import_changes.py`).
  @Test("names one under full Unicode case folding are one: Straße and STRASSE, ﬁ and FI, σας and ΣΑΣ")
  func fullCaseFolding() throws {
    let source = Self.collection(
      [
        Deck(id: 2, name: "Straße"), Deck(id: 3, name: "STRASSE"), Deck(id: 4, name: "ﬁ"), Deck(id: 5, name: "FI"),
        Deck(id: 6, name: "σας"), Deck(id: 7, name: "ΣΑΣ"), Deck(id: 8, name: "İ"), Deck(id: 9, name: "i"),
      ],
      cardDecks: [3, 5, 7, 9])
    let (merged, warnings) = try SameNamedDecks.merged(source, location: Self.location)
    #expect(merged.decks.map(\.name) == ["Straße", "ﬁ", "σας", "İ", "i"])
    #expect(merged.cards.map(\.deckID) == [2, 4, 6, 9])
    #expect(warnings.map(\.location.item) == ["deck 'STRASSE' (id 3)", "deck 'FI' (id 5)", "deck 'ΣΑΣ' (id 7)"])
  }

  @Test("deck 1 is kept, even when it comes last; the others' cards, filtered cards and template decks go to it")
  func deckOneKept() throws {
    var source = Self.collection(
      [
        Deck(id: 5, name: "Default", description: "mine", kind: .normal(optionsID: 7)),
        Deck(id: 6, name: "DEFAULT"),
        Deck(id: 1, name: "default"),
        Deck(id: 8, name: "Other"),
      ],
      cardDecks: [5, 6, 8, 1])
    source.cards[2].scheduling.originalDeckID = 6
    source.noteTypes = [
      NoteType(
        id: 3, name: "Basic", fields: [NoteType.Field(name: "Front")],
        templates: [
          NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "", targetDeckID: 5)
        ])
    ]
    let (merged, warnings) = try SameNamedDecks.merged(source, location: Self.location)
    #expect(merged.decks.map(\.id) == [1, 8])
    #expect(merged.cards.map(\.deckID) == [1, 1, 8, 1])
    #expect(merged.cards[2].scheduling.originalDeckID == 1)
    #expect(merged.noteTypes[0].templates[0].targetDeckID == 1)
    #expect(
      warnings.map(\.description) == [
        "out.apkg: deck 'Default' (id 5): warning: [decks-merged] deck 1 has the same name (Anki compares names ignoring case), and Anki's import makes one deck of the two, keeping whichever it meets first, so the deck's name differs from one import to the next; they are written as one deck, id 1, which holds this deck's 1 card; its description and its option group (id 7) are not kept",
        "out.apkg: deck 'DEFAULT' (id 6): warning: [decks-merged] deck 1 has the same name (Anki compares names ignoring case), and Anki's import makes one deck of the two, keeping whichever it meets first, so the deck's name differs from one import to the next; they are written as one deck, id 1, which holds this deck's 2 cards",
      ])
  }

  @Test("names that differ are left alone, with no warning")
  func distinctNames() throws {
    let source = Self.collection([Deck(id: 1, name: "Default"), Deck(id: 2, name: "Default::Sub")], cardDecks: [2])
    let (merged, warnings) = try SameNamedDecks.merged(source, location: Self.location)
    #expect(merged == source && warnings.isEmpty)
  }

  @Test("a filtered deck of another deck's name is refused")
  func filteredRefused() {
    let source = Self.collection(
      [
        Deck(id: 1, name: "A"),
        Deck(id: 2, name: "a", kind: .filtered(FilteredDeck(reschedule: true, searchTerms: []))),
      ],
      cardDecks: [])
    #expect(throws: DeckError.self) { try SameNamedDecks.merged(source, location: Self.location) }
  }

  @Test("a merged deck's subdecks go under the kept deck's name, and names compare as Anki stores them")
  func subdecksAndStoredNames() throws {
    let source = Self.collection(
      [
        Deck(id: 1, name: "Default"), Deck(id: 5, name: "default"), Deck(id: 6, name: "default::Sub"),
        Deck(id: 7, name: "default::Sub::Leaf"), Deck(id: 8, name: "Languages"), Deck(id: 9, name: "Languages "),
      ],
      cardDecks: [5, 6, 7, 9])
    let (merged, warnings) = try SameNamedDecks.merged(source, location: Self.location)
    #expect(merged.decks.map(\.name) == ["Default", "Default::Sub", "Default::Sub::Leaf", "Languages"])
    #expect(merged.cards.map(\.deckID) == [1, 6, 7, 8])
    #expect(warnings.map(\.location.item) == ["deck 'default' (id 5)", "deck 'Languages ' (id 9)"])
    #expect(warnings[0].message.hasSuffix("which holds this deck's 1 card; 2 subdecks go under the name 'Default'"))
  }

  @Test("a filtered deck takes part in no group for a writer that leaves filtered decks out")
  func filteredLeftOut() throws {
    let source = Self.collection(
      [
        Deck(id: 1, name: "A"),
        Deck(id: 2, name: "a", kind: .filtered(FilteredDeck(reschedule: true, searchTerms: []))),
      ],
      cardDecks: [1])
    let (merged, warnings) = try SameNamedDecks.merged(source, filteredDecksWritten: false, location: Self.location)
    #expect(merged == source && warnings.isEmpty)
  }

  @Test("settings and note types that name a merged deck name the kept one; other values are left as they are")
  func deckSettingsRemapped() throws {
    var source = Self.collection(
      [Deck(id: 1, name: "Default"), Deck(id: 5, name: "default"), Deck(id: 8, name: "Other")], cardDecks: [5])
    source.settings = [
      AnkiProperty(key: "curDeck", jsonText: "5"),
      // As Python's json.dumps writes it (Anki 2.0's conf).
      AnkiProperty(key: "activeDecks", jsonText: "[5, 1, 8]"),
      AnkiProperty(key: "_nt_3_lastDeck", jsonText: "5"),
      AnkiProperty(key: "nextPos", jsonText: "5"),
      AnkiProperty(key: "activeCols", jsonText: "[5]"),
    ]
    source.noteTypes = [
      NoteType(
        id: 3, name: "Basic", fields: [NoteType.Field(name: "Front")],
        templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "")],
        ankiProperties: [AnkiProperty(key: "did", jsonText: "5"), AnkiProperty(key: "usn", jsonText: "5")])
    ]
    let (merged, _) = try SameNamedDecks.merged(source, location: Self.location)
    #expect(merged.settings.map(\.jsonText) == ["1", "[1,8]", "1", "5", "[5]"])
    #expect(merged.noteTypes[0].ankiProperties.map(\.jsonText) == ["1", "5"])
  }
}
