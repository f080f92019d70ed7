import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport with - for standard input and output")
struct StandardStreamsCommandTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  static func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test("convert deck.apkg - --to json: the deck on standard output, the summary on standard error, no file named -")
  func packageToStandardOutput() throws {
    let run = try CommandRun.deckport(["convert", Self.package, "-", "--to", "json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError == "Wrote <stdout> (json) from apkg-latest: 9 notes, 15 cards, 8 reviews, 6 media files\n")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    #expect(document?["format"] as? String == "deckport-deck")
    #expect((document?["notes"] as? [Any])?.count == 9)
    #expect(!FileManager.default.fileExists(atPath: "-"))

    // The same bytes as the file a named output gets.
    let scratch = try TemporaryDirectory()
    let named = scratch.path(for: "deck.json")
    #expect(try CommandRun.deckport(["convert", Self.package, named]).status == 0)
    #expect(Data(run.standardOutput.utf8) == (try Self.bytes(named)))
  }

  @Test("cat deck.apkg | deckport inspect -: the same summary as inspecting the file")
  func inspectStandardInput() throws {
    let piped = try CommandRun.deckport(["inspect", "-"], standardInput: try Self.bytes(Self.package))
    let named = try CommandRun.deckport(["inspect", Self.package])
    #expect(piped.status == 0, "stderr: \(piped.standardError)")
    #expect(piped.standardOutput == named.standardOutput)
    #expect(piped.standardOutput.hasPrefix("Format:   apkg-latest\nNotes:    9\n"))
  }

  @Test("a package from standard input converts; messages name <stdin>")
  func packageFromStandardInput() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.csv")
    let run = try CommandRun.deckport(["convert", "-", output], standardInput: try Self.bytes(Self.package))
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.hasPrefix("Wrote \(output) (csv) from apkg-latest: 9 notes"))
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test("from standard input to standard output: a CSV (--from csv) becomes a TSV")
  func pipeToPipe() throws {
    let sheet = Data("front,back\nchat,cat\nchien,dog\n".utf8)
    let run = try CommandRun.deckport(
      ["convert", "-", "-", "--from", "csv", "--to", "tsv", "--header", "--columns", "front,back", "--deck", "French"],
      standardInput: sheet)
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("chat\tcat"))
    #expect(run.standardOutput.contains("chien\tdog"))
    // Messages go to standard error, naming the output <stdout>.
    #expect(
      run.standardError.contains(
        "deckport: <stdout>: warning: [csv-columns] decks are not written (no deck column): 'French'\n"))
    #expect(
      run.standardError.hasSuffix(
        "Wrote <stdout> (tsv) from csv: 2 notes, 2 cards, 0 reviews, 0 media files, 2 warnings\n"))
  }

  @Test("damaged input on standard input: the error names <stdin> and its member; nothing on standard output")
  func damagedStandardInput() throws {
    let scratch = try TemporaryDirectory()
    let damaged = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(
      Self.package, to: damaged, applying: .init(replace: ["collection.anki21b": Data("not zstd".utf8)]))
    let run = try CommandRun.deckport(["convert", "-", "-", "--to", "json"], standardInput: try Self.bytes(damaged))
    #expect(run.status == 1)
    #expect(run.standardError.hasPrefix("deckport: error: <stdin>: member 'collection.anki21b': not a zstd frame"))
    #expect(run.standardOutput.isEmpty)

    let unknown = try CommandRun.deckport(["inspect", "-"], standardInput: Data("hello\n".utf8))
    #expect(unknown.status == 1)
    #expect(
      unknown.standardError
        == "deckport: error: <stdin>: cannot tell the format from the name or the content; name it with --from (one of: apkg, colpkg, json, json-dir, crowdanki, csv, tsv, plist, app-json, sqlite, core-data, app)\n"
    )
  }

  @Test(
    "- as the output needs --to and a deck format: usage errors (exit status 64)",
    arguments: [
      (["--to", "plist"], "Error: plist is app storage, written into a file in place; name a file, not -."),
      ([], "Error: Writing to standard output (-) needs the output format: --to FORMAT."),
      (
        ["--to", "json", "--json"],
        "Error: --json prints on standard output, where the deck goes; use one or the other."
      ),
    ])
  func standardOutputUsage(extra: [String], message: String) throws {
    let run = try CommandRun.deckport(["convert", Self.package, "-"] + extra)
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix(message + "\n"))
    #expect(run.standardOutput.isEmpty)
  }

  @Test("a reader that stops early (| head -c 100): deckport ends quietly with status 0")
  func readerGoesAway() throws {
    // A deck whose JSON (about 1 MB) is far more than a pipe holds, so writes fail with EPIPE.
    let deck = Fixtures.path("real/french-phrases-latest.apkg")
    let script =
      "set -o pipefail; '\(Fixtures.deckportExecutable)' convert '\(deck)' - --to json | head -c 100 >/dev/null"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let error = Pipe()
    process.standardError = error
    try process.run()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "stderr: \(message)")
    #expect(!message.contains("error"))
  }
}
