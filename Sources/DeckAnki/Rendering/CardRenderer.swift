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
  /// Each deck's name and its last component as Anki stores them (`{{Deck}}` and `{{Subdeck}}`).
  private let deckNames: [Int64: (name: String, last: String)]

  /// A note type with its templates parsed once.
  private struct ParsedNoteType: Sendable {
    let noteType: NoteType
    let fronts: [Result<AnkiTemplate, AnkiTemplate.SyntaxError>]
    let backs: [Result<AnkiTemplate, AnkiTemplate.SyntaxError>]
    /// The position of each field name (the first field of a name, names compared exactly).
    let positions: FieldPositions
  }

  /// A renderer for the cards of `collection`; its templates are parsed once, here.
  public init(_ collection: DeckCollection) {
    notes = collection.notes
    notePositions = IDPositions(collection.notes.map(\.id))
    var noteTypes: [Int64: ParsedNoteType] = [:]
    for noteType in collection.noteTypes {
      func parse(_ text: String) -> Result<AnkiTemplate, AnkiTemplate.SyntaxError> {
        Result { () throws(AnkiTemplate.SyntaxError) in try AnkiTemplate(parsing: text) }
      }
      noteTypes[noteType.id] = ParsedNoteType(
        noteType: noteType, fronts: noteType.templates.map { parse($0.questionFormat) },
        backs: noteType.templates.map { parse($0.answerFormat) }, positions: noteType.fieldPositions)
    }
    self.noteTypes = noteTypes
    var deckNames: [Int64: (name: String, last: String)] = [:]
    for deck in collection.decks {
      // The name Anki stores, and shows, for a name a file holds (` A :: B ` is `A::B`, an empty
      // level is `blank`); a name Anki would rename for being taken is left as it is.
      let levels = Deck.storedLevels(of: deck.name)
      deckNames[deck.id] = (levels.joined(separator: Deck.levelSeparator), levels.last ?? "")
    }
    self.deckNames = deckNames
  }

  /// `card`'s two sides.
  public func render(_ card: Card) -> RenderedCard {
    var finger = 0
    return render(card, finger: &finger)
  }

  /// `card`'s two sides, its note looked for first where `finger` (the last card's note) is:
  /// for cards rendered in order of id, whose notes come in the same order.
  package func render(_ card: Card, finger: inout Int) -> RenderedCard {
    guard let position = notePositions.position(of: card.noteID, finger: &finger), case let note = notes[position],
      let parsed = noteTypes[note.noteTypeID]
    else {
      return RenderedCard(question: "", answer: "", css: "", problem: .missingNote)
    }
    let noteType = parsed.noteType
    let templateIndex = noteType.kind == .cloze ? 0 : card.templateOrdinal
    guard parsed.fronts.indices.contains(templateIndex) else {
      return RenderedCard(
        question: "", answer: "", css: noteType.css, problem: .missingTemplate(ordinal: card.templateOrdinal))
    }
    var rendering = TemplateRendering(
      fields: CardFields(
        positions: parsed.positions, note: note, card: card, noteTypeName: noteType.name,
        templateName: noteType.templates[templateIndex].name,
        deck: deckNames[card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID]))

    func failed(_ side: CardSide, _ message: String) -> RenderedCard {
      let text = RenderingMessages.templateError(side: side, message: message)
      return RenderedCard(
        question: text, answer: text, css: noteType.css,
        problem: .templateError(side: side, message: RenderingMessages.unmarked(message)))
    }
    let question: String
    switch parsed.fronts[templateIndex] {
    case .failure(let error): return failed(.question, RenderingMessages.describing(error))
    case .success(let template):
      do {
        question = try rendering.render(
          template.nodes, templateBytes: noteType.templates[templateIndex].questionFormat.utf8.count)
      } catch {
        return failed(.question, RenderingMessages.describing(error))
      }
      if let problem = blankness(of: template, noteType: noteType, rendering: rendering) {
        let message = RenderingMessages.describing(problem)
        return RenderedCard(question: question + message, answer: message, css: noteType.css, problem: problem)
      }
    }
    rendering.frontSide = question
    switch parsed.backs[templateIndex] {
    case .failure(let error): return failed(.answer, RenderingMessages.describing(error))
    case .success(let template):
      do {
        let answer = try rendering.render(
          template.nodes, templateBytes: noteType.templates[templateIndex].answerFormat.utf8.count)
        return RenderedCard(question: question, answer: answer, css: noteType.css)
      } catch {
        return failed(.answer, RenderingMessages.describing(error))
      }
    }
  }

  /// Why the card's front counts as blank, if it does: for a cloze card, no field holds its
  /// number; otherwise, the front shows no field that is not empty.
  private func blankness(of front: AnkiTemplate, noteType: NoteType, rendering: TemplateRendering)
    -> RenderingProblem?
  {
    if noteType.kind == .cloze {
      let number = rendering.fields.clozeNumber
      let found = rendering.fields.allValues.contains { ClozeNumbers.numbers(in: $0).contains(number) }
      return found ? nil : .missingCloze(number: number)
    }
    return front.showsAField(whereNonEmpty: rendering.fields.isNonEmpty) ? nil : .blankFront
  }
}
