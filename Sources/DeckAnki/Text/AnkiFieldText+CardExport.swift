import Foundation

extension AnkiFieldText {
  /// A rendered side of a card as Anki's "Cards in Plain Text" export writes it: `<style>`
  /// blocks and type-in-the-answer boxes (`[[type:…]]`) removed; on the answer side, everything
  /// up to the last `<hr id=answer>` and the line feeds after it (the question again) removed;
  /// with `isHTML` off, then made one line of plain text as the export makes it
  /// (a side in which that line replaces nothing is kept as it is, white space at its ends
  /// included, as Anki's export keeps it).
  ///
  /// ```swift
  /// AnkiFieldText.cardExportSide("Q\n\n<hr id=answer>\n\n<b>A</b>", isAnswer: true, isHTML: false)  // "A"
  /// ```
  public static func cardExportSide(_ html: String, isAnswer: Bool, isHTML: Bool) -> String {
    var text = BracketTagScan.removingRedundantSections(in: html)
    if isAnswer { text = BracketTagScan.removingAnswerSideQuestion(from: text) }
    return isHTML ? text : plainTextExport(text)
  }

  /// ``cardExportSide(_:isAnswer:isHTML:)`` done with Anki's regular expressions (the byte scans
  /// it uses instead are checked against this).
  static func cardExportSideWithPatterns(_ html: String, isAnswer: Bool, isHTML: Bool) -> String {
    var text = replace(Patterns.redundantSections, in: html, with: "")
    if isAnswer { text = replace(Patterns.answerSideQuestion, in: text, with: "") }
    return isHTML ? text : exported(text, asLine: untrimmedPlainTextLineWithPatterns(text))
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
