import DeckCore

/// Anki's `HTML` pattern, `(?si)(<!--.*?-->)|(<style.*?>.*?</style>)|(<script.*?>.*?</script>)|(<.*?>)`,
/// applied by a scan of the UTF-8 bytes in time linear in the text, where a backtracking engine
/// (ICU's, behind `NSRegularExpression`) takes cubic time on `<style>` repeated.
///
/// The scan finds the matches Rust's `regex` finds: at each `<` the alternatives are tried in
/// the pattern's order, each lazy `.*?` stops at the first delimiter that lets the rest match,
/// and where none matches the scan moves on. Letters compare by Unicode simple case folding
/// (``FoldedLiteral``: `<ſtyle>` opens a style block). Every delimiter ends in ASCII, so removing
/// matches never splits a character. The searches for closing delimiters remember what they
/// found (``LiteralSearch``), so an unclosed `<!--`, `<style>` or `<script>` repeated a million
/// times costs one pass, not one pass each.
enum HTMLPatternScan {
  /// `text` without the pattern's matches.
  static func removingMatches(in text: String) -> String {
    var matcher = Matcher()
    return PatternScan.removingMatches(in: text, startBytes: tagStarts) { bytes, start in
      matcher.matchEnd(in: bytes, at: start)
    }
  }

  private static let tagStarts = PatternScan.StartBytes([UInt8(ascii: "<")])

  /// The pattern's alternatives at one `<`, with the searches for their closing delimiters kept
  /// across the scan of one text.
  private struct Matcher {
    private static let commentOpen = FoldedLiteral("<!--")
    private static let styleOpen = FoldedLiteral("<style")
    private static let scriptOpen = FoldedLiteral("<script")
    private static let commentCloseLiteral = FoldedLiteral("-->")
    private static let styleCloseLiteral = FoldedLiteral("</style>")
    private static let scriptCloseLiteral = FoldedLiteral("</script>")
    private static let tagCloseLiteral = FoldedLiteral(">")
    private var commentClose = LiteralSearch(commentCloseLiteral)
    private var styleClose = LiteralSearch(styleCloseLiteral)
    private var scriptClose = LiteralSearch(scriptCloseLiteral)
    private var tagClose = LiteralSearch(tagCloseLiteral)

    /// The end of the pattern's match starting at the `<` at `start`, or nil when none starts there.
    mutating func matchEnd(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
      // Most tags open none of the blocks: `!`, an `s` (in any case, or `ſ`) must follow the `<`.
      let second = start + 1 < bytes.count ? bytes[start + 1] : 0
      guard second == UInt8(ascii: "!") || second | 0x20 == UInt8(ascii: "s") || second == 0xC5 else {
        return tagClose.first(in: bytes, atOrAfter: start + 1)?.end
      }
      if let open = Self.commentOpen.end(in: bytes, at: start),
        let close = commentClose.first(in: bytes, atOrAfter: open)
      {
        return close.end
      }
      if let open = Self.styleOpen.end(in: bytes, at: start),
        let end = Self.blockEnd(in: bytes, after: open, tagClose: &tagClose, close: &styleClose)
      {
        return end
      }
      if let open = Self.scriptOpen.end(in: bytes, at: start),
        let end = Self.blockEnd(in: bytes, after: open, tagClose: &tagClose, close: &scriptClose)
      {
        return end
      }
      return tagClose.first(in: bytes, atOrAfter: start + 1)?.end
    }

    /// The end of `.*?>.*?</style>` (or its script twin) after the opening name: the first `>`,
    /// then the first closing tag after it. A later `>` cannot help when no closing tag follows
    /// the first one.
    private static func blockEnd(
      in bytes: UnsafeBufferPointer<UInt8>, after open: Int, tagClose: inout LiteralSearch, close: inout LiteralSearch
    ) -> Int? {
      guard let tagEnd = tagClose.first(in: bytes, atOrAfter: open),
        let closing = close.first(in: bytes, atOrAfter: tagEnd.end)
      else { return nil }
      return closing.end
    }
  }
}
