import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// The byte scans that stand in for Anki's regular expressions on field text, CSS and templates,
/// against what the real backend made of each case of `fixtures/rendering/text_pattern_cases.json`
/// (`fixtures/rendering/make_text_pattern_cases.py`): unclosed blocks and tags, and letters
/// that Unicode case folding does (`ſ`) or does not (`ﬆ`) join to ASCII ones.
@Suite("Field text, CSS and template patterns: the real Anki backend's output")
struct TextPatternCaseTests {
  /// One case of the fixture: a backend call, its input and its output.
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    /// `strip_html`, `html_to_text_line`, `extract_latex`, `css` or `template`.
    let kind: String
    let input: String
    /// The backend's output: one string, or the file names found (sorted for `css` and
    /// `template`, which the backend gives as a set).
    let output: [String]

    var testDescription: String {
      let shown = input.count > 60 ? "\(input.prefix(60))… (\(input.utf8.count) bytes)" : input
      return "\(kind) of \(shown.debugDescription)"
    }
  }

  /// The fixture's cases; empty if it cannot be read, which ``fixtureIsComplete()`` reports.
  static let cases: [Case] = BackendCases.load("rendering/text_pattern_cases.json")

  /// What deckport makes of the case's input, in the form of the case's output.
  static func output(of testCase: Case) -> [String]? {
    switch testCase.kind {
    case "strip_html": [AnkiFieldText.strippingHTML(testCase.input)]
    case "html_to_text_line": [AnkiFieldText.plainTextLine(testCase.input)]
    case "extract_latex": MediaReferences.latexFileNames(in: testCase.input, svg: false)
    case "css": Set(MediaReferences.underscoredFileNames(inCSS: testCase.input)).sorted()
    case "template": Set(MediaReferences.underscoredFileNames(inTemplate: testCase.input)).sorted()
    default: nil
    }
  }

  @Test(arguments: cases)
  func sameAsBackend(_ testCase: Case) {
    #expect(Self.output(of: testCase) == testCase.output)
  }

  @Test func fixtureIsComplete() {
    #expect(Self.cases.count >= 100)
    #expect(Set(Self.cases.map(\.kind)) == ["strip_html", "html_to_text_line", "extract_latex", "css", "template"])
  }
}
