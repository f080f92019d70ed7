import Foundation

extension AnkiFieldText {
  /// A rendered side of a card as Anki's "Cards in Plain Text" export writes it: `<style>`
  /// blocks and type-in-the-answer boxes (`[[type:…]]`) removed; on the answer side, everything
  /// up to the last `<hr id=answer>` and the line feeds after it (the question again) removed;
  /// with `isHTML` off, then made one line of plain text (``plainTextLine(_:)``).
  ///
  /// ```swift
  /// AnkiFieldText.cardExportSide("Q\n\n<hr id=answer>\n\n<b>A</b>", isAnswer: true, isHTML: false)  // "A"
  /// ```
  public static func cardExportSide(_ html: String, isAnswer: Bool, isHTML: Bool) -> String {
    var text = html
    let found = CardExportScan(text)
    // Anki's patterns ignore case the Unicode way, where a long s (ſ) is an s: a side holding one
    // is left to them. Otherwise the first pattern runs only where what it starts with is found
    // (most sides hold neither a style block nor a type-in box), and a scan stands in for the
    // second.
    if found.holdsLongS || found.holdsStyle || found.holdsTypeBox {
      text = replace(Patterns.redundantSections, in: text, with: "")
    }
    if isAnswer {
      if found.holdsLongS || found.holdsStyle || found.holdsTypeBox {
        text = replace(Patterns.answerSideQuestion, in: text, with: "")
      } else if let end = found.endOfLastAnswerRule {
        var start = end
        let utf8 = text.utf8
        while start < utf8.endIndex, utf8[start] == 0x0A { start = utf8.index(after: start) }
        text = String(text[start...])
      }
    }
    return isHTML ? text : plainTextLine(text)
  }

}

extension AnkiFieldText.Patterns {
  /// What Anki's card export leaves out of both sides: `<style>` blocks and `[[type:…]]` boxes.
  static let redundantSections = try? NSRegularExpression(
    pattern: #"<style>.*?</style>|\[\[type:[^\]]+\]\]"#, options: [.caseInsensitive, .dotMatchesLineSeparators])

  /// The question on the answer side: up to the last `<hr id=answer>`, and the line feeds after it
  /// (``CardExportScan`` stands in for it on most sides).
  static let answerSideQuestion = try? NSRegularExpression(
    pattern: #"^.*<hr id=answer>\n*"#, options: [.caseInsensitive, .dotMatchesLineSeparators])
}

/// One pass over a rendered side's bytes for what Anki's card export removes: a `<style>` tag, a
/// `[[type:` box, a long s (which Unicode case folding makes an s), and where the last
/// `<hr id=answer>` ends (ASCII letters compared without case).
struct CardExportScan {
  private(set) var holdsStyle = false
  private(set) var holdsTypeBox = false
  private(set) var holdsLongS = false
  private(set) var endOfLastAnswerRule: String.Index?

  private static let style = Array("<style>".utf8)
  private static let answerRule = Array("<hr id=answer>".utf8)
  private static let typeBox = Array("[[type:".utf8)

  init(_ text: String) {
    let utf8 = text.utf8
    var answerRuleEnd: Int?
    let scanned: Void? = utf8.withContiguousStorageIfAvailable { bytes in
      var index = 0
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "<"):
          if Self.matches(Self.style, bytes, at: index, ignoringCase: true) { holdsStyle = true }
          if Self.matches(Self.answerRule, bytes, at: index, ignoringCase: true) {
            answerRuleEnd = index + Self.answerRule.count
          }
        case UInt8(ascii: "["):
          if Self.matches(Self.typeBox, bytes, at: index, ignoringCase: false) { holdsTypeBox = true }
        case 0xC5:
          if index + 1 < bytes.count, bytes[index + 1] == 0xBF { holdsLongS = true }
        default: break
        }
        index += 1
      }
    }
    if scanned == nil {
      // Not contiguous (a bridged string): the patterns decide.
      holdsStyle = true
      return
    }
    endOfLastAnswerRule = answerRuleEnd.map { utf8.index(utf8.startIndex, offsetBy: $0) }
  }

  private static func matches(
    _ pattern: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, ignoringCase: Bool
  ) -> Bool {
    guard bytes.count - index >= pattern.count else { return false }
    for offset in pattern.indices {
      var byte = bytes[index + offset]
      if ignoringCase, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
      if byte != pattern[offset] { return false }
    }
    return true
  }
}
