import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// A strict conversion's failure (``ConversionOptions/strict``): the library's error carries the
/// warnings and says on its own why nothing was written; the command lists each warning once,
/// then says they are listed.
@Suite("Strict conversion: the failure carries its warnings")
struct StrictFailureTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  @Test("the library's error carries the warnings a lenient run reports, counts them and names the first")
  func libraryError() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let deck = try DeckLoader().load(path: Self.package)
    let output = URL(filePath: scratch.path(for: "deck.csv"))
    let error = try #require(
      await #expect(throws: DeckError.self) {
        try await DeckConverter().write(deck, to: output, options: ConversionOptions(strict: true))
      })
    #expect(!FileManager.default.fileExists(atPath: output.path))
    let lenient = try DeckConverter().write(deck, to: scratch.path(for: "lenient.csv"))
    #expect(error.kind == .notFaithful)
    #expect(error.diagnostics.count == 7)
    #expect(error.diagnostics.map(\.category) == lenient.warnings.map(\.category))
    #expect(error.diagnostics.map(\.message) == lenient.warnings.map(\.message))
    #expect(error.diagnostics.allSatisfy { $0.location.file == output.path })
    let first = try #require(error.diagnostics.first)
    #expect(first.category == "csv-scheduling")
    #expect(
      error.message
        == "ConversionOptions.strict: 7 warnings, so nothing was written; the first: \(output.path): [csv-scheduling] \(first.message)"
    )
    #expect(!error.description.contains("listed above"))
    #expect((error as NSError).localizedDescription == error.description)
  }

  @Test("one warning: the error says it, and a front end's naming reaches the warnings it carries")
  func oneWarning() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    var builder = DeckBuilder(namespace: "com.example.strict")
    try builder.addNote(id: "1", fields: ["front", "back"], modified: Date().addingTimeInterval(86_400))
    let output = scratch.path(for: "deck.apkg")
    let error = try #require(throws: DeckError.self) {
      try DeckConverter().write(builder.build(), to: output, options: ConversionOptions(strict: true))
    }
    #expect(error.diagnostics.map(\.category) == ["modification-time"])
    let warning = try #require(error.diagnostics.first)
    #expect(
      error.message
        == "ConversionOptions.strict: 1 warning, so nothing was written: \(warning.location.exactDescription): [modification-time] \(warning.message)"
    )
    #expect(error.wording.settings == [.strict])
    #expect(error.naming { _ in "--strict" }.message.hasPrefix("--strict: 1 warning, so nothing was written: "))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  /// The lines of `text` that hold `part`.
  static func lines(of text: String, holding part: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.contains(part) }
  }

  @Test(
    "convert --strict lists each warning once, then says they are listed above; with --dry-run or --json too",
    arguments: [[], ["--dry-run"], ["--json"]])
  func command(extra: [String]) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = scratch.path(for: "deck.csv")
    let run = try CommandRun.deckport(["convert", Self.package, output, "--strict"] + extra)
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    let lines = run.standardError.split(separator: "\n")
    #expect(lines.count == 8, "\(run.standardError)")
    #expect(lines.prefix(7).allSatisfy { $0.hasPrefix("deckport: \(output): warning: [") })
    #expect(Self.lines(of: run.standardError, holding: "[csv-scheduling] the scheduling of").count == 1)
    #expect(lines.last == "deckport: error: \(output): --strict: 7 warnings (listed above); nothing was written")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("a batch's strict failure: listed above as the warnings came, below its line for a dry run, whole in --json")
  func batch() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let folder = scratch.path(for: "out")
    let output = folder + "/latest_sched.csv"
    let run = try CommandRun.deckport(["convert", Self.package, "--out-dir", folder, "--to", "csv", "--strict"])
    #expect(run.status == 1)
    #expect(
      run.standardOutput.contains("failed: \(output): --strict: 7 warnings (listed above); nothing was written\n"))
    #expect(Self.lines(of: run.standardError, holding: "[csv-scheduling] the scheduling of").count == 1)

    let dry = try CommandRun.deckport([
      "convert", Self.package, "--out-dir", folder, "--to", "csv", "--strict", "--dry-run",
    ])
    #expect(dry.status == 1)
    let lines = dry.standardOutput.split(separator: "\n")
    let failed = try #require(lines.firstIndex { $0.hasPrefix("failed: ") })
    #expect(lines[failed] == "failed: \(output): --strict: 7 warnings (listed below); nothing was written")
    #expect(lines[(failed + 1)...].prefix(7).allSatisfy { $0.hasPrefix("  \(output): warning: [") })
    #expect(
      Self.lines(of: dry.standardOutput + dry.standardError, holding: "[csv-scheduling] the scheduling of").count == 1)

    let json = try CommandRun.deckport([
      "convert", Self.package, "--out-dir", folder, "--to", "csv", "--strict", "--json",
    ])
    #expect(json.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    let file = try #require((document?["files"] as? [[String: Any]])?.first)
    let error = try #require(file["error"] as? String)
    #expect(
      error.hasPrefix(
        "\(output): --strict: 7 warnings, so nothing was written; the first: \(output): [csv-scheduling] "))
  }
}
