import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport diff")
struct DiffCommandTests {
  private static let deck = Fixtures.path("anki/latest_sched.apkg")

  @Test("the same deck in another format: 'No differences.', exit status 0")
  func equalDecks() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let copy = scratch.path(for: "copy.json")
    #expect(try CommandRun.deckport(["convert", Self.deck, copy, "--quiet"]).status == 0)
    let run = try CommandRun.deckport(["diff", Self.deck, copy])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.split(separator: "\n").contains("No differences."))
    #expect(run.standardError.isEmpty)
  }

  @Test("different decks: exit status 1; text, --stat and --json agree")
  func differentDecks() throws {
    let other = Fixtures.path("anki/latest_nosched.apkg")
    let text = try CommandRun.deckport(["diff", Self.deck, other])
    #expect(text.status == 1, "stderr: \(text.standardError)")
    #expect(text.standardOutput.contains("\nReviews: 8 removed\n"))
    // 8 cards lose their scheduling, 2 more their flag (Anki's export without scheduling
    // clears both, and the new-card position kept in a studied card's data).
    #expect(text.standardOutput.contains("\nScheduling (cards): 10 changed\n"))
    #expect(text.standardOutput.contains("\n  ~ card An7DBu|ids #1: flags 3 → 0\n"))
    let stat = try CommandRun.deckport(["diff", Self.deck, other, "--stat"])
    #expect(stat.status == 1)
    #expect(stat.standardOutput.contains("\nreviews:    0 added, 8 removed, 0 changed\n"))
    #expect(stat.standardOutput.contains("\ncards:      0 added, 0 removed, 10 changed\n"))
    #expect(!stat.standardOutput.contains("review 1"))
    let json = try CommandRun.deckport(["diff", Self.deck, other, "--json"])
    #expect(json.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["equal"] as? Bool == false)
    #expect((object["reviews"] as? [String: Any])?["removed"] as? [Any] != nil)
    let counts = try #require(object["counts"] as? [String: [String: Int]])
    #expect(counts["reviews"] == ["added": 0, "removed": 8, "changed": 0])
    #expect(counts["cards"]?["changed"] == 10)
    let statJSON = try CommandRun.deckport(["diff", Self.deck, other, "--stat", "--json"])
    let statObject = try #require(
      try JSONSerialization.jsonObject(with: Data(statJSON.standardOutput.utf8)) as? [String: Any])
    #expect(Set(statObject.keys) == ["from", "to", "equal", "counts", "notCompared", "ankiImport"])
    #expect(statObject["counts"] as? [String: [String: Int]] == counts)
    // Anki's import of the deck without scheduling: every note kept as it is, the same counts
    // in both forms.
    let importCounts = try #require((object["ankiImport"] as? [String: Any])?["counts"] as? [String: Int])
    #expect(statObject["ankiImport"] as? [String: Int] == importCounts)
    #expect(importCounts == ["new": 0, "updated": 0, "kept": 9, "conflicting": 0])
  }

  @Test(
    "--anki-update-notes, --anki-update-note-types and --anki-merge-note-types reach the preview; another value is a usage error"
  )
  func updateChoices() throws {
    let other = Fixtures.path("anki/latest_nosched.apkg")
    let run = try CommandRun.deckport([
      "diff", Self.deck, other, "--json", "--anki-update-notes", "never", "--anki-update-note-types", "always",
      "--anki-merge-note-types",
    ])
    #expect(run.status == 1, "stderr: \(run.standardError)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let preview = try #require(object["ankiImport"] as? [String: Any])
    let options = try #require(preview["options"] as? [String: Any])
    #expect(options["updateNotes"] as? String == "never")
    #expect(options["updateNoteTypes"] as? String == "always")
    #expect(options["mergeNoteTypes"] as? Bool == true)
    #expect(preview["noteTypesMerged"] as? [Any] != nil)
    // The deck without scheduling also lost a note's tag; with updates off Anki keeps the note.
    let notes = try #require(preview["notesNotTaken"] as? [[String: Any]])
    #expect(notes.map { $0["reason"] as? String } == ["updates-off"])
    let wrong = try CommandRun.deckport(["diff", Self.deck, other, "--anki-update-notes", "sometimes"])
    #expect(wrong.status == 64)
    #expect(wrong.standardError.contains("'if-newer', 'always' or 'never'"))
  }

  @Test("an unreadable input: one error line naming it, exit status 2 (not 1, which means 'different')")
  func unreadableInput() throws {
    let run = try CommandRun.deckport(["diff", Self.deck, "/nonexistent/deck.apkg"])
    #expect(run.status == 2)
    #expect(run.standardError == "deckport: error: /nonexistent/deck.apkg: no such file\n")
    #expect(run.standardOutput.isEmpty)
  }

  @Test("--strict: warnings from reading either deck end with exit status 2")
  func strictWarnings() throws {
    let sheet = Fixtures.path("csv/anki/latest_notes_all.txt")
    let lenient = try CommandRun.deckport(["diff", Self.deck, sheet])
    #expect(lenient.status == 0, "stdout: \(lenient.standardOutput) stderr: \(lenient.standardError)")
    #expect(lenient.standardError.contains("warning: [csv-note-type]"))
    #expect(lenient.standardOutput.contains("  scheduling: not compared (tsv holds none)\n"))
    let strict = try CommandRun.deckport(["diff", Self.deck, sheet, "--strict"])
    #expect(strict.status == 2)
    // The help says so, and convert's keeps its own status.
    let help = try CommandRun.deckport(["diff", "--help"]).standardOutput
    #expect(help.contains("Fail (exit status 2) when anything could not be read"), "\(help)")
    let convertHelp = try CommandRun.deckport(["convert", "--help"]).standardOutput
    #expect(convertHelp.contains("Fail (exit status 1) when anything could not be read"), "\(convertHelp)")
  }

  @Test("--from once for both decks, twice for each in turn; three times is a usage error")
  func fromOption() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let package = scratch.path(for: "deck.data")
    let document = scratch.path(for: "deck.text")
    try FileManager.default.copyItem(atPath: Self.deck, toPath: package)
    #expect(try CommandRun.deckport(["convert", Self.deck, document, "--to", "json", "--quiet"]).status == 0)
    #expect(try CommandRun.deckport(["diff", package, package, "--from", "apkg"]).status == 0)
    let both = try CommandRun.deckport(["diff", package, document, "--from", "apkg", "--from", "json"])
    #expect(both.status == 0, "stderr: \(both.standardError)")
    let three = try CommandRun.deckport([
      "diff", package, document, "--from", "apkg", "--from", "json", "--from", "csv",
    ])
    #expect(three.status == 64)
  }

  @Test("- reads one deck from standard input")
  func standardInput() throws {
    let run = try CommandRun.deckport(
      ["diff", "-", Self.deck], standardInput: try Data(contentsOf: URL(fileURLWithPath: Self.deck)))
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.hasPrefix("from: <stdin> (apkg-latest)\n"))
    #expect(try CommandRun.deckport(["diff", "-", "-"]).status == 64)
  }

  @Test("field text holding terminal controls is printed visibly")
  func hostileText() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let before = scratch.path(for: "before.csv")
    let after = scratch.path(for: "after.csv")
    try "#separator:comma\n#guid column:1\nabc,front,back\n".write(toFile: before, atomically: true, encoding: .utf8)
    try "#separator:comma\n#guid column:1\nabc,front\u{1B}[2J\u{07},back\n".write(
      toFile: after, atomically: true, encoding: .utf8)
    let run = try CommandRun.deckport(["diff", before, after])
    #expect(run.status == 1, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("      Front: \"front\" → \"front\\e[2J\\u{07}\"\n"))
    #expect(
      !run.standardOutput.unicodeScalars.contains("\u{1B}") && !run.standardOutput.unicodeScalars.contains("\u{07}"))
  }
}
