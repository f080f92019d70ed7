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
    if text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "[") }) {
      text = replace(Patterns.redundantSections, in: text, with: "")
    }
    if isAnswer, text.utf8.contains(UInt8(ascii: "<")) {
      text = replace(Patterns.answerSideQuestion, in: text, with: "")
    }
    return isHTML ? text : plainTextLine(text)
  }
}

extension AnkiFieldText.Patterns {
  /// What Anki's card export leaves out of both sides: `<style>` blocks and `[[type:…]]` boxes.
  static let redundantSections = try? NSRegularExpression(
    pattern: #"<style>.*?</style>|\[\[type:[^\]]+\]\]"#, options: [.caseInsensitive, .dotMatchesLineSeparators])

  /// The question on the answer side: up to the last `<hr id=answer>`, and the line feeds after it.
  static let answerSideQuestion = try? NSRegularExpression(
    pattern: #"^.*<hr id=answer>\n*"#, options: [.caseInsensitive, .dotMatchesLineSeparators])
}
