/// Short excerpts of input for error messages: line breaks and tabs shown as `\n` and `\t`,
/// cut to a few dozen characters with `…`.
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
    var escaped = ""
    var afterCR = false
    for scalar in visible.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      switch scalar {
      case "\n" where afterCR: continue
      case "\n", "\r": escaped += "\\n"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    visible = escaped
    if visible.count > maximumLength {
      return leading + String(visible.prefix(maximumLength - 1)) + "…"
    }
    return leading + visible
  }
}
