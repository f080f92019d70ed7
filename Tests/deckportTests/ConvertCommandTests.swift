import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert")
struct ConvertCommandTests {
  @Test("package -> JSON, then inspect the JSON: same counts, format json")
  func packageToJSON() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    let run = try CommandRun.deckport(["convert", Fixtures.path("anki/latest_sched.apkg"), output])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput == "Wrote \(output) (json) from apkg-latest: 9 notes, 15 cards, 8 reviews, 6 media files\n")
    let inspect = try CommandRun.deckport(["inspect", output, "--json"])
    #expect(inspect.status == 0, "stderr: \(inspect.standardError)")
    let summary = try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any]
    #expect(summary?["format"] as? String == "json")
    #expect(summary?["notes"] as? Int == 9)
    #expect(summary?["reviews"] as? Int == 8)
    #expect(summary?["missingMedia"] as? [String] == ["missing.png"])
  }

  @Test("an existing output is kept unless --force is given")
  func refusesToOverwrite() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
    let refused = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy2_sched.apkg"), output])
    #expect(refused.status == 1)
    #expect(refused.standardError == "deckport: error: \(output): already exists; pass --force to replace it\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("precious".utf8))
    let forced = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy2_sched.apkg"), output, "--force"])
    #expect(forced.status == 0, "stderr: \(forced.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != Data("precious".utf8))
    #expect(try FolderContents.names(in: scratch.path) == ["deck.json"])
  }

  @Test("a failed conversion leaves nothing behind")
  func nothingPartial() throws {
    let scratch = try TemporaryDirectory()
    let damaged = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest_sched.apkg"), to: damaged,
      applying: .init(replace: ["collection.anki21b": Data("not zstd".utf8)]))
    let run = try CommandRun.deckport(["convert", damaged, scratch.path(for: "out.json")])
    #expect(run.status == 1)
    #expect(run.standardError.hasPrefix("deckport: error: \(damaged): member 'collection.anki21b': not a zstd frame"))
    #expect(try FolderContents.names(in: scratch.path) == ["damaged.apkg"])
  }

  @Test("the input is never the output")
  func neverOverwritesInput() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    #expect(try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), input]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: input))
    let run = try CommandRun.deckport(["convert", input, input, "--force"])
    #expect(run.status == 1)
    #expect(run.standardError == "deckport: error: \(input): is the input file; deckport never changes its input\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
  }

  @Test("--to cards writes Anki's Cards in Plain Text; --header or --columns with it is a usage error (64)")
  func cardsInPlainText() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "cards.txt")
    let written = try CommandRun.deckport(["convert", Fixtures.path("anki/latest.colpkg"), output, "--to", "cards"])
    #expect(written.status == 0, "stderr: \(written.standardError)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(text == (try String(contentsOfFile: Fixtures.path("csv/anki/latest_cards_html.txt"), encoding: .utf8)))
    for extra in [["--header"], ["--columns", "front,back"]] {
      let refused = try CommandRun.deckport(
        ["convert", Fixtures.path("anki/latest.colpkg"), scratch.path(for: "other.txt"), "--to", "cards"] + extra)
      #expect(refused.status == 64)
      #expect(refused.standardError.contains("--header and --columns do not apply"))
      #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "other.txt")))
    }
  }

  @Test(
    "a warning whose words hold another message names its settings as options (--header, not CSVOptions.hasHeaderRow)")
  func nestedMessageNamesOptions() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "numbered.csv")
    try Data("#,Front,Back\n1,hello,bonjour\n".utf8).write(to: URL(fileURLWithPath: input))
    let run = try CommandRun.deckport(["convert", input, scratch.path(for: "deck.json")])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.contains("[csv-comment-rows]") && run.standardError.contains("give --header,"))
    #expect(!run.standardError.contains("CSVOptions"))
  }

  @Test("an output name without a known extension is a usage error (64) that asks for --to and lists the formats")
  func unknownOutputFormat() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.out")
    let run = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), output])
    #expect(run.status == 64)
    #expect(
      run.standardError
        == "deckport: error: \(output): cannot tell the output format from the name; name it with --to (one of: apkg, apkg-modern, colpkg, colpkg-modern, json, json-dir, crowdanki, csv, tsv, cards, plist, app-json, sqlite, core-data)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    let unknown = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), output, "--to", "docx"])
    #expect(unknown.status == 64)
    #expect(
      unknown.standardError.hasPrefix(
        "Error: The value 'docx' is invalid for '--to <to>': not a format deckport writes (apkg, apkg-modern, colpkg,"))
    let unread = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), output, "--from", "apkg-modern",
    ])
    #expect(unread.status == 64)
    #expect(
      unread.standardError.contains(
        "not a format deckport reads (apkg, colpkg, json, json-dir, crowdanki, csv, tsv, plist, app-json, sqlite, core-data, app)"
      ))
    let named = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), output, "--to", "json"])
    #expect(named.status == 0, "stderr: \(named.standardError)")
  }

  @Test("--strict: warnings fail the conversion and nothing is written")
  func strict() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "renamed.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: input,
      applying: .init(replace: ["media": Data(#"{"0": "a:b.png"}"#.utf8)]))
    let output = scratch.path(for: "out.json")
    let strict = try CommandRun.deckport(["convert", input, output, "--strict"])
    #expect(strict.status == 1)
    #expect(strict.standardError.contains("warning: [media-renamed]"))
    #expect(strict.standardError.contains("--strict: 1 warning (listed above); nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let lenient = try CommandRun.deckport(["convert", input, output])
    #expect(lenient.status == 0)
    #expect(lenient.standardOutput.hasSuffix(", 1 warning\n"))
  }

  @Test("a bad JSON document: line and column, exit status 1")
  func badJSON() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "broken.json")
    try Data("{\n  \"format\": \"deckport-deck\",\n  \"version\": 1,\n  \"notes\": [}\n".utf8)
      .write(to: URL(fileURLWithPath: input))
    let run = try CommandRun.deckport(["convert", input, scratch.path(for: "out.json")])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "deckport: error: \(input):4:13: invalid JSON: expected a value (an object, array, string, number, true, false or null) (near '}\\n')\n"
    )
  }
}

@Suite("deckport and a reader that goes away")
struct ClosedPipeTests {
  @Test("standard output and error closed early: no SIGPIPE death, the conversion finishes with its own status")
  func closedPipes() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.csv")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.deckportExecutable)
    process.arguments = ["convert", Fixtures.path("anki/latest_sched.apkg"), output, "--verbose"]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    // Nobody will ever read: every write of the child fails with EPIPE.
    try out.fileHandleForReading.close()
    try err.fileHandleForReading.close()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(FileManager.default.fileExists(atPath: output))
  }
}
