import DeckIO
import DeckKit
import Foundation
import Testing

@testable import DeckTestSupport

/// Cards ``DeckBuilder`` makes as Anki makes them, but that Anki shows its message on instead of
/// what their template asks for: one `card-rendering` warning counts them and names the first.
@Suite("DeckBuilder: cards Anki would show its message on")
struct DeckBuilderCardProblemTests {
  static let namespace = "com.example.problems"

  /// The `card-rendering` warnings of the deck `builder` builds.
  static func problemWarnings(_ builder: DeckBuilder) -> [Diagnostic] {
    builder.build().warnings.filter { $0.category == "card-rendering" }
  }

  @Test("a template naming a field the note type does not have: every card of it, the first named by its record id")
  func missingField() throws {
    var builder = DeckBuilder(namespace: Self.namespace)
    let broken = builder.noteType(
      named: "Broken", fields: ["A"],
      templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{A}}{{Nope}}", answerFormat: "{{A}}")])
    try builder.addNote(id: "fine", fields: ["front", "back"])
    try builder.addNote(id: "first", fields: ["x"], noteType: broken)
    try builder.addNote(id: "second", fields: ["y"], noteType: broken)
    let warnings = Self.problemWarnings(builder)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.description
        == "DeckBuilder 'com.example.problems': note 'first': warning: [card-rendering] its card 1 (note type 'Broken', template 'Card 1') would show Anki's message instead of what its template asks for: its front template has a problem: Found '{{Nope}}', but there is no field called 'Nope'; so would 1 more card"
    )
  }

  @Test("a cloze note without a cloze, and a note whose front shows only empty fields: the card Anki makes anyway")
  func blankCards() throws {
    var cloze = DeckBuilder(namespace: Self.namespace)
    try cloze.addNote(id: "c", fields: ["no cloze here", ""], noteType: StockNoteType.cloze.noteType)
    #expect(
      Self.problemWarnings(cloze).map(\.message) == [
        "its card 1 (note type 'Cloze', template 'Cloze') would show Anki's message instead of what its template asks for: no cloze 1 is found on the card"
      ])

    var empty = DeckBuilder(namespace: Self.namespace)
    try empty.addNote(id: "ok", fields: ["front", "back"], noteType: StockNoteType.basicAndReversedCard.noteType)
    try empty.addNote(id: "e", fields: ["", "back"])
    try empty.addNote(id: "f", fields: [" <br> ", "back"])
    #expect(
      Self.problemWarnings(empty).map(\.message) == [
        "its card 1 (note type 'Basic', template 'Card 1') would show Anki's message instead of what its template asks for: the front of the card is blank; so would 1 more card"
      ])
  }

  @Test(
    "cards that show their template give no warning: stock note types, clozes, an empty field the front does not need")
  func noWarning() throws {
    var builder = DeckBuilder(namespace: Self.namespace)
    try builder.addNote(id: "1", fields: ["hablar", "to speak"], noteType: StockNoteType.basicAndReversedCard.noteType)
    try builder.addNote(
      id: "2", fields: ["perro", "dog", ""], noteType: StockNoteType.basicOptionalReversedCard.noteType)
    try builder.addNote(id: "3", fields: ["{{c1::Yo}} {{c2::hablo}}", ""], noteType: StockNoteType.cloze.noteType)
    try builder.addNote(id: "4", fields: ["casa", ""])
    let deck = builder.build()
    #expect(deck.warnings.isEmpty)
    #expect(deck.collection.cards.count == 6)
  }

  @Test(
    "the cards counted are those the real Anki backend renders with its message, and only those",
    .enabled(if: PythonScript.hasAnkiBackend))
  func judgedByAnki() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    var builder = DeckBuilder(namespace: Self.namespace)
    let broken = builder.noteType(
      named: "Broken", fields: ["A", "B"],
      templates: [
        NoteType.CardTemplate(name: "Fine", questionFormat: "{{A}}", answerFormat: "{{FrontSide}}<hr id=answer>{{B}}"),
        NoteType.CardTemplate(name: "Bad back", questionFormat: "{{B}}", answerFormat: "{{Nope}}"),
      ])
    try builder.addNote(id: "ok", fields: ["a", "b"], noteType: StockNoteType.basicAndReversedCard.noteType)
    try builder.addNote(id: "broken", fields: ["a", "b"], noteType: broken)
    try builder.addNote(id: "only-a", fields: ["a", ""], noteType: broken)
    try builder.addNote(id: "cloze", fields: ["no cloze", ""], noteType: StockNoteType.cloze.noteType)
    try builder.addNote(id: "blank", fields: ["", "b"])
    let deck = builder.build()
    let warning = try #require(deck.warnings.first { $0.category == "card-rendering" })
    #expect(warning.location.item == "note 'broken'")
    #expect(warning.message.hasSuffix("; so would 2 more cards"))

    let package = scratch.path(for: "deck.apkg")
    _ = try DeckConverter().write(deck, to: package)
    struct Render: Decodable {
      var error: Bool
      var empty: Bool
    }
    let renders = try JSONDecoder().decode(
      [String: Render].self, from: Data(try PythonScript.runWithAnki("anki_render.py", [package]).utf8))
    // Anki's own judgement: cards it cannot render, or renders blank (its Empty Cards).
    let shown = renders.values.filter { $0.error || $0.empty }
    #expect(renders.count == 7 && shown.count == 3)
  }
}
