import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// The template language's rules, one at a time, on collections made here. The whole renderer is
/// judged against the real Anki backend, card by card, in `Tests/anki/test_card_rendering.py`.
@Suite("Card rendering: Anki's template language")
struct CardRendererTests {
  /// The rendered sides of the first card of a one-note collection whose note type has the
  /// fields `fields` (names and values) and one template.
  static func rendered(
    front: String, back: String = "{{FrontSide}}", fields: KeyValuePairs<String, String>, tags: [String] = [],
    kind: NoteType.Kind = .standard, ordinal: Int = 0, flags: Int = 0, deck: String = "Top::Sub"
  ) -> RenderedCard {
    let noteType = NoteType(
      id: 1, name: "Type", kind: kind, fields: fields.map { NoteType.Field(name: $0.key) },
      templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: front, answerFormat: back)], css: ".card {}")
    var card = Card(id: 42, noteID: 7, templateOrdinal: ordinal, deckID: 3)
    card.scheduling.flags = flags
    let collection = DeckCollection(
      decks: [Deck(id: 3, name: deck)], noteTypes: [noteType],
      notes: [Note(id: 7, guid: "g", noteTypeID: 1, fields: fields.map(\.value), tags: tags)], cards: [card])
    return CardRenderer(collection).render(card)
  }

  @Test("fields, sections, negated sections and the special fields")
  func sectionsAndSpecialFields() {
    let card = Self.rendered(
      front: "{{Front}}{{#Back}}[{{Back}}]{{/Back}}{{^Extra}} no extra{{/Extra}}",
      back:
        "{{FrontSide}}<hr id=answer>{{Tags}}|{{Deck}}|{{Subdeck}}|{{Type}}|{{Card}}|{{CardFlag}}|{{CardID}}|{{#c1}}c1{{/c1}}",
      fields: ["Front": "F", "Back": "B", "Extra": " <br> <DIV></div>"], tags: ["a", "b::c"], flags: 2)
    #expect(card.question == "F[B] no extra")
    #expect(card.answer == "F[B] no extra<hr id=answer>a b::c|Top::Sub|Sub|Type|Card 1|flag2|42|c1")
    #expect(card.css == ".card {}")
    #expect(card.problem == nil)
  }

  /// A package written elsewhere may hold a deck name Anki never stores; Anki shows the name it
  /// stores for it (judged by the backend in `Tests/anki/test_card_rendering.py`).
  @Test(
    "{{Deck}} and {{Subdeck}} show the deck's name as Anki stores it",
    arguments: [
      ("  Spaced  ::  kid ", "Spaced::kid", "kid"), ("A::::B", "A::blank::B", "B"), ("::Lead", "blank::Lead", "Lead"),
      ("Trail::", "Trail::blank", "blank"), ("", "blank", "blank"), ("x\u{1F}y", "xy", "xy"),
      ("\u{A0}nb\u{A0}::k", "nb::k", "k"), ("tab\there", "tabhere", "tabhere"),
      ("De\u{301}cor", "D\u{E9}cor", "D\u{E9}cor"),
    ])
  func storedDeckNames(_ name: String, deck: String, subdeck: String) {
    let card = Self.rendered(front: "{{Front}}|{{Deck}}|{{Subdeck}}", fields: ["Front": "F"], deck: name)
    // Compared scalar by scalar: `==` would take `e` + U+0301 for U+00E9.
    #expect(Array(card.question.unicodeScalars) == Array("F|\(deck)|\(subdeck)".unicodeScalars))
  }

  @Test("a note's own field named like a special one is the note's")
  func noteFieldsHideSpecialOnes() {
    let card = Self.rendered(front: "{{Deck}}|{{Tags}}", fields: ["Deck": "mine", "Tags": "also mine"], tags: ["t"])
    #expect(card.question == "mine|also mine")
  }

  @Test("comments keep their tags unread, the legacy <% %> syntax, stray braces and a tag with no end")
  func lexing() {
    #expect(Self.rendered(front: "<!-- {{Nope}} -->{{Front}}", fields: ["Front": "x"]).question == "<!-- {{Nope}} -->x")
    #expect(Self.rendered(front: " {{=<% %>=}}<%Front%> {{Front}}", fields: ["Front": "x"]).question == "x {{Front}}")
    #expect(Self.rendered(front: "{{{Front}}}", fields: ["Front": "x"]).question == "x}")
    #expect(Self.rendered(front: "{{Front}} {{open", fields: ["Front": "x"]).question == "x {{open")
    #expect(Self.rendered(front: "{{Front}}{{ #Front }}y{{ /Front }}", fields: ["Front": "x"]).question == "xy")
    // A tag is read scalar by scalar, as Rust reads it: a combining mark after `:` or `#` does not
    // hide them.
    #expect(Self.rendered(front: "{{text:\u{301}F}}", fields: ["\u{301}F": "<b>x</b>"]).question == "x")
    #expect(
      Self.rendered(front: "{{\u{301}F}}{{#\u{301}F}}y{{/\u{301}F}}", fields: ["\u{301}F": "x"]).question == "xy")
  }

  @Test("filters apply innermost first; unknown ones leave the text; a chain ending in type is the box alone")
  func filters() {
    let fields: KeyValuePairs = ["Front": "<b>bold</b> &amp; more"]
    #expect(Self.rendered(front: "{{text:Front}}", fields: fields).question == "bold & more")
    #expect(Self.rendered(front: "{{mine:Front}}", fields: fields).question == "<b>bold</b> &amp; more")
    #expect(Self.rendered(front: "{{text:mine:Front}}", fields: fields).question == "bold & more")
    #expect(Self.rendered(front: "{{:Front}}", fields: fields).question == "<b>bold</b> &amp; more")
    #expect(Self.rendered(front: "{{Front}}{{mine:}}", fields: fields).question == "<b>bold</b> &amp; more")
    #expect(Self.rendered(front: "{{Front}}", back: "{{text:type:Front}}", fields: fields).answer == "[[type:Front]]")
    #expect(Self.rendered(front: "{{Front}}", back: "{{type:nc:Front}}", fields: fields).answer == "[[type:nc:Front]]")
    #expect(
      Self.rendered(front: "{{Front}}", back: "{{type:cloze:Front}}", fields: fields).answer == "[[type:cloze:Front]]")
    #expect(Self.rendered(front: "{{Front}}", back: "{{type:text:Front}}", fields: fields).answer == "[[type:Front]]")
  }

  @Test("a blank front and a missing cloze show Anki's messages and say why")
  func blankCards() {
    let blank = Self.rendered(front: "{{Back}}", fields: ["Front": "x", "Back": "<br>"])
    #expect(blank.problem == .blankFront)
    #expect(blank.question.hasPrefix("<br><div>The front of this card is blank."))
    #expect(blank.answer.hasPrefix("<div>The front of this card is blank."))
    let cloze = Self.rendered(front: "{{cloze:Text}}", fields: ["Text": "{{c1::a}}"], kind: .cloze, ordinal: 1)
    #expect(cloze.problem == .missingCloze(number: 2))
    #expect(cloze.answer.hasPrefix("<div>No cloze \u{2068}2\u{2069} found on card.\n"))
  }

  @Test("templates that do not parse, or name no field, show Anki's error on both sides")
  func templateErrors() {
    let cases: [(String, String, String)] = [
      ("{{#Front}}x", "{{Front}}", "Missing '{{/Front}}'"),
      ("{{Front}}{{/Front}}", "{{Front}}", "Found '{{/Front}}', but missing '{{#Front}}' or '{{^Front}}'"),
      ("{{#Front}}{{/Back}}", "{{Front}}", "Found '{{/Back}}', but expected '{{/Front}}'"),
      ("{{Front}}{{text:Nope}}", "{{Front}}", "Found '{{text:Nope}}', but there is no field called 'Nope'"),
      ("{{Front}}{{^Nope}}{{/Nope}}", "{{Front}}", "Found '{{^Nope}}', but there is no field called 'Nope'"),
    ]
    for (front, back, message) in cases {
      let card = Self.rendered(front: front, back: back, fields: ["Front": "x"])
      #expect(card.problem == .templateError(side: .question, message: message), "\(front)")
      #expect(card.question == card.answer)
      #expect(
        card.question.hasPrefix("Front template has a problem:<br>Found &#x27;")
          || card.question.contains("Missing &#x27;"))
    }
    let back = Self.rendered(front: "{{Front}}", back: "{{#Front}}", fields: ["Front": "x"])
    #expect(back.problem == .templateError(side: .answer, message: "Missing '{{/Front}}'"))
    #expect(back.question.hasPrefix("Back template has a problem:<br>"))
    // A section that is not shown is still checked.
    let hidden = Self.rendered(front: "{{Front}}{{#Empty}}{{Nope}}{{/Empty}}", fields: ["Front": "x", "Empty": ""])
    #expect(
      hidden.problem
        == .templateError(side: .question, message: "Found '{{Nope}}', but there is no field called 'Nope'"))
  }

  @Test(
    "checking a card without rendering it finds the problem rendering gives, card by card",
    arguments: ["rendering/templates.apkg", "anki/latest_sched.apkg"]
      + ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path("real"))) ?? [])
      .filter { $0.hasSuffix(".apkg") || $0.hasSuffix(".colpkg") }.sorted().map { "real/\($0)" })
  func checkingFindsWhatRenderingFinds(package: String) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let renderer = CardRenderer(collection)
    var finger = 0
    var problems = 0
    for card in collection.cards {
      let rendered = renderer.render(card).problem
      #expect(renderer.problem(of: card, finger: &finger) == rendered, "card \(card.id)")
      if rendered != nil { problems += 1 }
    }
    if package == "rendering/templates.apkg" { #expect(problems > 0) }
  }

  @Test("checking finds the problems of made-up cards as rendering does; not the size limit, which needs the sides")
  func checkingMadeUpCards() {
    let cases:
      [(front: String, back: String, fields: KeyValuePairs<String, String>, kind: NoteType.Kind, ordinal: Int)] = [
        ("{{Back}}", "{{FrontSide}}", ["Front": "x", "Back": "<br>"], .standard, 0),
        ("{{cloze:Text}}", "{{cloze:Text}}", ["Text": "{{c1::a}}"], .cloze, 1),
        ("{{Front}}{{#Empty}}{{Nope}}{{/Empty}}", "{{Front}}", ["Front": "x", "Empty": ""], .standard, 0),
        ("{{Front}}", "{{#Front}}", ["Front": "x"], .standard, 0),
        ("{{Front}}", "{{FrontSide}}{{c2}}", ["Front": "x"], .standard, 0),
        ("{{Front}}", "{{FrontSide}}<hr id=answer>{{Front}}", ["Front": "x"], .standard, 0),
      ]
    for (front, back, fields, kind, ordinal) in cases {
      let noteType = NoteType(
        id: 1, name: "Type", kind: kind, fields: fields.map { NoteType.Field(name: $0.key) },
        templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: front, answerFormat: back)])
      let card = Card(id: 42, noteID: 7, templateOrdinal: ordinal, deckID: 3)
      let renderer = CardRenderer(
        DeckCollection(
          noteTypes: [noteType], notes: [Note(id: 7, guid: "g", noteTypeID: 1, fields: fields.map(\.value))],
          cards: [card]))
      var finger = 0
      #expect(renderer.problem(of: card, finger: &finger) == renderer.render(card).problem, "\(front) / \(back)")
    }
    // A back that copies a large field in more times than its limit allows: only rendering it
    // finds that.
    let noteType = NoteType(
      id: 1, name: "Type", fields: [NoteType.Field(name: "Front")],
      templates: [
        NoteType.CardTemplate(
          name: "Card 1", questionFormat: "{{Front}}", answerFormat: String(repeating: "{{Front}}", count: 40))
      ])
    let card = Card(id: 42, noteID: 7, templateOrdinal: 0, deckID: 3)
    let renderer = CardRenderer(
      DeckCollection(
        noteTypes: [noteType],
        notes: [Note(id: 7, guid: "g", noteTypeID: 1, fields: [String(repeating: "x", count: 60_000)])],
        cards: [card]))
    var finger = 0
    #expect(renderer.render(card).problem != nil && renderer.problem(of: card, finger: &finger) == nil)
  }

  @Test("a card whose template or note is missing says so")
  func missingParts() {
    let noteType = NoteType(
      id: 1, name: "T", fields: [NoteType.Field(name: "F")],
      templates: [NoteType.CardTemplate(name: "C", questionFormat: "{{F}}", answerFormat: "{{F}}")])
    let note = Note(id: 7, guid: "g", noteTypeID: 1, fields: ["x"])
    let collection = DeckCollection(noteTypes: [noteType], notes: [note])
    let renderer = CardRenderer(collection)
    #expect(
      renderer.render(Card(id: 1, noteID: 7, templateOrdinal: 3, deckID: 1)).problem == .missingTemplate(ordinal: 3))
    #expect(renderer.render(Card(id: 1, noteID: 8, templateOrdinal: 0, deckID: 1)).problem == .missingNote)
    // A card in a deck the collection lacks names it as Anki does.
    let renderedDeck = CardRenderer(
      DeckCollection(
        noteTypes: [
          NoteType(
            id: 1, name: "T", fields: [NoteType.Field(name: "F")],
            templates: [NoteType.CardTemplate(name: "C", questionFormat: "{{F}}{{Deck}}", answerFormat: "")])
        ], notes: [note])
    ).render(Card(id: 1, noteID: 7, templateOrdinal: 0, deckID: 99))
    #expect(renderedDeck.question == "x(Deck)")
  }

  @Test("hostile templates end with an answer: sections 100,000 deep, a megabyte of tags")
  func hostileTemplates() {
    let deep = String(repeating: "{{#Front}}", count: 100_000) + "x"
    let card = Self.rendered(front: deep, fields: ["Front": "x"])
    guard case .templateError(.question, let message) = card.problem else {
      Issue.record("no error for \(card.problem.map(String.init(describing:)) ?? "nil")")
      return
    }
    #expect(message.contains("inside \(AnkiTemplate.maximumSectionDepth) sections"))
    let many = String(repeating: "{{Front}}{{#Front}}{{/Front}}<!--", count: 30_000)
    #expect(Self.rendered(front: many, fields: ["Front": "x"]).question.hasPrefix("x"))
    let unclosed = String(repeating: "{{", count: 200_000)
    #expect(Self.rendered(front: "{{Front}}" + unclosed, fields: ["Front": "x"]).question == "x" + unclosed)
  }

  @Test("any ordinal a file holds renders without a trap: the largest and negative ones")
  func hostileOrdinals() {
    for ordinal in [Int.max, Int.min, -1] {
      let cloze = Self.rendered(
        front: "{{cloze:Text}}{{#c1}}x{{/c1}}", fields: ["Text": "{{c1::a}}"], kind: .cloze, ordinal: ordinal)
      #expect(cloze.problem == .missingCloze(number: ordinal.addingReportingOverflow(1).partialValue))
      if ordinal == .max { #expect(cloze.problem?.description == "no cloze 9223372036854775808 is found on the card") }
      let standard = Self.rendered(front: "{{Front}}", fields: ["Front": "x"], ordinal: ordinal)
      #expect(standard.problem == .missingTemplate(ordinal: ordinal))
    }
  }

  @Test("the problem's JSON names its kind and reads back")
  func problemJSON() throws {
    let problems: [RenderingProblem] = [
      .blankFront, .missingCloze(number: 3), .templateError(side: .answer, message: "Missing '{{/F}}'"),
      .missingTemplate(ordinal: 2), .missingNote,
    ]
    for problem in problems {
      let data = try JSONEncoder().encode(problem)
      #expect(try JSONDecoder().decode(RenderingProblem.self, from: data) == problem)
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      #expect(object?["message"] as? String == problem.description)
    }
  }

  // MARK: - Size

  /// A template that names a large field thousands of times (a few kilobytes once compressed in a
  /// package) made `deckport render` and `convert --to cards` build gigabytes and die ("failed to
  /// allocate"); a side now stops at its limit and shows a message, as a template error does.
  @Test("a side that would pass its limit shows a message instead", arguments: ["front", "back", "shown"])
  func sizeLimit(_ where: String) throws {
    let field = String(repeating: "x", count: 64 << 10)
    let repeated = String(repeating: "{{Front}}", count: 20_000)
    let card: RenderedCard
    switch `where` {
    case "front": card = Self.rendered(front: repeated, fields: ["Front": field])
    case "back":
      card = Self.rendered(
        front: "{{Front}}", back: String(repeating: "{{FrontSide}}", count: 20_000), fields: ["Front": field])
    default: card = Self.rendered(front: "{{#Front}}\(repeated){{/Front}}", fields: ["Front": field])
    }
    let side: CardSide = `where` == "back" ? .answer : .question
    let problem = try #require(card.problem)
    guard case .templateError(side, let message) = problem else {
      Issue.record("\(problem)")
      return
    }
    #expect(message.hasPrefix("The side would be larger than "))
    #expect(message.hasSuffix(" bytes (its template copies in its fields more times than deckport renders)"))
    #expect(card.question.utf8.count < 1_000 && card.answer.utf8.count < 1_000)
  }

  @Test("a section not shown costs nothing, whatever it would copy in")
  func unshownSection() {
    let field = String(repeating: "x", count: 64 << 10)
    let repeated = String(repeating: "{{Front}}", count: 20_000)
    let card = Self.rendered(front: "{{Front}}{{^Front}}\(repeated){{/Front}}", fields: ["Front": field])
    #expect(card.problem == nil)
    #expect(card.question == field)
    // Its errors are still Anki's.
    let broken = Self.rendered(front: "{{Front}}{{^Front}}{{Missing}}{{/Front}}", fields: ["Front": "F"])
    #expect(
      broken.problem
        == .templateError(side: .question, message: "Found '{{Missing}}', but there is no field called 'Missing'"))
  }

  @Test("a large field named a few times renders whole")
  func largeFieldRendersWhole() {
    // 4 MiB named 8 times on the front, the front twice on the back: 32 and 64 MiB, within the
    // limits (the fields' bytes 16 times, the front's twice, 1 MiB more).
    let field = String(repeating: "y", count: 4 << 20)
    let card = Self.rendered(
      front: String(repeating: "{{Front}}", count: 8), back: "{{FrontSide}}<hr>{{FrontSide}}", fields: ["Front": field])
    #expect(card.problem == nil)
    #expect(card.question.utf8.count == 32 << 20)
    #expect(card.answer.utf8.count == (64 << 20) + 4)
  }
}

