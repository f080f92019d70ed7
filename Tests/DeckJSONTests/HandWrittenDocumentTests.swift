import DeckCore
import DeckIO
import Foundation
import Testing

@testable import DeckJSON

@Suite("JSON deck format: a hand-written document")
struct HandWrittenDocumentTests {
  static let header = """
    "format": "deckport-deck", "version": 1,
    "noteTypes": [
      {"name": "Vocabulary", "fields": [{"name": "Word"}, {"name": "Meaning"}, {"name": "Reverse"}],
       "templates": [{"name": "Recognise", "question": "{{Word}}"},
                     {"name": "Recall", "question": "{{#Reverse}}{{Meaning}}{{/Reverse}}"}]},
      {"name": "Sentences", "kind": "cloze", "fields": [{"name": "Text"}],
       "templates": [{"name": "Cloze", "question": "{{cloze:Text}}"}]}]
    """

  /// The collection read from `json`, written to a file whose modification time is `modified`;
  /// read whole and element by element, which must agree.
  static func read(_ json: String, modified: Int64 = 1_790_000_000) throws -> DeckCollection {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "hand.json")
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: TimeInterval(modified))], ofItemAtPath: path)
    let split = try DeckJSONReader().read(path: path).collection
    var wholeReader = DeckJSONReader()
    wholeReader.splitsArrays = false
    #expect(try wholeReader.read(path: path).collection == split)
    return split
  }

  static func document(decks: String, notes: String) -> String {
    "{\(header), \"decks\": [\(decks)], \"notes\": [\(notes)]}"
  }

  @Test("without cards, each note gets the cards Anki makes, in the deck it names, new and due in note order")
  func cardsMade() throws {
    let collection = try Self.read(
      Self.document(
        decks: #"{"name": "Spanish"}, {"name": "Spanish::Verbs"}"#,
        notes: """
          {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el gato", "Meaning": "the cat"}},
          {"noteType": "Vocabulary", "deck": "Spanish::Verbs", "fields": {"Word": "comer", "Meaning": "to eat", "Reverse": "y"}},
          {"noteType": "Sentences", "deck": "Spanish", "fields": {"Text": "{{c1::Hola}}, {{c3::amigo}}"}}
          """))
    let deckNames = Dictionary(uniqueKeysWithValues: collection.decks.map { ($0.id, $0.name) })
    let made = collection.cards.map { card in
      (collection.notes.firstIndex { $0.id == card.noteID }, card.templateOrdinal, deckNames[card.deckID])
    }
    #expect(made.map(\.0) == [0, 1, 1, 2, 2])
    #expect(made.map(\.1) == [0, 0, 1, 0, 2])
    #expect(made.map(\.2) == ["Spanish", "Spanish::Verbs", "Spanish::Verbs", "Spanish", "Spanish"])
    #expect(collection.cards.map(\.scheduling.due) == [1, 2, 2, 3, 3])
    #expect(collection.cards.allSatisfy { $0.scheduling.type == .new && $0.scheduling.queue == .new })
    #expect(Set(collection.cards.map(\.id)).count == collection.cards.count)
    // Notes and cards without a time take the file's.
    #expect(collection.notes.map(\.modificationTime) == [1_790_000_000, 1_790_000_000, 1_790_000_000])
    #expect(collection.cards.allSatisfy { $0.modificationTime == 1_790_000_000 })
  }

  @Test("an empty GUID is named: Anki would keep it, shared by every note without one")
  func emptyGUID() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "hand.json")
    let json = Self.document(
      decks: #"{"name": "D"}"#,
      notes:
        #"{"noteType": "Vocabulary", "guid": "", "fields": {"Word": "a"}}, {"noteType": "Vocabulary", "fields": {"Word": "b"}}"#
    )
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    let warnings = try DeckJSONReader().read(path: path).warnings
    #expect(warnings.map(\.category) == ["guid-empty"])
    #expect(warnings.first?.location.jsonPath == "notes[0].guid")
  }

  @Test("a note that names no deck: the document's only deck, or Default when it has none")
  func defaultDeck() throws {
    let note = #"{"noteType": "Vocabulary", "fields": {"Word": "el gato"}}"#
    let onlyDeck = try Self.read(Self.document(decks: #"{"id": 77, "name": "Spanish"}"#, notes: note))
    #expect(onlyDeck.cards.map(\.deckID) == [77])
    #expect(onlyDeck.decks.map(\.name) == ["Spanish"])
    let noDeck = try Self.read(Self.document(decks: "", notes: note))
    #expect(noDeck.decks.map(\.name) == ["Default"])
    #expect(noDeck.cards.map(\.deckID) == [1])
  }

  @Test(
    "a note may name a deck the document does not define: it is added with its parents; names match ignoring case, and a new subdeck takes its parent's spelling, as in Anki"
  )
  func decksAddedFromNames() throws {
    let collection = try Self.read(
      Self.document(
        decks: #"{"id": 77, "name": "Spanish"}"#,
        notes: """
          {"noteType": "Vocabulary", "deck": "spanish::Verbs", "fields": {"Word": "comer"}},
          {"noteType": "Vocabulary", "deck": "Latin::Verbs::Irregular", "fields": {"Word": "esse"}},
          {"noteType": "Vocabulary", "deck": "SPANISH", "fields": {"Word": "el gato"}},
          {"noteType": "Vocabulary", "deck": "Latin::verbs::irregular", "fields": {"Word": "ire"}}
          """))
    let names = Dictionary(uniqueKeysWithValues: collection.decks.map { ($0.id, $0.name) })
    #expect(
      collection.decks.map(\.name) == ["Spanish", "Spanish::Verbs", "Latin", "Latin::Verbs", "Latin::Verbs::Irregular"])
    #expect(collection.decks[0].id == 77)
    #expect(Set(collection.decks.map(\.id)).count == 5)
    #expect(collection.decks.allSatisfy { $0.kind == .normal(optionsID: 1) })
    #expect(
      collection.cards.map { names[$0.deckID] }
        == ["Spanish::Verbs", "Latin::Verbs::Irregular", "Spanish", "Latin::Verbs::Irregular"])
    // A note naming none, beside notes that named new ones, still needs the document's only deck.
    let mixed = try Self.read(
      Self.document(
        decks: "",
        notes: """
          {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el gato"}},
          {"noteType": "Vocabulary", "fields": {"Word": "esse"}}
          """))
    #expect(mixed.decks.map(\.name) == ["Spanish", "Default"])
    #expect(mixed.cards.map(\.deckID) == [mixed.decks[0].id, 1])
  }

  @Test("a derived GUID follows the note type, first field and top-level deck, not the other fields, tags or subdeck")
  func derivedGUIDs() throws {
    func guids(_ notes: String, modified: Int64 = 1_790_000_000) throws -> [String] {
      try Self.read(
        Self.document(decks: #"{"name": "Spanish"}, {"name": "Spanish::Verbs"}, {"name": "Latin"}"#, notes: notes),
        modified: modified
      ).notes.map(\.guid)
    }
    let first = try guids(
      """
      {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "comer", "Meaning": "to eat"}},
      {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bank"}},
      {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bench"}},
      {"noteType": "Vocabulary", "deck": "Spanish", "guid": "kept", "fields": {"Word": "la casa"}}
      """)
    let edited = try guids(
      """
      {"noteType": "Vocabulary", "deck": "Spanish::Verbs", "fields": {"Word": "comer", "Meaning": "to eat, to dine"}, "tags": ["verb"]},
      {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bank (money)"}},
      {"noteType": "Vocabulary", "deck": "Spanish", "fields": {"Word": "el banco", "Meaning": "the bench"}},
      {"noteType": "Vocabulary", "deck": "Spanish", "guid": "kept", "fields": {"Word": "la casa"}}
      """, modified: 1_790_000_100)
    #expect(edited == first)
    #expect(Set(first).count == 4)  // homonyms told apart by their order
    #expect(first[3] == "kept")
    let elsewhere = try guids(#"{"noteType": "Vocabulary", "deck": "Latin", "fields": {"Word": "comer"}}"#)
    let otherType = try guids(#"{"noteType": "Sentences", "deck": "Spanish", "fields": {"Text": "comer"}}"#)
    #expect(elsewhere[0] != first[0])
    #expect(otherType[0] != first[0])
    // A note without an id takes one that follows its GUID.
    let ids = try Self.read(
      Self.document(decks: #"{"name": "Spanish"}"#, notes: #"{"noteType": "Vocabulary", "fields": {"Word": "comer"}}"#)
    ).notes.map(\.id)
    #expect(ids == [DerivedID.id(for: "note\u{1F}" + first[0])])
    // A note with a GUID and no id takes one from its GUID, as before.
    let kept = try Self.read(
      Self.document(
        decks: #"{"name": "Spanish"}"#,
        notes:
          #"{"noteType": "Vocabulary", "guid": "a", "fields": {"Word": "x"}}, {"noteType": "Vocabulary", "guid": "b", "fields": {"Word": "y"}}"#
      )
    ).notes.map(\.id)
    #expect(kept == [DerivedID.id(for: "note\u{1F}a"), DerivedID.id(for: "note\u{1F}b")])
  }

  @Test("a note naming a stock note type the document leaves out gets Anki's, in the language of its name")
  func stockNoteTypes() throws {
    let collection = try Self.read(
      """
      {"format": "deckport-deck", "version": 1,
       "notes": [{"noteType": "basique", "fields": {"Recto": "chat", "Verso": "cat"}},
                 {"noteType": "Basique", "fields": {"Recto": "chien"}},
                 {"noteType": "Cloze", "fields": {"Text": "{{c1::a}} {{c2::b}}"}}]}
      """)
    #expect(collection.noteTypes.map(\.name) == ["Basique", "Cloze"])
    #expect(collection.noteTypes.first == StockNoteType.noteType(named: "Basique"))
    #expect(collection.notes.map(\.noteTypeID) == [0, 0, 1].map { collection.noteTypes[$0].id })
    #expect(collection.cards.map(\.templateOrdinal) == [0, 0, 0, 1])
  }

  @Test("a note without a GUID in a document with cards: the top-level deck of its first card")
  func guidFromFirstCard() throws {
    let json = """
      {\(Self.header), "decks": [{"id": 1, "name": "Spanish::Verbs"}, {"id": 2, "name": "Latin"}],
       "notes": [{"id": 10, "noteType": "Vocabulary", "fields": {"Word": "comer"}, "modified": 5},
                 {"id": 11, "noteType": "Vocabulary", "fields": {"Word": "comer"}, "modified": 5}],
       "cards": [{"id": 20, "note": 10, "template": 0, "deck": 1}, {"id": 21, "note": 11, "template": 0, "deck": 2}]}
      """
    let collection = try Self.read(json)
    let spanish = try Self.read(
      Self.document(decks: #"{"name": "Spanish"}"#, notes: #"{"noteType": "Vocabulary", "fields": {"Word": "comer"}}"#))
    #expect(collection.notes.map(\.id) == [10, 11])
    #expect(collection.notes.map(\.modificationTime) == [5, 5])
    #expect(collection.notes[0].guid == spanish.notes[0].guid)
    #expect(collection.notes[1].guid != spanish.notes[0].guid)
    #expect(collection.cards.map(\.id) == [20, 21])
  }
}
