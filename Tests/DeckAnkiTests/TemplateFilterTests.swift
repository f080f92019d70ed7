import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// Anki's built-in template filters (all but cloze) against what the real backend rendered for
/// each case of `fixtures/rendering/filter_cases.json` (`fixtures/rendering/make_filter_cases.py`).
@Suite("Template filters: the real Anki backend's output")
struct TemplateFilterTests {
  /// One case of the fixture: a filter, a field and its text, and the backend's output.
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    /// Anki's name of the filter: `furigana`, `kana`, `kanji`, `hint`, `type`, `type-cloze`,
    /// `type-nc`, `tts` or `text`.
    let filter: String
    /// What follows `tts ` in a `tts` filter's name.
    let options: String?
    /// The field's name.
    let field: String
    /// The answer template the backend rendered.
    let template: String
    /// The field's text.
    let input: String
    /// The backend's output.
    let expected: String

    var testDescription: String {
      let shown = input.count > 60 ? "\(input.prefix(60))… (\(input.utf8.count) bytes)" : input
      return "\(template) on \(shown.debugDescription)"
    }
  }

  /// The fixture's cases; empty if it cannot be read, which ``fixtureIsComplete()`` reports.
  static let cases: [Case] = BackendCases.load("rendering/filter_cases.json")

  /// What deckport's filter of the case's name makes of the case's field.
  static func output(of testCase: Case) -> String? {
    switch testCase.filter {
    case "furigana": TemplateFilters.furigana(testCase.input)
    case "kana": TemplateFilters.kana(testCase.input)
    case "kanji": TemplateFilters.kanji(testCase.input)
    case "hint": TemplateFilters.hint(testCase.input, fieldName: testCase.field)
    case "type": TemplateFilters.typeAnswer(fieldName: testCase.field)
    case "type-cloze": TemplateFilters.typeAnswerCloze(fieldName: testCase.field)
    case "type-nc": TemplateFilters.typeAnswerNoCombining(fieldName: testCase.field)
    case "tts": TemplateFilters.tts(options: testCase.options ?? "", text: testCase.input)
    case "text": AnkiFieldText.strippingHTML(testCase.input)
    default: nil
    }
  }

  @Test(arguments: cases)
  func sameAsBackend(_ testCase: Case) {
    #expect(Self.output(of: testCase) == testCase.expected)
  }

  @Test func fixtureIsComplete() {
    #expect(Self.cases.count >= 80)
    let filters = Set(Self.cases.map(\.filter))
    #expect(filters == ["furigana", "kana", "kanji", "hint", "type", "type-cloze", "type-nc", "tts", "text"])
    // BLAKE3's tree: hint texts whose hashed bytes (text and field name) pass one chunk and 8 KB.
    let hashedLengths = Self.cases.filter { $0.filter == "hint" }.map { $0.input.utf8.count + $0.field.utf8.count }
    #expect(hashedLengths.contains { $0 > 1024 })
    #expect(hashedLengths.contains { $0 > 8192 })
  }

  /// The ruby filters against Anki's pattern run by `NSRegularExpression`, on random strings
  /// over an alphabet rich in its delimiters. Rust's `.` is any character but a line feed,
  /// written here as `[^\n]` because ICU's `.` also refuses other line ends.
  @Test func rubyScanSameAsPattern() throws {
    let pattern = try NSRegularExpression(pattern: #" ?([^ >]+?)\[([^\n]+?)\]"#)
    let pieces = [
      "[", "]", " ", ">", "<", "\n", "\r", "a", "漢", "字", "かな", "&nbsp;", "&nbsp", "&", "[sound:", "sound:",
      "x.mp3]", "  ", "\t", "😀", "é", "e\u{301}",
    ]
    var generator = SplitMix64(seed: 0xF0_41)
    for _ in 0..<5000 {
      let count = Int(generator.next() % 14)
      let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      let prepared = text.replacingOccurrences(of: "&nbsp;", with: " ", options: .literal)
      func viaPattern(_ make: (String, String) -> String) -> String {
        let source = prepared as NSString
        var output = ""
        var last = 0
        for match in pattern.matches(in: prepared, range: NSRange(location: 0, length: source.length)) {
          output += source.substring(with: NSRange(location: last, length: match.range.location - last))
          let base = source.substring(with: match.range(at: 1))
          let reading = source.substring(with: match.range(at: 2))
          output += reading.hasPrefix("sound:") ? source.substring(with: match.range) : make(base, reading)
          last = match.range.location + match.range.length
        }
        return output + source.substring(from: last)
      }
      #expect(
        TemplateFilters.furigana(text) == viaPattern { "<ruby><rb>\($0)</rb><rt>\($1)</rt></ruby>" },
        "\(text.debugDescription)")
      #expect(TemplateFilters.kana(text) == viaPattern { $1 }, "\(text.debugDescription)")
      #expect(TemplateFilters.kanji(text) == viaPattern { base, _ in base }, "\(text.debugDescription)")
    }
  }

  /// Megabyte fields, among them the worst cases of a backtracking scan (a long run without
  /// spaces, brackets that never close), take linear time.
  @Test func megabyteFields() {
    let fields = [
      String(repeating: "日本語[にほんご]を 勉強[べんきょう]する ", count: 25_000),
      String(repeating: "a", count: 1_000_000) + "[",
      String(repeating: "[", count: 1_000_000),
      String(repeating: "a[b", count: 300_000) + "]",
      String(repeating: "x[\n", count: 300_000),
      String(repeating: "&nbsp;", count: 200_000),
    ]
    let clock = ContinuousClock()
    for field in fields {
      let elapsed = clock.measure {
        _ = TemplateFilters.furigana(field)
        _ = TemplateFilters.kana(field)
        _ = TemplateFilters.kanji(field)
        _ = TemplateFilters.hint(field, fieldName: "Front")
      }
      #expect(elapsed < .seconds(20), "\(field.prefix(20).debugDescription): \(elapsed)")
    }
    #expect(TemplateFilters.kanji(String(repeating: "a[b", count: 3) + "]") == "a")
    #expect(TemplateFilters.kana(String(repeating: "[", count: 5)) == "[[[[[")
  }

  @Test func emptyAndBlankHints() {
    #expect(TemplateFilters.hint("", fieldName: "Front") == "")
    #expect(TemplateFilters.hint(" \u{3000}\u{A0}\n", fieldName: "Front") == " \u{3000}\u{A0}\n")
    #expect(TemplateFilters.hint("\u{200B}", fieldName: "Front").contains("<div id=\"hint"))
  }
}
