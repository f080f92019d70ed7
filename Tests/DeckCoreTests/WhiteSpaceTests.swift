import DeckCore
import Testing

/// White space as Rust's `str` methods see it (Unicode `White_Space`), which Anki's text
/// functions use.
@Suite("White space: trimmed and collapsed as Rust does")
struct WhiteSpaceTests {
  @Test(
    "each run of white space becomes one space, none at the ends; text without any is itself",
    arguments: [
      ("two words", "two words"),
      ("  two \t\n words  ", "two words"),
      ("no\u{A0}break", "no break"),
      ("ideographic\u{3000}space\u{2029}para", "ideographic space para"),
      ("é\u{301} cafe\u{301}", "é\u{301} cafe\u{301}"),
      (" \u{301}combining", "\u{301}combining"),
      ("word", "word"),
      ("", ""),
      (" \u{85}\u{A0} ", ""),
      ("zero\u{200B}width", "zero\u{200B}width"),
    ])
  func collapsing(text: String, expected: String) {
    #expect(text.collapsingWhiteSpace() == expected)
    // The same as Rust's split_whitespace().join(" "), scalar by scalar.
    let words = text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map {
      String(String.UnicodeScalarView($0))
    }
    #expect(text.collapsingWhiteSpace().unicodeScalars.elementsEqual(words.joined(separator: " ").unicodeScalars))
  }

  @Test("trimmed at both ends, or at the start, scalar by scalar")
  func trimming() {
    #expect(Substring("\u{A0} a b \u{3000}").trimmingRustWhiteSpace() == "a b")
    #expect(Substring("\u{A0} a b \u{3000}").trimmingRustWhiteSpaceAtStart() == "a b \u{3000}")
    #expect(Substring(" \u{85} ").trimmingRustWhiteSpace().isEmpty)
  }
}
