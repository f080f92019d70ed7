import DeckAnki
import DeckCore

/// What each card of a deck shows, as Anki renders it (``CardRenderer``): `deckport render`.
///
/// ```swift
/// let deck = try DeckLoader().load(path: "French.apkg")
/// for card in CardPreview(deck).cards where card.problem == nil {
///   print(card.question)
/// }
/// ```
public struct CardPreview: DeckPartReport, Sendable, Equatable, Codable {
  /// One card's two sides and where it lives.
  public struct Entry: Sendable, Equatable, Codable {
    /// The card's id.
    public var id: Int64
    /// Its note's GUID.
    public var note: String
    /// Its note type's name, as Anki shows it (`{{Type}}`): of two note types of one name, Anki
    /// renames one when it opens the file (see ``CardRenderer/init(_:)``); ``noteTypeID`` tells
    /// them apart.
    public var noteType: String
    /// Its note type's id, which finds its ``Styling``; nil when its note or note type is missing.
    public var noteTypeID: Int64?
    /// Its template's name (for a cloze card, the note type's one template).
    public var template: String
    /// Its deck (the home deck of a card a filtered deck borrows), named as Anki shows it and
    /// `{{Deck}}` names it: as Anki stores the name (` A :: B ` is `A::B`), and, of two decks of
    /// one name, one renamed as Anki renames it when it opens the file (see
    /// ``CardRenderer/init(_:)``).
    public var deck: String
    /// The front, as HTML.
    public var question: String
    /// The back, as HTML.
    public var answer: String
    /// Why the card shows Anki's message instead of its template, when it does.
    public var problem: RenderingProblem?

    /// The JSON keys: `noteTypeId`, as the deck format spells ids (`ankiId`).
    private enum CodingKeys: String, CodingKey {
      case id, note, noteType
      case noteTypeID = "noteTypeId"
      case template, deck, question, answer, problem
    }
  }

  /// A note type's styling, which its cards' sides assume.
  public struct Styling: Sendable, Equatable, Codable {
    /// The note type's id, which the cards of the note type name (``Entry/noteTypeID``).
    public var noteTypeID: Int64
    /// The note type's name, as a card's ``Entry/noteType`` names it.
    public var noteType: String
    /// Its CSS.
    public var css: String

    /// The JSON keys: `noteTypeId`, as in a card's entry.
    private enum CodingKeys: String, CodingKey {
      case noteTypeID = "noteTypeId"
      case noteType, css
    }
  }

  /// The input's exact format.
  public var format: String
  /// The cards, by id.
  public var cards: [Entry]
  /// The styling of each note type the cards use, one entry a note type (two may share a
  /// name), by name and then id.
  public var styling: [Styling]
  /// With `onlyDecks` or `onlyTags`: the decks and tags whose cards these are.
  public var selection: DeckSelection?
  /// The decks and note types shown renamed because another has their name (not in the JSON:
  /// its warnings name them).
  private var renamed: [AnkiShownNames.Renamed] = []

  /// The JSON keys: every property but the renamed names, which the warnings give.
  private enum CodingKeys: String, CodingKey {
    case format, cards, styling, selection
  }

  /// Every card of `deck`, rendered.
  public init(_ deck: LoadedDeck) {
    let collection = deck.collection
    let names = AnkiShownNames(collection)
    let renderer = CardRenderer(collection, names: names)
    let notePositions = IDPositions(collection.notes.map(\.id))
    var noteTypes: [Int64: NoteType] = [:]
    for noteType in collection.noteTypes { noteTypes[noteType.id] = noteType }
    var styled: [Int64: NoteType] = [:]
    renamed = names.renamed
    format = deck.formatName
    cards = collection.cards.sorted { $0.id < $1.id }.map { card in
      let rendered = renderer.render(card)
      let note = notePositions.position(of: card.noteID).map { collection.notes[$0] }
      let noteType = note.flatMap { noteTypes[$0.noteTypeID] }
      if let noteType { styled[noteType.id] = noteType }
      let homeDeck = card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
      let templates = noteType?.templates ?? []
      let templateIndex = noteType?.kind == .cloze ? 0 : card.templateOrdinal
      return Entry(
        id: card.id, note: note?.guid ?? "", noteType: noteType.flatMap { names.noteTypes[$0.id] } ?? "",
        noteTypeID: noteType?.id,
        template: templates.indices.contains(templateIndex) ? templates[templateIndex].name : "",
        deck: names.decks[homeDeck]?.name ?? "(missing deck \(homeDeck))",
        question: rendered.question, answer: rendered.answer, problem: rendered.problem)
    }
    styling = styled.values.map { Styling(noteTypeID: $0.id, noteType: names.noteTypes[$0.id] ?? $0.name, css: $0.css) }
      .sorted { ($0.noteType, $0.noteTypeID) < ($1.noteType, $1.noteTypeID) }
  }

  /// A warning for each deck and note type shown renamed because another has its name (Anki
  /// renames one of the two, but which one differs from one opening to the next), then for each
  /// card that shows Anki's message instead of its template, naming the card, its note type and
  /// template, and why.
  public func warnings(at location: SourceLocation) -> [Diagnostic] {
    AnkiShownNames.warnings(for: renamed, at: location)
      + cards.compactMap { card in
        card.problem.map { problem in
          Diagnostic(
            .cardRendering, at: location,
            "card \(card.id) (note type \(card.noteType), template \(card.template)) shows Anki's message instead: \(problem)"
          )
        }
      }
  }

  /// The preview as one JSON object (keys sorted); control and bidirectional characters in its
  /// strings are JSON escapes (``TerminalText/escapedJSON(_:)``), safe to print on a terminal.
  public func jsonText() throws -> String { try ReportJSON.text(self) }

  /// The preview as text: for each card a heading line, then its front and its back, each
  /// line to be escaped with ``TerminalText/escaped(_:)`` before it reaches a terminal.
  public var lines: [String] {
    var lines: [String] = []
    if let selection { lines.append(selection.line) }
    for card in cards {
      lines.append("Card \(card.id) · \(card.noteType) · \(card.template) · \(card.deck)")
      if let problem = card.problem { lines.append("  Problem: \(problem)") }
      lines.append("  Front:")
      lines += card.question.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
      lines.append("  Back:")
      lines += card.answer.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
    }
    return lines
  }
}