/// The scan that stands in for Anki's card-export patterns must cut what they cut.
@Suite("Cards in Plain Text: a side as Anki's export writes it")
struct CardExportSideTests {
  /// A side with Anki's two patterns alone.
  static func withPatterns(_ html: String, isAnswer: Bool) -> String {
    let text = AnkiFieldText.replace(AnkiFieldText.Patterns.redundantSections, in: html, with: "")
    return isAnswer ? AnkiFieldText.replace(AnkiFieldText.Patterns.answerSideQuestion, in: text, with: "") : text
  }

  @Test("examples")
  func examples() {
    #expect(AnkiFieldText.cardExportSide("Q\n\n<hr id=answer>\n\n<b>A</b>", isAnswer: true, isHTML: true) == "<b>A</b>")
    #expect(AnkiFieldText.cardExportSide("Q\n\n<hr id=answer>\n\n<b>A</b>", isAnswer: true, isHTML: false) == "A")
    #expect(AnkiFieldText.cardExportSide("a<HR ID=Answer>b<hr id=answer>\nc", isAnswer: true, isHTML: true) == "c")
    #expect(AnkiFieldText.cardExportSide("<style>x</style>Q[[type:F]]", isAnswer: false, isHTML: true) == "Q")
    #expect(AnkiFieldText.cardExportSide("Q<hr id=answer>A", isAnswer: false, isHTML: true) == "Q<hr id=answer>A")
  }

  @Test("random sides: the scan and Anki's patterns agree")
  func randomSides() {
    let pieces = [
      "<style>", "</style>", "<STYLE>", "</Style>", "<hr id=answer>", "<HR ID=ANSWER>", "<hr id=answer", "\n",
      "[[type:x]]", "[[type:", "]]", "]", "ſ", "a", "<", "[", "é", "<b>", " ",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<4_000 {
      let side = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        .joined()
      for isAnswer in [false, true] {
        #expect(
          AnkiFieldText.cardExportSide(side, isAnswer: isAnswer, isHTML: true)
            == Self.withPatterns(side, isAnswer: isAnswer), "\(side.debugDescription) answer: \(isAnswer)")
      }
    }
  }

}
