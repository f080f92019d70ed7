import DeckCore

/// Anki's patterns for the bracketed tags of a field or a rendered card, applied by a scan of the
/// UTF-8 bytes in time linear in the text (a backtracking engine takes quadratic time on
/// `[[type:` or `[sound:` repeated without a `]`):
///
/// - `TYPE_TAG`, `\[\[type:[^]]+\]\]`, a type-in-the-answer box;
/// - `SOUND_TAG`, `\[sound:([^]]+)\]`;
/// - the card export's `strip_redundant_sections`, `(?is)<style>.*?</style>|\[\[type:[^]]+\]\]`;
/// - the card export's `strip_answer_side_question`, `(?is)^.*<hr id=answer>\n*`.
enum BracketTagScan {
  /// `text` without its `[[type:…]]` boxes (`[type:` matched exactly, as in `TYPE_TAG`).
  static func removingTypeAnswerTags(in text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "[")) else { return text }
    var closing = LiteralSearch(closeBracket)
    return PatternScan.removingMatches(in: text, startBytes: bracketStarts) { bytes, start in
      typeBoxEnd(bytes, at: start, open: typeBoxOpen, closing: &closing)
    }
  }

  /// `text` without its `[sound:…]` tags.
  static func removingSoundTags(in text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "[")) else { return text }
    var closing = LiteralSearch(closeBracket)
    return PatternScan.removingMatches(in: text, startBytes: bracketStarts) { bytes, start in
      guard let open = soundOpen.end(in: bytes, at: start),
        let close = closing.first(in: bytes, atOrAfter: open), close.start > open
      else { return nil }
      return close.end
    }
  }

  /// `text` without its `<style>…</style>` blocks and `[[type:…]]` boxes, letters compared by
  /// Unicode simple case folding (Anki's `strip_redundant_sections`).
  static func removingRedundantSections(in text: String) -> String {
    var styleClose = LiteralSearch(FoldedLiteral("</style>"))
    var bracketClose = LiteralSearch(closeBracket)
    return PatternScan.removingMatches(in: text, startBytes: sectionStarts) { bytes, start in
      if bytes[start] == UInt8(ascii: "[") {
        return typeBoxEnd(bytes, at: start, open: foldedTypeBoxOpen, closing: &bracketClose)
      }
      guard let open = styleOpen.end(in: bytes, at: start) else { return nil }
      return styleClose.first(in: bytes, atOrAfter: open)?.end
    }
  }

  /// `text` after its last `<hr id=answer>` (letters compared by Unicode simple case folding) and
  /// the line feeds right after it; `text` itself when it has none (Anki's
  /// `strip_answer_side_question`).
  static func removingAnswerSideQuestion(from text: String) -> String {
    var bytesOfText = text
    let questionEnd = bytesOfText.withUTF8 { bytes -> Int? in
      var lastRuleEnd: Int?
      for index in bytes.indices where bytes[index] == UInt8(ascii: "<") {
        if let end = answerRule.end(in: bytes, at: index) { lastRuleEnd = end }
      }
      guard var end = lastRuleEnd else { return nil }
      while end < bytes.count, bytes[end] == UInt8(ascii: "\n") { end += 1 }
      return end
    }
    guard let questionEnd else { return text }
    let utf8 = text.utf8
    return String(text[utf8.index(utf8.startIndex, offsetBy: questionEnd)...])
  }

  /// The end of `\[\[type:[^]]+\]\]` at `start`: the first `]` after the opening, which must
  /// not be right after it and must be followed by another.
  private static func typeBoxEnd(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, open: FoldedLiteral, closing: inout LiteralSearch
  ) -> Int? {
    guard let open = open.end(in: bytes, at: start),
      let close = closing.first(in: bytes, atOrAfter: open), close.start > open,
      close.end < bytes.count, bytes[close.end] == UInt8(ascii: "]")
    else { return nil }
    return close.end + 1
  }

  private static let bracketStarts = PatternScan.StartBytes([UInt8(ascii: "[")])
  private static let sectionStarts = PatternScan.StartBytes([UInt8(ascii: "<"), UInt8(ascii: "[")])
  private static let closeBracket = FoldedLiteral("]")
  private static let typeBoxOpen = FoldedLiteral("[[type:", ignoringCase: false)
  private static let foldedTypeBoxOpen = FoldedLiteral("[[type:")
  private static let soundOpen = FoldedLiteral("[sound:", ignoringCase: false)
  private static let styleOpen = FoldedLiteral("<style>")
  private static let answerRule = FoldedLiteral("<hr id=answer>")
}
