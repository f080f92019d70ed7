import DeckCore

/// Anki's `LATEX` pattern (`rslib/src/latex.rs`),
/// `(?si)\[latex\](.+?)\[/latex\]|\[\$\](.+?)\[/\$\]|\[\$\$\](.+?)\[/\$\$\]`, applied by a scan of
/// the UTF-8 bytes in time linear in the field (a backtracking engine takes quadratic time on
/// `[latex]` repeated without a closing tag).
///
/// At each `[` the three forms are tried in the pattern's order; each body is at least one
/// scalar and ends at the first closing tag after that scalar. The searches for the closing tags
/// remember what they found (``LiteralSearch``).
enum LaTeXScan {
  /// Which of the pattern's three forms a match is.
  enum Form: Sendable {
    /// `[latex]…[/latex]`, group 1.
    case standard
    /// `[$]…[/$]`, group 2.
    case inlineMath
    /// `[$$]…[/$$]`, group 3.
    case displayMath
  }

  /// The body and form of each match in `field`, in order.
  static func bodies(in field: String) -> [(form: Form, body: String)] {
    var bytesOfField = field
    return bytesOfField.withUTF8 { bytes in
      var closings = forms.map { LiteralSearch($0.close) }
      let found = PatternScan.matches(in: bytes, startBytes: bracketStarts) { start in
        for (position, form) in forms.enumerated() {
          guard let open = form.open.end(in: bytes, at: start),
            let firstScalarEnd = PatternScan.scalarEnd(bytes, at: open),
            let close = closings[position].first(in: bytes, atOrAfter: firstScalarEnd)
          else { continue }
          let body = String(decoding: UnsafeBufferPointer(rebasing: bytes[open..<close.start]), as: UTF8.self)
          return (close.end, (form.form, body))
        }
        return nil
      }
      return found.map { $0.value }
    }
  }

  private static let bracketStarts = PatternScan.StartBytes([UInt8(ascii: "[")])

  /// The opening and closing tags of each form, in the pattern's order.
  private static let forms: [(form: Form, open: FoldedLiteral, close: FoldedLiteral)] = [
    (.standard, FoldedLiteral("[latex]"), FoldedLiteral("[/latex]")),
    (.inlineMath, FoldedLiteral("[$]"), FoldedLiteral("[/$]")),
    (.displayMath, FoldedLiteral("[$$]"), FoldedLiteral("[/$$]")),
  ]
}
