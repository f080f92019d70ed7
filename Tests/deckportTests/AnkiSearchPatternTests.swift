import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckConversion

/// `deck:` and `tag:` patterns matched by ``AnkiSearchPattern``, against the regular expressions
/// deckport ran before through `NSRegularExpression` (kept here only as the reference) on random
/// patterns and names, and against the real backend's answers for the letters that case folding
/// treats in more than one way (`fixtures/search/search_cases.json`).
@Suite("deck: and tag: patterns without regular expressions")
struct AnkiSearchPatternTests {
  // MARK: - The regular expressions deckport used, as the reference

  /// `text` (unescaped) as the ICU pattern deckport made of it: `*` is `wildcard*`, `_` is
  /// `wildcard`, `\*`, `\_` and `\\` the characters, everything else itself.
  static func regularExpression(_ text: String, wildcard: String) -> String {
    var pattern = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\\":
        if let next = scalars.first, next == "*" || next == "_" || next == "\\" {
          scalars.removeFirst()
          pattern += NSRegularExpression.escapedPattern(for: String(next))
        } else {
          pattern += NSRegularExpression.escapedPattern(for: "\\")
        }
      case "*": pattern += wildcard + "*"
      case "_": pattern += wildcard
      default: pattern += NSRegularExpression.escapedPattern(for: String(scalar))
      }
    }
    return pattern
  }

  /// Whether the ICU expression `pattern` matches `text`, ignoring case.
  static func icuMatches(_ pattern: String, _ text: String, options: NSRegularExpression.Options = []) throws -> Bool {
    let expression = try NSRegularExpression(pattern: pattern, options: options.union(.caseInsensitive))
    return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// The levels of `search` when each is as Anki takes a deck name's level already (not empty,
  /// no `:` at its ends; the random searches have no white space or control characters), or nil.
  static func plainLevels(_ search: String) -> [String]? {
    let levels = AnkiSearchPattern.unescaped(search).canonicallyComposed.components(separatedBy: "::")
    let trimmed = levels.allSatisfy { !$0.isEmpty && !$0.hasPrefix(":") && !$0.hasSuffix(":") }
    return trimmed ? levels : nil
  }

  /// Whether deckport's old `deck:` expression for a search of `levels` (``plainLevels(_:)``)
  /// matched the deck `name`.
  static func icuFindsDeck(_ levels: [String], _ name: String) throws -> Bool {
    let levels = levels.map { regularExpression($0, wildcard: "[^\\n]") }
    let native = name.canonicallyComposed.replacingOccurrences(of: "::", with: "\u{1f}")
    return try icuMatches("^(?:" + levels.joined(separator: "\\x{1f}") + ")(?:\\z|\\x{1f})", native)
  }

  /// Whether deckport's old `tag:` expression for `search` matched the tag `name`.
  static func icuFindsTag(_ search: String, _ name: String) throws -> Bool {
    let tag = regularExpression(AnkiSearchPattern.unescaped(search.canonicallyComposed), wildcard: "\\S")
    return try icuMatches(
      "^(?:" + tag + ")(?:::.*)?$", name.canonicallyComposed, options: [.dotMatchesLineSeparators])
  }

  /// `count` random strings of 1 to `length` pieces.
  static func randomTexts(_ pieces: [String], seed: UInt64, count: Int, length: Int) -> [String] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let pieceCount = 1 + Int(generator.next() % UInt64(length))
      return (0..<pieceCount).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }
  }

  // The pieces leave out what ICU reads unlike Rust's `regex` (full case folding: `ß` as `ss`,
  // `İ` as `i̇`, `ﬆ` as `st`; `\S` without U+000B and U+0085): the backend's cases hold those.
  static let patternPieces = [
    "a", "A", "b", "s", "S", "ſ", "k", "\u{212A}", "é", "É", "e\u{301}", "σ", "ς", "Σ", "*", "*", "_", "_", "\\*",
    "\\_", "\\\\", "\\", "\\:", "::", ":", "(", ".", "?", "|", "[", "$",
  ]
  static let namePieces = [
    "a", "A", "b", "s", "ſ", "K", "k", "é", "E\u{301}", "σ", "ς", "Σ", "*", "_", "\\", "::", ":", "(", ".", "?",
    "|", "[", "$", "\u{1f}", "\n",
  ]

  @Test func deckSameAsRegularExpression() throws {
    let searches = Self.randomTexts(Self.patternPieces, seed: 0xDEC_0, count: 400, length: 6)
    let names =
      Self.randomTexts(Self.namePieces, seed: 0xDEC_1, count: 60, length: 8)
      + ["a", "A::b", "ab", "aſ::k", "sσς", "Σ::Σ", "a\u{1f}b"]
    var matched = 0
    // `*` alone is every deck, not a pattern.
    for search in searches where search != "*" {
      guard let levels = Self.plainLevels(search) else { continue }
      let deckSearch = try DeckSearch(search)
      for name in names {
        // Anki searches the names it stores: a name as given is first made one (`A :: b` is
        // `A::b`; control characters go), as a package's untidy names are.
        let expected = try Self.icuFindsDeck(levels, Self.ankiDeckName(name))
        matched += expected ? 1 : 0
        #expect(deckSearch.matches(deck: Deck(id: 1, name: name)) == expected, "\(search.debugDescription) \(name)")
      }
    }
    #expect(matched > 200)
  }

  // The names Anki stores, written out here from Anki's rules (not through deckport's code):
  // a deck name's levels in NFC, without ASCII control characters, trimmed of white space and
  // `:`, `blank` when empty; a tag without spaces and control characters, in NFC, its empty
  // levels `blank`.

  static func ankiDeckName(_ name: String) -> String {
    name.components(separatedBy: "::").map { level -> String in
      let kept = String(
        String.UnicodeScalarView(
          level.precomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
      let trimmed = kept.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: ":")))
      return trimmed.isEmpty ? "blank" : trimmed
    }.joined(separator: "::")
  }

  static func ankiTag(_ tag: String) -> String {
    let kept = String(
      String.UnicodeScalarView(
        tag.unicodeScalars.filter { !($0 == " " || $0 == "\u{3000}" || $0.value < 0x20 || $0.value == 0x7F) }))
    let levels = kept.precomposedStringWithCanonicalMapping.components(separatedBy: "::")
    guard levels.count > 1 else { return levels[0] }
    return levels.map { $0.isEmpty ? "blank" : $0 }.joined(separator: "::")
  }

  @Test func tagSameAsRegularExpression() throws {
    let searches = Self.randomTexts(Self.patternPieces, seed: 0x7A6_0, count: 400, length: 6)
    // No line feed: ICU's `$` matches before a final one, Rust's only at the end (a tag has none).
    let names =
      Self.randomTexts(Self.namePieces.filter { $0 != "\n" }, seed: 0x7A6_1, count: 60, length: 8)
      + ["a", "A::b", "ab", "aſ::k", "sσς", "Σ::Σ", "a\u{1f}b"]
    var matched = 0
    // `none` and `*` alone are about notes, not tags.
    for search in searches where search != "none" && search != "*" {
      let tagSearch = try TagSearch(search)
      for name in names {
        // A tag is found as Anki's import stores it (`a::::b` is `a::blank::b`), which is the
        // spelling Anki's search then sees (`Tests/anki/test_search_spelling.py`).
        let stored = Self.ankiTag(name)
        let expected = try Self.icuFindsTag(search, stored)
        matched += expected ? 1 : 0
        #expect(tagSearch.matches(tag: name) == expected, "\(search.debugDescription) \(name.debugDescription)")
      }
    }
    #expect(matched > 100)
  }

  // MARK: - The backend's answers

  /// One case of the fixture: whether the backend's `deck:SEARCH` found a card in a deck named
  /// `name`, or its `tag:SEARCH` a note tagged `name`.
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    /// `deck` or `tag`.
    let kind: String
    let search: String
    let name: String
    let found: Bool

    var testDescription: String { "\(kind):\(search) against \(name.debugDescription)" }
  }

  static let cases: [Case] = BackendCases.load("search/search_cases.json")

  @Test(arguments: cases)
  func sameAsBackend(_ testCase: Case) throws {
    switch testCase.kind {
    case "deck":
      #expect(try DeckSearch(testCase.search).matches(deck: Deck(id: 1, name: testCase.name)) == testCase.found)
    case "tag": #expect(try TagSearch(testCase.search).matches(tag: testCase.name) == testCase.found)
    default: Issue.record("unknown kind \(testCase.kind)")
    }
  }

  @Test func fixtureIsComplete() {
    #expect(Self.cases.count >= 100)
    #expect(Set(Self.cases.map(\.kind)) == ["deck", "tag"])
    // Both answers are there: folding that joins letters and folding that does not.
    #expect(Self.cases.contains { $0.search == "ß" && $0.name == "ss" && !$0.found })
    #expect(Self.cases.contains { $0.search == "ſ" && $0.name == "s" && $0.found })
  }

  // MARK: - Hostile patterns

  /// What ICU's backtracking took seconds for: each must finish (the time limit turns a regression
  /// into a failure, not a hang) with Anki's answer.
  @Suite("Hostile deck: and tag: patterns finish in linear time", .timeLimit(.minutes(5)))
  struct Hostile {
    static let longName = String(repeating: "a", count: 100_000)

    @Test func runsOfWildcards() throws {
      let deck = Deck(id: 1, name: Self.longName)
      #expect(try !DeckSearch("*a*a*a*a*b").matches(deck: deck))
      #expect(try DeckSearch("*a*a*a*a*").matches(deck: deck))
      #expect(try !TagSearch("*a*a*a*a*b").matches(tag: Self.longName))
      #expect(try TagSearch("*a*a*a*a*").matches(tag: Self.longName + "::b"))
      #expect(try TagSearch("*a*a*a*a*b").matches(tag: Self.longName + "::b"))
      #expect(try !TagSearch("*a*a*a*a*b").matches(tag: Self.longName + "::c"))
      // Found by the backend (fixtures/search/search_cases.json at a hundred a's); ICU gave up
      // after about a second and said no.
      let subtag = Self.longName + "b::" + Self.longName + "c"
      #expect(try TagSearch("*a*a*a*a*b").matches(tag: subtag))
      #expect(try DeckSearch("*a*a*a*a*b").matches(deck: Deck(id: 1, name: subtag)))
    }

    @Test func manyLevelsAndLongPatterns() throws {
      // Every `::` ends a name the pattern may stop at, and each `*` a place it may be.
      let levels = Array(repeating: "a", count: 20_000).joined(separator: "::")
      #expect(try !DeckSearch("*a*a*a*a*b").matches(deck: Deck(id: 1, name: levels)))
      #expect(try !TagSearch("*a*a*a*a*b").matches(tag: levels))
      let pattern = String(repeating: "*a", count: 500) + "*b"
      let name = String(repeating: "a", count: 10_000)
      #expect(try !DeckSearch(pattern).matches(deck: Deck(id: 1, name: name)))
      #expect(try TagSearch(String(repeating: "*a", count: 500)).matches(tag: name))
      #expect(try !TagSearch(String(repeating: "_", count: 10_001)).matches(tag: name))
    }
  }
}
