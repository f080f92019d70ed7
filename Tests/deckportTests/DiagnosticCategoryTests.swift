import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// `Diagnostic.Category`: every category the library emits is one of its documented constants,
/// and a category reads, prints and encodes as the bare tag the warnings always showed.
@Suite("Diagnostic.Category: the typed warning categories")
struct DiagnosticCategoryTests {
  /// The file that declares the constants.
  static let constantsFile = "Sources/DeckCore/Diagnostics/Diagnostic+Category.swift"

  /// Every Swift source of the package but the constants file, with its path.
  static func sources() throws -> [(path: String, text: String)] {
    let sources = Fixtures.root.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
    return try files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().compactMap { relative in
      let path = "Sources/\(relative)"
      guard path != constantsFile else { return nil }
      return (path, try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8))
    }
  }

  /// The constants as the file declares them: name, tag, and whether a doc comment precedes it.
  static func declaredConstants() throws -> [(name: String, tag: String, documented: Bool)] {
    let text = try String(contentsOf: Fixtures.root.appendingPathComponent(constantsFile), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    let declaration = #/^  public static let (\w+): Self = "([a-z0-9-]+)"$/#
    return lines.indices.compactMap { index in
      guard let match = lines[index].wholeMatch(of: declaration) else { return nil }
      let documented = index > 0 && lines[index - 1].hasPrefix("  /// ")
      return (String(match.output.1), String(match.output.2), documented)
    }
  }

  /// The first argument of every call that makes or reports a warning: `Diagnostic(…)` and the
  /// helpers that pass a category on (`report`, `reportLimited`, `warn`, `otherwise:`, `category:`).
  /// (Word boundaries as in code, where `log.report` is two words, not as in prose.)
  static var emission: Regex<(Substring, Substring?, Substring?)> {
    #/\b(?:Diagnostic|report|reportLimited|warn)\(\s*("[^"\n]*"|[^\s,)]+)|\b(?:otherwise|category):\s*("[^"\n]*"|[^\s,)]+)/#
      .wordBoundaryKind(.simple)
  }

  @Test("every category the sources emit is a documented constant, named after its tag, each tag once")
  func everyEmittedCategoryIsAConstant() throws {
    let constants = try Self.declaredConstants()
    #expect(constants.count > 100, "the constants file was not read as expected")
    #expect(constants.filter { !$0.documented }.map(\.name) == [])
    #expect(Set(constants.map(\.tag)).count == constants.count, "a tag is declared twice")
    for constant in constants {
      // `csv-no-guid` is `csvNoGUID`: the tag's words, acronyms in capitals.
      let words = constant.tag.split(separator: "-")
      let expected = words.enumerated().map { index, word in
        index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst()
      }.joined()
      #expect(constant.name.lowercased() == expected.lowercased(), "\(constant.name) for '\(constant.tag)'")
    }
    let names = Set(constants.map(\.name))
    var emitted: [String: [String]] = [:]
    var literals: [String] = []
    var madeFromText: [String] = []
    for (path, text) in try Self.sources() {
      // A category made from text, or a literal given the type, is not a constant.
      for match in text.matches(of: #/Category\(rawValue:|Category = "|as Diagnostic\.Category/#) {
        let line = text[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
        madeFromText.append("\(path):\(line)")
      }
      for match in text.matches(of: Self.emission) {
        let argument = String(match.output.1 ?? match.output.2 ?? "")
        let line = text[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
        if argument.hasPrefix("\"") {
          // A message handed to a helper that takes only a message is text, not a tag.
          if argument.wholeMatch(of: #/"[a-z0-9]+(-[a-z0-9]+)*"/#) != nil {
            literals.append("\(path):\(line): \(argument)")
          }
        } else if argument.hasPrefix(".") {
          emitted[String(argument.dropFirst()), default: []].append("\(path):\(line)")
        }
      }
    }
    #expect(literals == [], "a category spelled as a string where a constant should be named")
    #expect(emitted.values.map(\.count).reduce(0, +) > 150, "the emission sites were not found as expected")
    let unknown = emitted.filter { !names.contains($0.key) }
    #expect(unknown.isEmpty, "not constants of Diagnostic.Category: \(unknown)")
    // Only the choices' category is made from text, from their name (checked below).
    #expect(
      madeFromText.map { $0.split(separator: ":")[0] } == [
        "Sources/DeckAppStorage/Profiles/AppRecordProfile+Choices.swift"
      ], "\(madeFromText)")
    // Each constant but the choices' is emitted somewhere by name: no tag the library never uses.
    let unused = names.subtracting(emitted.keys).subtracting(["wordTypeMapped"])
    #expect(unused.isEmpty, "constants no source emits: \(unused.sorted())")
  }

  @Test("the word-type category of Flashcard Quiz's choices is its constant")
  func choicesCategory() {
    #expect(AppRecordProfile.flashcardQuizWordTypes.warningCategory == .wordTypeMapped)
    #expect(Diagnostic.Category.wordTypeMapped.rawValue == "word-type-mapped")
  }

  @Test("a category prints, compares and encodes as its bare tag; a literal is a category")
  func tagEverywhere() throws {
    let warning = Diagnostic(.csvPadded, at: SourceLocation(file: "words.csv", line: 3), "1 row has fewer fields")
    #expect(warning.exactDescription == "words.csv:3: warning: [csv-padded] 1 row has fewer fields")
    #expect(warning.category == "csv-padded" && warning.category.rawValue == "csv-padded")
    #expect("\(warning.category)" == "csv-padded")
    let encoded = try JSONEncoder().encode(["category": warning.category])
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"category":"csv-padded"}"#)
    let decoded = try JSONDecoder().decode([Diagnostic.Category].self, from: Data(#"["media-renamed","own-tag"]"#.utf8))
    #expect(decoded == [.mediaRenamed, Diagnostic.Category(rawValue: "own-tag")])
    #expect([Diagnostic.Category.mediaRenamed, .csvPadded].sorted() == [.csvPadded, .mediaRenamed])
  }

  @Test("convert --json gives each warning's category as the string code, as the text shows it")
  func jsonCode() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = scratch.path(for: "French.csv")
    let run = try CommandRun.deckport(["convert", Fixtures.path("anki/latest_sched.apkg"), output, "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(!warnings.isEmpty)
    for warning in warnings {
      let code = try #require(warning["code"] as? String)
      let text = try #require(warning["text"] as? String)
      #expect(text.contains("warning: [\(code)] "), "\(text)")
    }
  }
}
