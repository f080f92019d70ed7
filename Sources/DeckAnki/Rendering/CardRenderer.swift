import DeckCore

/// Renders cards as Anki shows them for review: each card's template filled with its note's
/// fields, the special fields (`{{Tags}}`, `{{Deck}}`, `{{Subdeck}}`, `{{Type}}`, `{{Card}}`,
/// `{{CardFlag}}`, `{{CardID}}`, `{{FrontSide}}`), sections, and Anki's built-in filters
/// (`cloze`, `cloze-only`, `hint`, `text`, `furigana`, `kana`, `kanji`, `type`, `tts`).
///
/// ```swift
/// let deck = try DeckLoader().load(path: "French.apkg").collection
/// let renderer = CardRenderer(deck)
/// for card in deck.cards {
///   let sides = renderer.render(card)
///   show(front: sides.question, back: sides.answer, css: sides.css)
/// }
/// ```
///
/// The output is what Anki's backend renders (checked against it for every card of real decks):
/// the same HTML, byte for byte. Like Anki, a card whose front would be blank, a cloze card
/// without its cloze, or a template with a syntax error shows Anki's message instead, and
/// ``RenderedCard/problem`` says which. Filters Anki's backend does not know (add-ons' own) leave
/// the field as it is. LaTeX and MathJax are left in the text for the app to typeset, as Anki's
/// backend leaves them.
public struct CardRenderer: Sendable {
  /// The deck's notes (the collection's own array, not a copy), found by id through `notePositions`.
  private let notes: [Note]
  private let notePositions: IDPositions
  private let noteTypes: [Int64: ParsedNoteType]
  /// Each deck's name and its last level as Anki shows them (`{{Deck}}` and `{{Subdeck}}`).
  private let deckNames: [Int64: (name: String, last: String)]

  /// A note type with its templates parsed once; a class, so that finding it for each card
  /// copies nothing.
  private final class ParsedNoteType: Sendable {
    let name: String
    let kind: NoteType.Kind
    let css: String
    let templateNames: [String]
    let fronts: [Result<AnkiTemplate, AnkiTemplate.SyntaxError>]
    let backs: [Result<AnkiTemplate, AnkiTemplate.SyntaxError>]
    /// The UTF-8 size of each template's front and back (for the limit on a rendered side).
    let frontBytes: [Int]
    let backBytes: [Int]
    /// The position of each field name (the first field of a name, names compared exactly).
    let positions: FieldPositions

    init(_ noteType: NoteType, shownName: String) {
      func parse(_ text: String) -> Result<AnkiTemplate, AnkiTemplate.SyntaxError> {
        Result { () throws(AnkiTemplate.SyntaxError) in try AnkiTemplate(parsing: text) }
      }
      name = shownName
      kind = noteType.kind
      css = noteType.css
      templateNames = noteType.templates.map(\.name)
      fronts = noteType.templates.map { parse($0.questionFormat) }
      backs = noteType.templates.map { parse($0.answerFormat) }
      frontBytes = noteType.templates.map { $0.questionFormat.utf8.count }
      backBytes = noteType.templates.map { $0.answerFormat.utf8.count }
      positions = noteType.fieldPositions
    }
  }

  /// A renderer for the cards of `collection`; its templates are parsed once, here.
  ///
  /// `{{Deck}}`, `{{Subdeck}}` and `{{Type}}` show the names Anki shows once it has opened the
  /// collection: a deck's name as Anki stores it (` A :: B ` is `A::B`) and, of two decks or two
  /// note types whose names Anki takes for one, one renamed with `_` as Anki renames it. Which of
  /// the two Anki renames differs from one opening to the next; the deck kept is deck 1, else the
  /// first in the collection's order, as is the note type (`CardPreview` warns of each).
  public init(_ collection: DeckCollection) {
    self.init(collection, names: AnkiShownNames(collection))
  }

  /// A renderer for the cards of `collection`, whose decks and note types Anki shows as
  /// `names` say.
  package init(_ collection: DeckCollection, names: AnkiShownNames) {
    notes = collection.notes
    notePositions = IDPositions(collection.notes.map(\.id))
    var noteTypes: [Int64: ParsedNoteType] = [:]
    for noteType in collection.noteTypes {
      noteTypes[noteType.id] = ParsedNoteType(noteType, shownName: names.noteTypes[noteType.id] ?? noteType.name)
    }
    self.noteTypes = noteTypes
    deckNames = names.decks
  }

