import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// The byte scans against Anki's patterns run by `NSRegularExpression`, on random strings over
/// alphabets rich in each pattern's delimiters. The alphabets leave out what ICU reads unlike
/// Rust's `regex` (a carriage return, which ICU's `.` refuses; `ﬆ`, which ICU's case folding
/// takes for `st`): `TextPatternCaseTests` holds the backend's word on those.
@Suite("Byte scans against Anki's patterns")
struct PatternScanTests {
  /// `count` random strings of up to `length` pieces.
  static func randomTexts(_ pieces: [String], seed: UInt64, count: Int = 4000, length: Int = 14) -> [String] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let pieceCount = Int(generator.next() % UInt64(length))
      return (0..<pieceCount).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }
  }

  @Test func cardExportSameAsPatterns() {
    let pieces = [
      "<style>", "<STYLE>", "<ſtyle>", "</style>", "</ſtyle>", "<style", "[[type:", "[[TYPE:", "]", "]]", "[", "x",
      "<hr id=answer>", "<HR ID=ANſWER>", "<hr id=answer", "\n", " ", "<b>", "é",
    ]
    for text in Self.randomTexts(pieces, seed: 0xCA_4D) {
      for isAnswer in [false, true] {
        #expect(
          AnkiFieldText.cardExportSide(text, isAnswer: isAnswer, isHTML: true)
            == AnkiFieldText.cardExportSideWithPatterns(text, isAnswer: isAnswer, isHTML: true),
          "\(text.debugDescription)")
      }
    }
  }

  @Test func laTeXSameAsPattern() {
    let pieces = [
      "[latex]", "[LaTeX]", "[/latex]", "[/LATEX]", "[$]", "[/$]", "[$$]", "[/$$]", "[", "]", "$", "x", "é", "\n",
      "[latex", "/",
    ]
    for text in Self.randomTexts(pieces, seed: 0x1A_7E) {
      #expect(
        LaTeXScan.bodies(in: text).map(\.body) == MediaReferences.latexBodiesWithPattern(in: text),
        "\(text.debugDescription)")
    }
  }

  @Test func cssSameAsPattern() {
    let pieces = [
      "@import", "@IMPORT", " ", "\t", "\n", "\"", "'", "_", "_a", ".css", ".CſS", "css", "url(", "URL(", ")", "(",
      "x", "é", "\u{A0}", "\u{2003}",
    ]
    for text in Self.randomTexts(pieces, seed: 0xC5_5) {
      #expect(
        MediaReferences.underscoredFileNames(inCSS: text)
          == MediaReferences.underscoredFileNamesWithPattern(inCSS: text),
        "\(text.debugDescription)")
    }
  }

  @Test func templateSameAsPattern() {
    let pieces = [
      "[sound:", "[sound:_", "]", "\"", "'", "_", "_a", "src=", "data=", "src=_", "x", "é", " ", ">", "\n", "-",
    ]
    for text in Self.randomTexts(pieces, seed: 0x7E_3) {
      #expect(
        MediaReferences.underscoredFileNames(inTemplate: text)
          == MediaReferences.underscoredFileNamesWithPattern(inTemplate: text),
        "\(text.debugDescription)")
    }
  }

  @Test func textLineSameAsPatterns() {
    let pieces = ["[[type:", "[sound:", "]", "]]", "[", "x", " ", "a.mp3", "é", "<b>"]
    for text in Self.randomTexts(pieces, seed: 0x7_1E) {
      #expect(
        AnkiFieldText.plainTextLine(text) == AnkiFieldText.plainTextLineWithPatterns(text), "\(text.debugDescription)")
    }
  }

  @Test func literalSearchAnswersEarlierQuestions() {
    var text = "a>b>c"
    text.withUTF8 { bytes in
      var search = LiteralSearch(FoldedLiteral(">"))
      #expect(search.first(in: bytes, atOrAfter: 2)?.start == 3)
      #expect(search.first(in: bytes, atOrAfter: 0)?.start == 1)
      #expect(search.first(in: bytes, atOrAfter: 2)?.start == 3)
      #expect(search.first(in: bytes, atOrAfter: 4) == nil)
      #expect(search.first(in: bytes, atOrAfter: 3)?.start == 3)
    }
  }
}
