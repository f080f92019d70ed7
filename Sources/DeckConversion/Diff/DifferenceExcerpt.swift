import DeckCore

/// Field texts and other values as the text of a difference shows them: quoted, control and
/// bidirectional characters shown as ``TerminalText`` shows them (a line break as `\n`), and
/// cut to a few dozen characters with `…`.
enum DifferenceExcerpt {
  /// The longest excerpt, in characters, quotes not counted.
  static let maximumLength = 48

  /// `text` made visible, shortened and in double quotes.
  static func quoted(_ text: String) -> String {
    "\"\(shortened(text))\""
  }

  /// `text` made visible and shortened, without quotes (for JSON text, which quotes its own
  /// strings).
  static func shortened(_ text: String) -> String {
    let visible = TerminalText.escaped(text)
    guard visible.count > maximumLength else { return visible }
    return "\(visible.prefix(maximumLength - 1))…"
  }
}