  /// `card`'s two sides.
  public func render(_ card: Card) -> RenderedCard {
    var finger = 0
    return render(card, finger: &finger)
  }

  /// `card`'s two sides, its note looked for first where `finger` (the last card's note) is:
  /// for cards rendered in order of id, whose notes come in the same order.
  package func render(_ card: Card, finger: inout Int) -> RenderedCard {
    sides(of: card, finger: &finger, building: true)
  }

  /// Why `card` would show Anki's message instead of its template (the ``RenderedCard/problem``
  /// ``render(_:)`` gives), found without building its sides: its templates are read for the
  /// fields and sections they name and its front for blankness, as rendering reads them. The
  /// size limit on a rendered side, which only a side being built can pass, is not looked for.
  /// `finger` is as in ``render(_:finger:)``.
  package func problem(of card: Card, finger: inout Int) -> RenderingProblem? {
    sides(of: card, finger: &finger, building: false).problem
  }

  /// `card`'s two sides, or, when not `building`, only whether it has a problem (its sides are
  /// then empty, or Anki's message).
  private func sides(of card: Card, finger: inout Int, building: Bool) -> RenderedCard {
    guard let position = notePositions.position(of: card.noteID, finger: &finger), case let note = notes[position],
      let parsed = noteTypes[note.noteTypeID]
    else {
      return RenderedCard(question: "", answer: "", css: "", problem: .missingNote)
    }
    let templateIndex = parsed.kind == .cloze ? 0 : card.templateOrdinal
    guard parsed.fronts.indices.contains(templateIndex) else {
      return RenderedCard(
        question: "", answer: "", css: parsed.css, problem: .missingTemplate(ordinal: card.templateOrdinal))
    }
    var rendering = TemplateRendering(
      fields: CardFields(
        positions: parsed.positions, note: note, card: card, noteTypeName: parsed.name,
        templateName: parsed.templateNames[templateIndex],
        deck: deckNames[card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID]))
    /// A side rendered, or, when not building, checked for the errors rendering it would report.
    func side(_ template: AnkiTemplate, bytes: Int) throws(TemplateRendering.Failure) -> String {
      guard building else {
        try rendering.check(template.nodes)
        return ""
      }
      return try rendering.render(template.nodes, templateBytes: bytes)
    }

    func failed(_ side: CardSide, _ message: String) -> RenderedCard {
      let text = RenderingMessages.templateError(side: side, message: message)
      return RenderedCard(
        question: text, answer: text, css: parsed.css,
        problem: .templateError(side: side, message: RenderingMessages.unmarked(message)))
    }
    let question: String
    switch parsed.fronts[templateIndex] {
    case .failure(let error): return failed(.question, RenderingMessages.describing(error))
    case .success(let template):
      do {
        question = try side(template, bytes: parsed.frontBytes[templateIndex])
      } catch {
        return failed(.question, RenderingMessages.describing(error))
      }
      if let problem = blankness(of: template, kind: parsed.kind, rendering: rendering) {
        let message = RenderingMessages.describing(problem)
        return RenderedCard(question: question + message, answer: message, css: parsed.css, problem: problem)
      }
    }
    rendering.frontSide = question
    switch parsed.backs[templateIndex] {
    case .failure(let error): return failed(.answer, RenderingMessages.describing(error))
    case .success(let template):
      do {
        let answer = try side(template, bytes: parsed.backBytes[templateIndex])
        return RenderedCard(question: question, answer: answer, css: parsed.css)
      } catch {
        return failed(.answer, RenderingMessages.describing(error))
      }
    }
  }

  /// Why the card's front counts as blank, if it does: for a cloze card, no field holds its
  /// number; otherwise, the front shows no field that is not empty.
  private func blankness(of front: AnkiTemplate, kind: NoteType.Kind, rendering: TemplateRendering)
    -> RenderingProblem?
  {
    if kind == .cloze {
      let number = rendering.fields.clozeNumber
      let found = rendering.fields.allValues.contains { ClozeNumbers.numbers(in: $0).contains(number) }
      return found ? nil : .missingCloze(number: number)
    }
    return front.showsAField(whereNonEmpty: rendering.fields.isNonEmpty) ? nil : .blankFront
  }
}
