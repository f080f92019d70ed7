import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// `AnkiCloze` against what the real Anki backend renders (`fixtures/rendering/cloze_cases.json`,
/// made by `fixtures/rendering/make_cloze_cases.py`), and against hostile field text.
@Suite("Cloze rendering: AnkiCloze against the Anki backend")
struct ClozeRenderingTests {
  /// One field text and what the backend made of it.
  struct Case: Decodable, CustomTestStringConvertible, Sendable {
    /// One card number's renders.
    struct Render: Decodable, Sendable {
      let number: Int
      let question: String
      let answer: String
      let clozeOnlyQuestion: String
      let clozeOnlyAnswer: String
    }

    let text: String
    /// The cloze numbers the backend finds in the field.
    let numbers: [Int]
    /// The cloze number (ordinal + 1) of each card the backend made.
    let cards: [Int]
    let renders: [Render]

    var testDescription: String { text.count > 60 ? String(text.prefix(60)) + "…" : text }
  }

  static let cases: [Case] = {
    guard let data = FileManager.default.contents(atPath: Fixtures.path("rendering/cloze_cases.json")),
      let cases = try? JSONDecoder().decode([Case].self, from: data)
    else { return [] }
    return cases
  }()

  @Test func casesAreThere() {
    #expect(Self.cases.count >= 60)
  }

