import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// The progress line of `deckport convert`: on a terminal only, silenced by `--quiet`. The
/// delay before it appears is set to 0 here (`DECKPORT_PROGRESS_DELAY`), so that a small
/// fixture, converted in a fraction of a second, shows it.
@Suite("deckport progress line")
struct ProgressLineTests {
  static let showAtOnce = ["DECKPORT_PROGRESS_DELAY": "0"]

  @Test("on a terminal, a conversion shows its phases on one rewritten line, erased at the end")
  func showsProgressOnTerminal() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    let run = try CommandRun.deckportOnTerminal(
      ["convert", Fixtures.path("anki/latest_sched.apkg"), output], environment: Self.showAtOnce)
    #expect(run.status == 0, "terminal: \(run.standardError)")
    #expect(run.standardOutput.hasPrefix("Wrote \(output) (json)"))
    let terminal = run.standardError
    #expect(terminal.contains("\rUnpacking the collection"), "terminal: \(terminal.debugDescription)")
    #expect(
      terminal.contains("Writing notes 0/9") || terminal.contains("Writing notes 9/9"),
      "terminal: \(terminal.debugDescription)")
    #expect(terminal.hasSuffix("\r\u{1B}[K"), "the line is erased at the end: \(terminal.debugDescription)")
  }

  @Test("warnings are printed above the line, each on a line of its own")
  func warningsAboveTheLine() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.csv")
    let run = try CommandRun.deckportOnTerminal(
      ["convert", Fixtures.path("anki/latest_sched.apkg"), output], environment: Self.showAtOnce)
    #expect(run.status == 0, "terminal: \(run.standardError)")
    // Each warning line starts at the left margin: the progress line was erased before it.
    let warningLines = run.standardError.components(separatedBy: "\n").filter { $0.contains("deckport: ") }
    #expect(!warningLines.isEmpty)
    for line in warningLines {
      let text = line.components(separatedBy: "\r\u{1B}[K").last ?? line
      #expect(text.hasPrefix("deckport: "), "warning line: \(line.debugDescription)")
    }
  }

  @Test("--quiet shows nothing on a terminal")
  func quietOnTerminal() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    let run = try CommandRun.deckportOnTerminal(
      ["convert", Fixtures.path("anki/latest_sched.apkg"), output, "--quiet"], environment: Self.showAtOnce)
    #expect(run.status == 0, "terminal: \(run.standardError)")
    #expect(run.standardError == "", "terminal: \(run.standardError.debugDescription)")
  }

  @Test("nothing of it reaches a pipe")
  func nothingOnPipe() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    let run = try CommandRun.deckport(
      ["convert", Fixtures.path("anki/latest_sched.apkg"), output], environment: Self.showAtOnce)
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError == "")
  }

  @Test("an error is printed on a clean line, after the progress line is erased")
  func errorAfterErasing() throws {
    let scratch = try TemporaryDirectory()
    let damaged = scratch.path(for: "damaged.apkg")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("anki/latest_sched.apkg")))
    bytes = bytes.prefix(bytes.count / 2)
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let run = try CommandRun.deckportOnTerminal(
      ["convert", damaged, scratch.path(for: "deck.json")], environment: Self.showAtOnce)
    #expect(run.status == 1)
    let lastLine = run.standardError.components(separatedBy: "\r\u{1B}[K").last ?? ""
    #expect(lastLine.hasPrefix("deckport: error: \(damaged)"), "terminal: \(run.standardError.debugDescription)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["damaged.apkg"])
  }
}
