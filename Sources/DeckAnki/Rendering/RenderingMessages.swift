import DeckCore

/// The messages Anki's backend shows in place of a card it cannot render, in its English words,
/// so that a rendered card reads as it does in Anki. Anki wraps each value it puts into a message
/// in Unicode isolation marks (U+2068 … U+2069), and so do these.
enum RenderingMessages {
  private static let moreInformation = "More information"
  private static let syntaxErrorLink = "https://docs.ankiweb.net/templates/errors.html#template-syntax-error"
  private static let blankFrontLink = "https://docs.ankiweb.net/templates/errors.html#front-of-card-is-blank"
  private static let missingClozeLink =
    "https://docs.ankiweb.net/templates/errors.html#no-cloze-filter-on-cloze-note-type"

  /// `value` between isolation marks, as Anki's messages hold their values.
  private static func isolated(_ value: some StringProtocol) -> String { "\u{2068}\(value)\u{2069}" }

  /// `message` without isolation marks, for a warning.
  static func unmarked(_ message: String) -> String {
    String(message.unicodeScalars.filter { $0 != "\u{2068}" && $0 != "\u{2069}" })
  }

  /// The HTML Anki shows on both sides of a card whose `side` template has a problem.
  static func templateError(side: CardSide, message: String) -> String {
    let header = side == .question ? "Front template has a problem:" : "Back template has a problem:"
    return "\(header)<br>\(HTMLEntities.escaping(message, quotes: true, breaksLines: false))<br>"
      + "<a href='\(syntaxErrorLink)'>\(moreInformation)</a>"
  }

  /// The HTML Anki shows for a card whose front is blank or whose cloze is missing.
  static func describing(_ problem: RenderingProblem) -> String {
    switch problem {
    case .missingCloze(let number):
      "<div>No cloze \(isolated(String(number))) found on card.\n"
        + "Please either add a cloze deletion, or use the Empty Cards tool.<br>"
        + "<a href='\(missingClozeLink)'>\(moreInformation)</a></div>"
    default:
      "<div>The front of this card is blank.<br><a href='\(blankFrontLink)'>\(moreInformation)</a></div>"
    }
  }

  /// Anki's words for a template that does not parse.
  static func describing(_ error: AnkiTemplate.SyntaxError) -> String {
    switch error {
    case .sectionNotClosed(let key): "Missing '\(isolated("{{/\(key)}}"))'"
    case .sectionNotOpen(let closed, let open?):
      "Found '\(isolated("{{/\(closed)}}"))', but expected '\(isolated("{{/\(open)}}"))'"
    case .sectionsTooDeep(let key):
      "Found '\(isolated("{{#\(key)}}"))' inside \(AnkiTemplate.maximumSectionDepth) sections, more than deckport renders"
    case .sectionNotOpen(let closed, nil):
      "Found '\(isolated("{{/\(closed)}}"))', but missing '\(isolated("{{#\(closed)}}"))' or "
        + "'\(isolated("{{^\(closed)}}"))'"
    }
  }

  /// Anki's words for a template that names a field the note type does not have; deckport's
  /// for a side larger than it renders.
  static func describing(_ failure: TemplateRendering.Failure) -> String {
    switch failure {
    case .fieldNotFound(let field, let written), .noSuchSection(let field, let written):
      "Found '\(isolated("{{\(written)}}"))', but there is no field called '\(isolated(field))'"
    case .tooLarge(let limit):
      "The side would be larger than \(isolated(String(limit))) bytes (its template copies in its fields more times than deckport renders)"
    }
  }
}