  @Test(arguments: cases)
  func clozeFilter(_ testCase: Case) {
    for render in testCase.renders {
      #expect(
        AnkiCloze.rendering(testCase.text, clozeNumber: render.number, isAnswer: false) == render.question,
        "question of card \(render.number)")
      #expect(
        AnkiCloze.rendering(testCase.text, clozeNumber: render.number, isAnswer: true) == render.answer,
        "answer of card \(render.number)")
    }
  }

  @Test(arguments: cases)
  func clozeOnlyFilter(_ testCase: Case) {
    for render in testCase.renders {
      #expect(
        AnkiCloze.renderingOnly(testCase.text, clozeNumber: render.number, isAnswer: false)
          == render.clozeOnlyQuestion, "question of card \(render.number)")
      #expect(
        AnkiCloze.renderingOnly(testCase.text, clozeNumber: render.number, isAnswer: true)
          == render.clozeOnlyAnswer, "answer of card \(render.number)")
    }
  }

  /// The numbers, and the cards Anki makes from them (``CardGeneration``, for a note of a
  /// cloze note type): one per number, card 500 for the numbers above it, the first card when
  /// there is none.
  @Test(arguments: cases)
  func numbers(_ testCase: Case) {
    #expect(ClozeNumbers.numbers(in: testCase.text) == Set(testCase.numbers))
    let cloze = NoteType(
      id: 1, name: "Cloze", kind: .cloze, fields: [NoteType.Field(name: "Text"), NoteType.Field(name: "Back Extra")],
      templates: [
        NoteType.CardTemplate(name: "Cloze", questionFormat: "{{cloze:Text}}", answerFormat: "{{cloze:Text}}")
      ])
    var generation = CardGeneration()
    #expect(generation.ordinals(for: [testCase.text, ""], tags: [], of: cloze).map { $0 + 1 } == testCase.cards)
  }

  @Test func attributeEncoding() {
    #expect(
      AnkiCloze.encodingAttribute("aZ9 &<>\"'é\u{A0}\u{100}日🎉")
        == "aZ9&#x20;&amp;&lt;&gt;&quot;&#x27;&#xE9;&#xA0;\u{100}日🎉")
  }

  // MARK: Hostile input

  /// Seconds a hostile field may take; generous, for debug builds on slow machines.
  static let timeLimit = 20.0

  private func timed<Result>(_ body: () -> Result) -> (Result, Double) {
    let start = ContinuousClock.now
    let result = body()
    let elapsed = ContinuousClock.now - start
    return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }

  /// Anki keeps ten clozes open at most, so 100,000 openings nest no deeper than ten; never
  /// closed, they are all dropped.
  @Test func hundredThousandOpenings() {
    let text = String(repeating: "{{c1::", count: 100_000) + "x"
    let (rendered, seconds) = timed {
      (
        AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: false),
        AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: true),
        AnkiCloze.renderingOnly(text, clozeNumber: 1, isAnswer: true), ClozeNumbers.numbers(in: text)
      )
    }
    #expect(rendered.0 == "" && rendered.1 == "" && rendered.2 == "" && rendered.3.isEmpty)
    #expect(seconds < Self.timeLimit)
  }

  /// Closed, the same openings leave ten nested clozes; the other closings are plain text.
  @Test func hundredThousandOpeningsClosed() {
    let text = String(repeating: "{{c1::", count: 100_000) + "x" + String(repeating: "}}", count: 100_000)
    let (rendered, seconds) = timed {
      (
        AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: true),
        AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: false),
        AnkiCloze.renderingOnly(text, clozeNumber: 1, isAnswer: true), ClozeNumbers.numbers(in: text)
      )
    }
    let open = String(repeating: "<span class=\"cloze\" data-ordinal=\"1\">", count: 10)
    let close = String(repeating: "</span>", count: 10)
    // Compared first: a failing comparison of these strings would print them.
    let answerMatches = rendered.0 == open + "x" + close + String(repeating: "}}", count: 100_000 - 10)
    #expect(answerMatches)
    #expect(rendered.1.hasPrefix("<span class=\"cloze\" data-cloze=\""))
    #expect(rendered.2 == Array(repeating: "x", count: 10).joined(separator: ", "))
    #expect(rendered.3 == [1])
    #expect(seconds < Self.timeLimit)
  }

  /// A megabyte of clozes, each of them active.
  @Test func megabyteOfClozes() {
    let text = String(repeating: "{{c1::x}}", count: 1 << 20 / 9)
    let (rendered, seconds) = timed {
      (
        AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: false),
        AnkiCloze.rendering(text, clozeNumber: 2, isAnswer: true),
        AnkiCloze.renderingOnly(text, clozeNumber: 1, isAnswer: false), ClozeNumbers.numbers(in: text)
      )
    }
    let count = 1 << 20 / 9
    #expect(
      rendered.0
        == String(repeating: "<span class=\"cloze\" data-cloze=\"x\" data-ordinal=\"1\">[...]</span>", count: count))
    #expect(rendered.1 == "")
    #expect(rendered.2 == Array(repeating: "...", count: count).joined(separator: ", "))
    #expect(rendered.3 == [1])
    #expect(seconds < Self.timeLimit)
  }

  /// Ten active clozes nested around a megabyte of text would make Anki encode it ten times
  /// over, each time about three times larger; past the budget the attribute is left empty.
  @Test func nestedActiveClozesAroundAMegabyte() {
    let inner = String(repeating: "&<é ", count: 1 << 18)
    let text = String(repeating: "{{c1::", count: 10) + inner + String(repeating: "}}", count: 10)
    let (rendered, seconds) = timed { AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: false) }
    #expect(rendered.hasSuffix("\" data-ordinal=\"1\">[...]</span>"))
    #expect(rendered.utf8.count < 2 * AnkiCloze.minimumAttributeBudget)
    let answer = AnkiCloze.rendering(text, clozeNumber: 1, isAnswer: true)
    let answerHoldsText = answer.contains(inner)
    #expect(answerHoldsText)
    #expect(seconds < Self.timeLimit)
  }

  /// Markers and text in random order render without trapping, the numbers found are among
  /// those written, and a card renders only when its number is found (not every number found
  /// renders: a cloze inside an Image Occlusion shape counts but is not looked at).
  @Test func randomMarkers() {
    let pieces = [
      "{{c1::", "{{c2::", "{{c1,2::", "{{c0::", "{{c", "{{", "}}", "}", "::", ":", "x", " ", "é", "\\(", "\\)", "\\[",
      "\\]", "<b>", "</b>", "image-occlusion:", "rect:left=1", "\\", "&", "\"",
    ]
    var generator = SplitMix64(seed: 0xC102E)
    for _ in 0..<3000 {
      let count = Int(generator.next() % 16)
      let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      let numbers = ClozeNumbers.numbers(in: text)
      #expect(numbers.isSubset(of: [1, 2]), "\(text.debugDescription)")
      for number in 1...2 {
        for isAnswer in [false, true] {
          let rendered = AnkiCloze.rendering(text, clozeNumber: number, isAnswer: isAnswer)
          #expect(rendered.isEmpty || numbers.contains(number), "\(text.debugDescription)")
          _ = AnkiCloze.renderingOnly(text, clozeNumber: number, isAnswer: isAnswer)
        }
      }
    }
  }
}
