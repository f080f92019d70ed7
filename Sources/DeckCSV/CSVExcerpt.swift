import DeckCore
import Foundation

/// Short excerpts of input for error messages: line breaks (CR, LF or CRLF) shown as `\n`, other
/// control and bidirectional characters as ``TerminalText`` shows them, cut to a few dozen
/// characters with `…`.
enum CSVExcerpt {
  /// The longest excerpt, in characters.
  static let maximumLength = 32

  /// `text` made visible and cut to ``maximumLength`` characters; when `keepingStart` is given
  /// (a byte offset), the excerpt starts a few characters before that offset.
  static func shortened(_ text: String, keepingStart offset: Int? = nil) -> String {
    var visible = text
    var leading = ""
    if let offset, offset > 12 {
      let utf8 = Array(text.utf8)
      var cut = offset - 12
      while cut < utf8.count, utf8[cut] & 0xC0 == 0x80 { cut += 1 }
      visible = String(decoding: utf8[cut...], as: UTF8.self)
      leading = "…"
    }
    // A line break in the file, whichever its form, reads `\n`; the rest as on a terminal.
    visible = TerminalText.escaped(
      visible.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
    if visible.count > maximumLength {
      return leading + String(visible.prefix(maximumLength - 1)) + "…"
    }
    return leading + visible
  }
}
