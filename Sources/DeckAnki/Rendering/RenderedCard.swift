import DeckCore

/// A card's two sides as Anki renders them for review: HTML built from the note's fields by the
/// card's template, with the note type's styling beside it.
///
/// Sound and text-to-speech tags are left in the text as the note holds them
/// (`[sound:beep.wav]`, `[anki:tts lang=…]…[/anki:tts]`), and a type-in-the-answer field as
/// `[[type:Field]]`: a player of its own decides how to show them (Anki's reviewer turns them
/// into play buttons and an input box).
public struct RenderedCard: Sendable, Equatable, Codable {
  /// The front.
  public var question: String
  /// The back: usually the front again (through `{{FrontSide}}`), `<hr id=answer>` and the answer.
  public var answer: String
  /// The note type's CSS, which both sides assume (their root element has class `card`).
  public var css: String
  /// Why the card does not show what its template asks for, when it does not: Anki's own
  /// message is then the card's text on both sides.
  public var problem: RenderingProblem?

  /// A rendered card.
  public init(question: String, answer: String, css: String, problem: RenderingProblem? = nil) {
    self.question = question
    self.answer = answer
    self.css = css
    self.problem = problem
  }
}

/// Why Anki cannot show a card as its template asks, and shows a message instead.
///
/// In JSON: `{"kind": "blank-front" | "missing-cloze" | "template-error" | "missing-template" |
/// "missing-note", "message": …}`, with `number` (missing cloze),
/// `side` and Anki's `error` (template error), or `ordinal` (missing template).
public enum RenderingProblem: Sendable, Equatable, Codable, CustomStringConvertible {
  /// The front shows none of the note's fields ("The front of this card is blank.").
  case blankFront
  /// A cloze card whose number no field holds ("No cloze 2 found on card.").
  case missingCloze(number: Int)
  /// The template cannot be rendered: a section not closed, a field that does not exist. The
  /// message is Anki's, in plain text.
  case templateError(side: CardSide, message: String)
  /// The card's template ordinal has no template in its note type.
  case missingTemplate(ordinal: Int)
  /// The card's note, or the note's note type, is not in the collection.
  case missingNote

  /// The problem in words.
  public var description: String {
    switch self {
    case .blankFront: "the front of the card is blank"
    // The number is the card's ordinal + 1, which wraps for the largest ordinal
    // (`CardFields.clozeNumber`): written from the ordinal, it reads as people count.
    case .missingCloze(let number): "no cloze \(CountedPosition.text(ofIndex: number &- 1)) is found on the card"
    case .templateError(let side, let message):
      "its \(side == .question ? "front" : "back") template has a problem: \(message)"
    case .missingTemplate(let ordinal): "its note type has no template of ordinal \(ordinal)"
    case .missingNote: "its note or note type is missing"
    }
  }

  private enum Key: String, CodingKey { case kind, message, number, side, error, ordinal }

  /// The problem as JSON (see above).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(description, forKey: .message)
    switch self {
    case .blankFront: try container.encode("blank-front", forKey: .kind)
    case .missingCloze(let number):
      try container.encode("missing-cloze", forKey: .kind)
      try container.encode(number, forKey: .number)
    case .templateError(let side, let error):
      try container.encode("template-error", forKey: .kind)
      try container.encode(side, forKey: .side)
      try container.encode(error, forKey: .error)
    case .missingTemplate(let ordinal):
      try container.encode("missing-template", forKey: .kind)
      try container.encode(ordinal, forKey: .ordinal)
    case .missingNote: try container.encode("missing-note", forKey: .kind)
    }
  }

  /// Reads the JSON ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "blank-front": self = .blankFront
    case "missing-cloze": self = .missingCloze(number: try container.decode(Int.self, forKey: .number))
    case "template-error":
      self = .templateError(
        side: try container.decode(CardSide.self, forKey: .side),
        message: try container.decode(String.self, forKey: .error))
    case "missing-template": self = .missingTemplate(ordinal: try container.decode(Int.self, forKey: .ordinal))
    case "missing-note": self = .missingNote
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "unknown problem kind '\(kind)'")
    }
  }
}

/// A side of a card.
public enum CardSide: String, Sendable, Equatable, Codable {
  /// The front, shown first.
  case question
  /// The back, shown after the answer is revealed.
  case answer
}
