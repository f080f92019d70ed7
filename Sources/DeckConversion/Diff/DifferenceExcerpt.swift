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

  /// How many characters before the first difference an excerpt of a change keeps.
  static let contextLength = 16

  /// The old and the new text of a change, quoted: each cut as ``quoted(_:)`` cuts it, but
  /// where one is cut and the two differ only past what that shows, both start a little before their first
  /// difference (``contextLength`` characters, after `…`), so the excerpts show it:
  /// `"…je trouve ça, vraiment <b>bien</b>…" → "…je trouve ça, vraiment bien."`.
  static func quotedChange(_ old: String, _ new: String) -> (old: String, new: String) {
    let (oldExcerpt, newExcerpt) = shortenedChange(old, new)
    return ("\"\(oldExcerpt)\"", "\"\(newExcerpt)\"")
  }

  /// ``quotedChange(_:_:)`` without quotes (for JSON text); a side without a value is `(none)`.
  static func shortenedChange(_ old: String?, _ new: String?) -> (old: String, new: String) {
    guard let old, let new else { return (old.map(shortened) ?? "(none)", new.map(shortened) ?? "(none)") }
    let (oldVisible, newVisible) = (TerminalText.escaped(old), TerminalText.escaped(new))
    let common = zip(oldVisible, newVisible).prefix { $0 == $1 }.count
    // Only where an excerpt is cut, and cut before the difference.
    let isCut = oldVisible.count > maximumLength || newVisible.count > maximumLength
    guard isCut, common >= maximumLength - 1 - contextLength else { return (shortened(old), shortened(new)) }
    func excerpt(_ visible: String) -> String {
      let rest = visible.dropFirst(common - contextLength)
      guard rest.count > maximumLength - 1 else { return "…\(rest)" }
      return "…\(rest.prefix(maximumLength - 2))…"
    }
    return (excerpt(oldVisible), excerpt(newVisible))
  }
}
