import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// The times notes were last changed, which CSV, CrowdAnki and app storage have no place for:
/// named when the deck came from a format that holds them, and not when its reader made them
/// up from the file's time (found by a sweep: apkg → CSV → apkg changed every note's time with
/// no word).
@Suite("Modification times a format cannot hold")
struct ModificationTimeLossTests {
  @Test("an Anki package written as CSV, CrowdAnki or app storage names them, and --strict fails")
  func fromAPackage() throws {
    let scratch = try TemporaryDirectory()
    let package = Fixtures.path("real/mixed-note-types-legacy2.apkg")
    for (name, extra) in [
      ("deck.csv", []), ("folder", ["--to", "crowdanki"]), ("cards.plist", ["--profile", "flashzilla"]),
    ] {
      let run = try CommandRun.deckport(["convert", package, scratch.path(for: name), "--verbose"] + extra)
      #expect(run.status == 0, "stderr: \(run.standardError)")
      #expect(
        run.standardError.contains(
          "warning: [modification-times-dropped] the modification times of 8 notes and 4 note types (when each was last changed) are not kept"
        ), "\(name): \(run.standardError)")
    }
    let strict = try CommandRun.deckport(["convert", package, scratch.path(for: "strict.csv"), "--strict"])
    #expect(strict.status == 1 && strict.standardError.contains("[modification-times-dropped]"))
  }

  @Test("not named where the source holds none of its own: CSV to CSV, or a JSON note without 'modified'")
  func noTimesOfTheirOwn() throws {
    let scratch = try TemporaryDirectory()
    let sheet = scratch.path(for: "in.csv")
    try Data("#separator:comma\nhello,bonjour\n".utf8).write(to: URL(fileURLWithPath: sheet))
    let again = try CommandRun.deckport(["convert", sheet, scratch.path(for: "out.csv")])
    #expect(again.status == 0 && !again.standardError.contains("modification-times"), "\(again.standardError)")
    let document = scratch.path(for: "deck.json")
    try writeDocument(notes: #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}}"#, to: document)
    let plist = try CommandRun.deckport(["convert", document, scratch.path(for: "Cards.plist"), "--strict"])
    #expect(plist.status == 0, "\(plist.standardError)")
    // A note of the JSON deck with a time of its own is named.
    try writeDocument(
      notes: #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}, "modified": 1700000000}"#, to: document)
    let timed = try CommandRun.deckport(["convert", document, scratch.path(for: "timed.csv")])
    #expect(timed.standardError.contains("the modification times of 1 note (when each was last changed)"))
  }

  @Test("a json-dir folder whose note files say no 'modified': each note's time is its file's, none is named")
  func folderNotesWithoutTimes() throws {
    let scratch = try TemporaryDirectory()
    let document = scratch.path(for: "deck.json")
    try writeDocument(
      notes:
        #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}}, {"noteType": "Basic", "fields": {"Front": "c", "Back": "d"}}"#,
      to: document)
    let folder = scratch.path(for: "folder")
    let split = try CommandRun.deckport(["convert", document, folder, "--to", "json-dir"])
    #expect(split.status == 0, "\(split.standardError)")
    // Each note file of another day than the folder's.
    var day = 0.0
    let changed = try removeModified(inNotesOf: folder) { _ in
      defer { day += 1 }
      return Date(timeIntervalSince1970: 1_700_000_000 + day * 86_400)
    }
    #expect(changed == 2)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_800_000_000)], ofItemAtPath: folder)
    let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.csv"), "--strict"])
    #expect(run.status == 0, "\(run.standardError)")
  }

  @Test("a json-dir note with a time of its own is named, whatever the times of the folder's other files")
  func folderNoteWithItsOwnTime() throws {
    let scratch = try TemporaryDirectory()
    let document = scratch.path(for: "deck.json")
    try writeDocument(
      notes: #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}, "modified": 1700000000}"#, to: document)
    let folder = scratch.path(for: "folder")
    #expect(try CommandRun.deckport(["convert", document, folder, "--to", "json-dir"]).status == 0)
    // A deck file of the note's second is not a note file: the note's time is still its own.
    for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/decks") {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: folder + "/decks/" + name)
    }
    let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.csv")])
    #expect(run.standardError.contains("the modification times of 1 note"), "\(run.standardError)")
  }

  @Test("a note whose own time is its file's second is named: the reader says which notes it timed, not the clock")
  func ownTimeOfTheFilesSecond() throws {
    let scratch = try TemporaryDirectory()
    let document = scratch.path(for: "deck.json")
    try writeDocument(
      notes:
        #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}, "modified": 1700000000}, {"noteType": "Basic", "fields": {"Front": "c", "Back": "d"}}"#,
      to: document)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: document)
    let run = try CommandRun.deckport(["convert", document, scratch.path(for: "out.csv")])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("the modification times of 1 note (when"), "\(run.standardError)")

    // In a json-dir folder: the note with its own time has the second of the other note's file,
    // whose note says no 'modified'.
    let folder = scratch.path(for: "folder")
    #expect(try CommandRun.deckport(["convert", document, folder, "--to", "json-dir"]).status == 0)
    let changed = try removeModified(inNotesOf: folder) { note in
      (note["fields"] as? [String: Any])?["Front"] as? String == "c" ? Date(timeIntervalSince1970: 1_700_000_000) : nil
    }
    #expect(changed == 1)
    let fromFolder = try CommandRun.deckport(["convert", folder, scratch.path(for: "folder.csv")])
    #expect(fromFolder.status == 0, "\(fromFolder.standardError)")
    #expect(fromFolder.standardError.contains("the modification times of 1 note (when"), "\(fromFolder.standardError)")
  }

  @Test("an app that loads a JSON deck and writes it is told the same: notes the reader timed are not named")
  func libraryWriteOfALoadedDeck() throws {
    let scratch = try TemporaryDirectory()
    let document = scratch.path(for: "deck.json")
    try writeDocument(
      notes:
        #"{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}}, {"noteType": "Basic", "fields": {"Front": "c", "Back": "d"}, "modified": 1700000000}"#,
      to: document)
    let deck = try DeckLoader().load(path: document)
    #expect(deck.notesTimedByReader.count == 1)
    #expect(deck.collection.notes.filter { deck.notesTimedByReader.contains($0.id) }.map(\.fields) == [["a", "b"]])
    let report = try DeckConverter().write(deck, to: scratch.path(for: "out.csv"))
    let named = report.warnings.filter { $0.category == "modification-times-dropped" }
    #expect(named.count == 1 && named[0].message.contains("of 1 note (when"), "\(report.warnings)")
  }

  /// Writes a JSON deck document whose `notes` array holds `notes` (its elements' text) to `path`.
  private func writeDocument(notes: String, to path: String) throws {
    let text = #"{"format": "deckport-deck", "version": 1, "notes": ["# + notes + "]}"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// Removes `modified` from the note of each note file of the json-dir `folder` for which `time`
  /// gives a time, and gives the file that time; returns how many it changed.
  private func removeModified(inNotesOf folder: String, time: ([String: Any]) -> Date?) throws -> Int {
    let notesFolder = folder + "/notes"
    var changed = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: notesFolder).sorted() {
      let path = notesFolder + "/" + name
      var file = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
      var note = try #require(file["note"] as? [String: Any])
      guard let date = time(note), note.removeValue(forKey: "modified") != nil else { continue }
      file["note"] = note
      try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
      changed += 1
    }
    return changed
  }
}
