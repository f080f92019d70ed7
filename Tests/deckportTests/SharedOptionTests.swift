import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// The options several commands share are declared once (`--from` in one group for convert,
/// inspect and diff; the app storage and writing options in groups convert and migrate share):
/// each command takes them as often as it allows, and describes them in the same words.
@Suite("options shared between commands")
struct SharedOptionTests {
  static let deck = Fixtures.path("anki/legacy1.apkg")

  /// A command line (`OUT` stands for a file in a scratch folder) and the usage error it must give.
  struct TooManyFormats: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let message: String
    var testDescription: String { arguments[0] }
  }

  @Test(
    "--from more often than the command takes it is a usage error (64) naming the option and the limit",
    arguments: [
      TooManyFormats(
        arguments: ["convert", deck, "OUT", "--from", "apkg", "--from", "json"],
        message: "Error: --from is given 2 times; give it once\n"),
      TooManyFormats(
        arguments: ["inspect", deck, "--from", "apkg", "--from", "apkg"],
        message: "Error: --from is given 2 times; give it once\n"),
      TooManyFormats(
        arguments: ["diff", deck, deck, "--from", "apkg", "--from", "apkg", "--from", "json"],
        message: "Error: --from is given 3 times; give it once (both decks) or twice (A, then B)\n"),
    ])
  func tooManyFormats(_ example: TooManyFormats) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let arguments = example.arguments.map { $0 == "OUT" ? scratch.path(for: "out.json") : $0 }
    let run = try CommandRun.deckport(arguments)
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix(example.message), "stderr: \(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test("--from once is taken by convert and inspect")
  func oneFormat() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let inspect = try CommandRun.deckport(["inspect", Self.deck, "--from", "apkg"])
    #expect(inspect.status == 0, "stderr: \(inspect.standardError)")
    let output = scratch.path(for: "deck.json")
    let convert = try CommandRun.deckport(["convert", Self.deck, output, "--from", "apkg", "--quiet"])
    #expect(convert.status == 0, "stderr: \(convert.standardError)")
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test(
    "each command's help says how many times --from may be given",
    arguments: [
      ("convert", "give it once."), ("inspect", "give it once."),
      ("diff", "give it once (both decks) or twice (A, then B)."),
    ])
  func fromHelp(command: String, count: String) throws {
    let help = try CommandRun.deckport([command, "--help"])
    #expect(help.status == 0)
    let entry = Self.entry(of: "--from", in: help.standardOutput)
    #expect(entry.hasPrefix("--from <format> The input format ("), "\(entry)")
    #expect(entry.hasSuffix("when the name and content do not tell; \(count)"), "\(entry)")
  }

  @Test(
    "convert and migrate describe the options they share in the same words",
    arguments: [
      "--key", "--entity", "--profile", "--plist-style", "--existing", "--match-key", "--force", "--backup",
      "--dry-run",
      "--strict",
    ])
  func sameWords(option: String) throws {
    let convert = try CommandRun.deckport(["convert", "--help"])
    let migrate = try CommandRun.deckport(["migrate", "--help"])
    let entry = Self.entry(of: option, in: convert.standardOutput)
    #expect(entry.hasPrefix(option + " "))
    #expect(Self.entry(of: option, in: migrate.standardOutput) == entry)
  }

  /// The help entry of `option` (its line and the indented lines that continue it), with its
  /// line breaks and runs of spaces made single spaces.
  static func entry(of option: String, in help: String) -> String {
    var lines: [Substring] = []
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop(while: { $0 == " " })
      let indent = line.count - trimmed.count
      if lines.isEmpty {
        if indent == 2 && (trimmed.hasPrefix(option + " ") || trimmed == option) { lines.append(trimmed) }
      } else if indent > 2 && !trimmed.isEmpty {
        lines.append(trimmed)
      } else {
        break
      }
    }
    return lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
  }
}
