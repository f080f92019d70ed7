import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert and inspect with CSV")
struct CSVCommandTests {
  let scratch: TemporaryDirectory

  init() throws { scratch = try TemporaryDirectory() }

  func file(_ name: String, _ text: String) throws -> String {
    let path = scratch.path(for: name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("a spreadsheet with a header row becomes a deck in one command; inspect shows it")
  func spreadsheetToJSON() throws {
    let sheet = try file("words.csv", "Term,Definition\nle chat,the cat\nla maison,\"the house, the home\"\n")
    let output = scratch.path(for: "words.json")
    let run = try CommandRun.deckport([
      "convert", sheet, output, "--header", "--columns", "front,back", "--deck", "French",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError == "")
    #expect(run.standardOutput == "Wrote \(output) (json) from csv: 2 notes, 2 cards, 0 reviews, 0 media files\n")
    let inspect = try CommandRun.deckport(["inspect", sheet, "--header", "--deck", "French"])
    #expect(inspect.status == 0)
    #expect(inspect.standardOutput.contains("Format:   csv\nNotes:    2\nCards:    2\n"))
    #expect(inspect.standardOutput.contains("Decks with cards:\n  French\n"))
  }

  @Test("a sheet's schedule: read into a package, written back from it; a bad cell exits 1 naming it, writing nothing")
  func schedule() throws {
    let sheet = try file(
      "progress.csv", "Front,Back,Due,Interval,Ease\nle chat,the cat,2027-01-15,12,2.3\nla maison,the house,,,\n")
    let package = scratch.path(for: "progress.apkg")
    let run = try CommandRun.deckport(["convert", sheet, package, "--header"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError == "")
    let back = scratch.path(for: "back.csv")
    let write = try CommandRun.deckport([
      "convert", package, back, "--columns", "front,back,due,interval,ease,reviews,lapses",
    ])
    #expect(write.status == 0, "stderr: \(write.standardError)")
    #expect(
      try String(contentsOfFile: back, encoding: .utf8)
        == "le chat,the cat,2027-01-15,12,2.3,1,0\nla maison,the house,,,,,\n")

    let bad = try file("bad.csv", "Front,Back,Due,Interval\nle chat,the cat,2027-01-15,twelve\n")
    let output = scratch.path(for: "bad.apkg")
    let refused = try CommandRun.deckport(["convert", bad, output, "--header"])
    #expect(refused.status == 1)
    #expect(refused.standardError == "deckport: error: \(bad):2:28: the interval 'twelve' is not a whole number\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("a package becomes Anki's text format, with a warning per kind of loss; --strict refuses and writes nothing")
  func packageToTSV() throws {
    let output = scratch.path(for: "deck.txt")
    let run = try CommandRun.deckport(["convert", Fixtures.path("anki/latest_sched.apkg"), output, "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput
        == "Wrote \(output) (tsv) from apkg-latest: 9 notes, 15 cards, 0 reviews, 0 media files, 7 warnings\n")
    #expect(run.standardError.components(separatedBy: "\n").filter { $0.contains("warning: [csv-") }.count == 5)
    #expect(
      run.standardError.contains("warning: [anki-properties-dropped] what Anki keeps of 3 decks and 1 note type "))
    #expect(
      try String(contentsOfFile: output, encoding: .utf8).hasPrefix("#separator:tab\n#html:true\n#guid column:1\n"))

    let strictOutput = scratch.path(for: "strict.csv")
    let strict = try CommandRun.deckport(["convert", Fixtures.path("anki/latest_sched.apkg"), strictOutput, "--strict"])
    #expect(strict.status == 1)
    #expect(
      strict.standardError.hasSuffix(
        "deckport: error: \(strictOutput): --strict: 7 warnings (listed above); nothing was written\n"))
    #expect(!FileManager.default.fileExists(atPath: strictOutput))
  }

  @Test("bad input: exit status 1, the line and column, and no output file")
  func badInput() throws {
    let broken = try file("broken.csv", "#separator:,\nfront,back\n\"never closed,x\n")
    let output = scratch.path(for: "out.apkg")
    let run = try CommandRun.deckport(["convert", broken, output])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "deckport: error: \(broken):3:1: unterminated quote: the quoted field that starts here has no closing quote before the end of the file (near '\"never closed,x\\n')\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["broken.csv"])
  }

  @Test("bad option values are usage errors (exit status 64)")
  func usageErrors() throws {
    let sheet = try file("s.csv", "a,b\n")
    let separator = try CommandRun.deckport(["inspect", sheet, "--separator", "\""])
    #expect(separator.status == 64)
    #expect(separator.standardError.contains("--separator '\"' is not a separator"))
    let columns = try CommandRun.deckport([
      "convert", sheet, scratch.path(for: "o.json"), "--columns", "front,tags,tags",
    ])
    #expect(columns.status == 64)
    #expect(columns.standardError.contains("--columns 'front,tags,tags': the tags column is named twice"))
  }
}
