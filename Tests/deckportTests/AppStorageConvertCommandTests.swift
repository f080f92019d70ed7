import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// `deckport convert` between Anki decks and app storage (plist, JSON file, SQLite, stores).
@Suite("deckport convert: decks and app storage")
struct AppStorageConvertCommandTests {
  static func summary(_ path: String) throws -> [String: Any] {
    let run = try CommandRun.deckport(["inspect", path, "--json"])
    #expect(run.status == 0, "inspect \(path): \(run.standardError)")
    return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any] ?? [:]
  }

  @Test("an Anki deck becomes Flashzilla cards in a UserDefaults plist, and comes back")
  func deckToFlashzillaPlistAndBack() throws {
    let scratch = try TemporaryDirectory()
    let plist = scratch.path(for: "cards.plist")
    let toPlist = try CommandRun.deckport([
      "convert", Fixtures.path("anki/latest_sched.apkg"), plist, "--profile", "flashzilla",
    ])
    #expect(toPlist.status == 0, "stderr: \(toPlist.standardError)")
    #expect(toPlist.standardOutput.hasPrefix("Wrote \(plist) (plist) from apkg-latest: 9 notes"))
    // What a Flashzilla card cannot hold is reported, never dropped silently.
    #expect(toPlist.standardError.contains("warning:"))

    let plistSummary = try Self.summary(plist)
    #expect(plistSummary["format"] as? String == "app-plist")
    #expect(plistSummary["notes"] as? Int == 9)

    let back = scratch.path(for: "back.apkg")
    let toDeck = try CommandRun.deckport(["convert", plist, back, "--profile", "flashzilla"])
    #expect(toDeck.status == 0, "stderr: \(toDeck.standardError)")
    #expect(try Self.summary(back)["notes"] as? Int == 9)
  }

  @Test("an Anki deck with images -> NeoMnemo store -> Anki deck keeps every image's bytes")
  func deckWithImagesThroughNeoMnemoStore() throws {
    let scratch = try TemporaryDirectory()
    // A store the app created: deckport only inserts into it.
    let store = scratch.path(for: "neomnemo.store")
    try FileManager.default.copyItem(atPath: Fixtures.path("app/neomnemo.store"), toPath: store)
    // Core Data keeps external-storage blobs in a folder beside the store.
    try FileManager.default.copyItem(
      atPath: Fixtures.path("app/.neomnemo_SUPPORT"), toPath: scratch.path(for: ".neomnemo_SUPPORT"))
    let before = try Self.summary(store)["notes"] as? Int ?? -1

    let source = Fixtures.path("anki/legacy2_sched.apkg")
    let fill = try CommandRun.deckport(["convert", source, store, "--profile", "neomnemo", "--backup"])
    #expect(fill.status == 0, "stderr: \(fill.standardError)")
    #expect(try Self.summary(store)["notes"] as? Int == before + 9)

    let back = scratch.path(for: "back.apkg")
    let toDeck = try CommandRun.deckport(["convert", store, back, "--profile", "neomnemo"])
    #expect(toDeck.status == 0, "stderr: \(toDeck.standardError)")

    // Every picture the source notes show arrives as a media file with the same bytes, or a
    // warning names it (a NeoMnemo record holds one image; a note with two keeps the first).
    let reader = try ZipReader(path: source, location: .init(file: source))
    let map =
      try JSONSerialization.jsonObject(with: reader.readAll("media", limit: 1 << 20)) as? [String: String] ?? [:]
    var sourceImages: [String: String] = [:]
    for (member, name) in map where name.hasSuffix(".png") {
      sourceImages[name] = SHA1.hex(SHA1.digest(try reader.readAll(member, limit: 1 << 24)))
    }
    let backReader = try ZipReader(path: back, location: .init(file: back))
    let backMap =
      try JSONSerialization.jsonObject(with: backReader.readAll("media", limit: 1 << 20)) as? [String: String] ?? [:]
    let backImages = Set(try backMap.keys.map { SHA1.hex(SHA1.digest(try backReader.readAll($0, limit: 1 << 24))) })
    #expect(sourceImages.count == 4)
    var arrived = 0
    for (name, digest) in sourceImages.sorted(by: { $0.key < $1.key }) {
      if backImages.contains(digest) {
        arrived += 1
      } else if !fill.standardError.contains("[media-dropped] refers to \(name)") {
        Issue.record("\(name) was lost on the way through the store without a warning naming it")
      }
    }
    #expect(arrived >= 3)
  }

  /// A field that is a picture or sound alone becomes data; a JSON file (and JSON data in a
  /// plist) holds it as base64 text, which a file without a profile reads back as text. The
  /// second write matched such a record with nothing, and added it again: the file grew by
  /// every picture on each import.
  @Test(
    "a deck with pictures written twice into an app's file without a profile: the second write changes nothing",
    arguments: [("anki/latest_sched.apkg", "app-json", 9), ("real/spanish-audio-latest.apkg", "plist", 5)])
  func secondWriteOfPicturesChangesNothing(deck: String, format: String, records: Int) throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: format == "plist" ? "cards.plist" : "cards.json")
    let first = try CommandRun.deckport(["convert", Fixtures.path(deck), output, "--to", format])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("\(records) added, 0 updated, 0 unchanged"), "\(first.standardOutput)")
    // The file holds a picture or sound as base64 text.
    let written = try Data(contentsOf: URL(fileURLWithPath: output))
    let attributes = try FileManager.default.attributesOfItem(atPath: output)
    let second = try CommandRun.deckport(["convert", Fixtures.path(deck), output, "--to", format, "--force"])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardOutput.contains("0 added, 0 updated, \(records) unchanged"), "\(second.standardOutput)")
    #expect(second.standardOutput.contains("as it was: it already holds every record"), "\(second.standardOutput)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == written)
    let after = try FileManager.default.attributesOfItem(atPath: output)
    #expect(after[.systemFileNumber] as? Int == attributes[.systemFileNumber] as? Int)
  }

  /// A deck of two notes; the second's Back is `back` (text, or a picture's `<img>` tag).
  private static func twoNotes(back: String) -> String {
    #"""
    {"format": "deckport-deck", "version": 1,
     "notes": [{"noteType": "Basic", "fields": {"Front": "hello", "Back": "world"}},
               {"noteType": "Basic", "fields": {"Front": "cat", "Back": "\#(back)"}}],
     "media": [{"name": "pixel.png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"}]}
    """#
  }

  /// Only storage of JSON text holds a picture as base64 text: into deckport's SQLite file and a
  /// native plist (both hold bytes), a picture under a key whose values were text goes in as its
  /// bytes, and comes back as the picture. (A regression of the fix above, found in review: the
  /// base64 text went into every kind of storage.)
  @Test(
    "a picture under a key of text stays a picture in SQLite and in a native plist", arguments: ["sqlite", "plist"])
  func pictureUnderTextKeyStaysBytes(format: String) throws {
    let scratch = try TemporaryDirectory()
    let text = scratch.path(for: "text.json")
    let picture = scratch.path(for: "picture.json")
    try Data(Self.twoNotes(back: "dog").utf8).write(to: URL(fileURLWithPath: text))
    try Data(Self.twoNotes(back: #"<img src=\"pixel.png\">"#).utf8).write(to: URL(fileURLWithPath: picture))
    let output = scratch.path(for: "cards.\(format)")
    let first = try CommandRun.deckport(
      ["convert", text, output] + (format == "plist" ? ["--plist-style", "native"] : []))
    #expect(first.status == 0, "\(first.standardError)")
    let second = try CommandRun.deckport(["convert", picture, output, "--force"])
    #expect(second.status == 0, "\(second.standardError)")
    let back = scratch.path(for: "back.json")
    let read = try CommandRun.deckport(["convert", output, back])
    #expect(read.status == 0, "\(read.standardError)")
    let deck = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: back))) as? [String: Any])
    let media = try #require(deck["media"] as? [[String: Any]])
    #expect(media.count == 1, "the picture comes back as a media file")
    #expect(media.first?["sha1"] as? String == "58a8ca82092f68cfa7768eb2c097879aa6bdc556")
    let fields = (deck["notes"] as? [[String: Any]] ?? []).compactMap { $0["fields"] as? [String: String] }
    #expect(!fields.contains { ($0["Back"] ?? "").hasPrefix("iVBORw0KGgo") }, "\(fields)")
  }

  /// An app's JSON file before its first card (`[]`, as `JSONEncoder` writes an empty array) is
  /// an empty deck in every format: no note type without fields, which no Anki format can hold.
  /// Records without keys make no note, and say so.
  @Test("an app file without records, or of records without keys, converts to every deck format", arguments: [0, 2])
  func emptyRecordsConvert(records: Int) throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "cards.json")
    try Data(("[" + Array(repeating: "{}", count: records).joined(separator: ",") + "]").utf8)
      .write(to: URL(fileURLWithPath: input))
    let inspected = try CommandRun.deckport(["inspect", input, "--json"])
    #expect(inspected.status == 0, "\(inspected.standardError)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(inspected.standardOutput.utf8)) as? [String: Any])
    #expect(summary["notes"] as? Int == 0)
    #expect((summary["noteTypes"] as? [Any])?.isEmpty == true, "\(inspected.standardOutput)")
    let warning = "warning: [records-without-keys] 2 records hold no keys, so no note is made of them"
    #expect(inspected.standardError.contains(warning) == (records > 0), "\(inspected.standardError)")
    for (output, format) in [
      ("deck.apkg", "apkg"), ("deck.colpkg", "colpkg"), ("folder", "crowdanki"), ("deck.json", "json"),
    ] {
      let run = try CommandRun.deckport(["convert", input, scratch.path(for: output), "--to", format])
      #expect(run.status == 0, "\(format): \(run.standardError)")
      #expect(run.standardOutput.contains("0 notes, 0 cards"), "\(format): \(run.standardOutput)")
    }
    let strict = try CommandRun.deckport(["convert", input, scratch.path(for: "strict.colpkg"), "--strict"])
    #expect(strict.status == (records > 0 ? 1 : 0), "\(strict.standardError)")
  }

  @Test("an existing app file is changed only with --backup or --force")
  func refusesExistingWithoutBackup() throws {
    let scratch = try TemporaryDirectory()
    let plist = scratch.path(for: "prefs.plist")
    try FileManager.default.copyItem(atPath: Fixtures.path("app/flashzilla-binary.plist"), toPath: plist)
    let original = try Data(contentsOf: URL(fileURLWithPath: plist))
    let refused = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), plist, "--profile", "flashzilla",
    ])
    #expect(refused.status == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: plist)) == original)
    let backedUp = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), plist, "--profile", "flashzilla", "--key", "Cards", "--backup",
    ])
    #expect(backedUp.status == 0, "stderr: \(backedUp.standardError)")
    let backups = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
      $0.hasPrefix("prefs.plist.backup-")
    }
    #expect(backups.count == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path(for: backups.first ?? "-"))) == original)
  }

  @Test("an app's existing .json file of records takes records, not a deck written over it; --to json replaces it")
  func existingJSONRecordsTakeRecords() throws {
    let scratch = try TemporaryDirectory()
    let cards = scratch.path(for: "cards.json")
    let held = #"[{"prompt":"Capital of Peru?","answer":"Lima","level":3}]"#
    try Data(held.utf8).write(to: URL(fileURLWithPath: cards))
    let deck = scratch.path(for: "deck.json")
    let made = try CommandRun.deckport(["convert", cards, deck])
    #expect(made.status == 0, "stderr: \(made.standardError)")
    // Edited in the deck, a note goes back into the app's file: the record is updated, still an
    // array of records the app decodes, its level still a number.
    let document = try String(contentsOfFile: deck, encoding: .utf8).replacingOccurrences(
      of: "Lima", with: "Lima, Peru")
    try Data(document.utf8).write(to: URL(fileURLWithPath: deck))
    let back = try CommandRun.deckport(["convert", deck, cards, "--force", "--match-key", "prompt"])
    #expect(back.status == 0, "stderr: \(back.standardError)")
    #expect(back.standardOutput.contains("Wrote \(cards) (app-json) from json"), "\(back.standardOutput)")
    #expect(back.standardOutput.contains("0 added, 1 updated, 0 unchanged"), "\(back.standardOutput)")
    #expect(
      try String(contentsOfFile: cards, encoding: .utf8)
        == #"[{"prompt":"Capital of Peru?","answer":"Lima, Peru","level":3}]"#)
    // Named, the deck format replaces the file.
    let replaced = try CommandRun.deckport(["convert", deck, cards, "--to", "json", "--force"])
    #expect(replaced.status == 0, "stderr: \(replaced.standardError)")
    #expect(try String(contentsOfFile: cards, encoding: .utf8).contains(#""format": "deckport-deck""#))
  }

  @Test("a failed write with --backup leaves the store untouched and no backup beside it")
  func failedWriteRemovesItsBackup() throws {
    let scratch = try TemporaryDirectory()
    let store = scratch.path(for: "quiz.sqlite")
    try FileManager.default.copyItem(atPath: Fixtures.path("app/flashcard-quiz.sqlite"), toPath: store)
    let original = try Data(contentsOf: URL(fileURLWithPath: store))
    // The generic profile's keys (Front, Back, …) are not properties of the entity: the write
    // fails after the backup was made.
    for _ in 1...2 {
      let run = try CommandRun.deckport([
        "convert", Fixtures.path("anki/latest_sched.apkg"), store, "--to", "core-data", "--profile", "generic",
        "--entity", "Flashcard", "--backup",
      ])
      #expect(run.status == 1)
      #expect(
        run.standardError.contains(
          "deckport: error: \(store): table ZFLASHCARD: record 1, key 'Front': the entity Flashcard has no property for this key"
        ))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["quiz.sqlite"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == original)
  }

  @Test(
    "a store without a model cache, named .sqlite: found by content, the profile's keys fill its columns, a second import adds nothing"
  )
  func storeWithoutModelCacheTakesProfileKeys() throws {
    let scratch = try TemporaryDirectory()
    let store = scratch.path(for: "Model.sqlite")
    try FileManager.default.copyItem(atPath: Fixtures.path("app/flashcard-quiz.sqlite"), toPath: store)
    func rows() throws -> [[String]] {
      let query = try SQLiteDatabase(path: store, readOnly: true, location: SourceLocation(file: store))
        .prepare(
          "SELECT Z_PK, ZWORD, ZDEFINITION, ZWORDTYPERAW, typeof(ZCREATEDAT), ZCREATEDAT FROM ZFLASHCARD ORDER BY Z_PK")
      var rows: [[String]] = []
      while try query.step() { rows.append((0..<6).map { query.optionalText($0) ?? "NULL" }) }
      return rows
    }
    let before = try rows()
    // No --to: `.sqlite` alone would mean deckport's own SQLite layout; the content says Core Data.
    let arguments = ["convert", Fixtures.path("anki/legacy1.apkg"), store, "--profile", "flashcard-quiz", "--force"]
    let first = try CommandRun.deckport(arguments)
    #expect(first.status == 0, "stderr: \(first.standardError)")
    #expect(first.standardOutput.contains("(core-data)"))
    #expect(first.standardOutput.contains("9 added, 0 updated, 0 unchanged"))
    let after = try rows()
    #expect(Array(after.prefix(before.count)) == before)
    let added = after.dropFirst(before.count)
    #expect(added.count == 9)
    // `createdAt` (the profile's key) lands in ZCREATEDAT as Core Data keeps a Date: seconds
    // since 2001 as a REAL; the note id 1795331276845 ms is 2026-11-22, 817,024,076.845 s.
    #expect(added.allSatisfy { $0[4] == "real" })
    #expect(added.contains { $0[1] == "Hello world & friends 🎉" && $0[5] == "817024076.845" && $0[3] == "phrase" })
    #expect(added.allSatisfy { $0[1] != "NULL" && $0[2] != "NULL" })

    let second = try CommandRun.deckport(arguments)
    #expect(second.status == 0, "stderr: \(second.standardError)")
    #expect(second.standardOutput.contains("0 added, 0 updated, 9 unchanged"))
    #expect(try rows() == after)
  }

  /// A warning of a write into app storage names the file written, as every writer's does, then
  /// the record type, and a note with its own note type (notes of several note types become
  /// records of one type named after the first).
  @Test("a warning of a write into app storage names the file, the record type and the note's own note type")
  func warningsNameTheFileWritten() throws {
    let scratch = try TemporaryDirectory()
    let deck = scratch.path(for: "deck.json")
    try Data(
      #"""
      {"format": "deckport-deck", "version": 1,
       "notes": [{"noteType": "Basic", "fields": {"Front": "hello", "Back": "world"}},
                 {"noteType": "Basic (and reversed card)", "fields": {"Front": "cat", "Back": "<img src=\"pixel.png\"> a cat"}}],
       "media": [{"name": "pixel.png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"}]}
      """#.utf8
    ).write(to: URL(fileURLWithPath: deck))
    let output = scratch.path(for: "cards.json")
    let run = try CommandRun.deckport(["convert", deck, output, "--to", "app-json", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let lines = run.standardError.split(separator: "\n").map(String.init)
    let dropped = try #require(lines.first { $0.contains("[media-dropped]") })
    #expect(dropped.hasPrefix("deckport: \(output): record type 'Basic', note "))
    #expect(
      dropped.contains(
        " (Basic (and reversed card)), field 'Back': warning: [media-dropped] refers to pixel.png beside other content")
    )
    let merged = try #require(lines.first { $0.contains("[note-types-merged]") })
    #expect(merged.hasPrefix("deckport: \(output): record type 'Basic': warning: [note-types-merged] "))
  }

  /// A real app's seed data (Vocable) holds two arrays of records: the error names `--key`, and
  /// `inspect` and `render` take it, as `convert`, `diff` and `migrate` do.
  @Test("inspect and render of a JSON file with records under two keys: the error names --key, and --key chooses")
  func inspectNamesKey() throws {
    let file = Fixtures.path("app/real/vocable-textpresets.json")
    let unnamed = try CommandRun.deckport(["inspect", file])
    #expect(unnamed.status == 1)
    #expect(
      unnamed.standardError
        == "deckport: error: \(file): several keys hold arrays of records ('phrases', 'categories'); name one with --key\n"
    )
    let phrases = try CommandRun.deckport(["inspect", file, "--key", "phrases", "--json"])
    #expect(phrases.status == 0, "\(phrases.standardError)")
    let summary = try JSONSerialization.jsonObject(with: Data(phrases.standardOutput.utf8)) as? [String: Any]
    #expect(summary?["notes"] as? Int == 62)
    #expect(summary?["decks"] as? [String] == ["phrases"])
    let categories = try CommandRun.deckport(["render", file, "--key", "categories", "-q"])
    #expect(categories.status == 0, "\(categories.standardError)")
    #expect(categories.standardOutput.contains("preset_C0B2A1A8-8333-4121-B4A8-FFFA185EB5D2"))
  }

  @Test("many warnings: the first five, then a count of the rest; --verbose shows all")
  func warningCount() throws {
    let scratch = try TemporaryDirectory()
    let arguments = [
      "convert", Fixtures.path("anki/latest_sched.apkg"), scratch.path(for: "cards.plist"), "--profile", "flashzilla",
    ]
    let run = try CommandRun.deckport(arguments)
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let lines = run.standardError.split(separator: "\n").map(String.init)
    #expect(lines.count == 6)
    #expect(lines.prefix(5).allSatisfy { $0.contains(": warning: [") })
    #expect(lines.last == "deckport: 13 more warnings (--verbose shows all)")
    #expect(run.standardOutput.contains(", 18 warnings\n"))

    let verbose = try CommandRun.deckport(arguments + ["--force", "--verbose"])
    #expect(verbose.standardError.split(separator: "\n").filter { $0.contains(": warning: [") }.count == 18)
    #expect(!verbose.standardError.contains("more warnings"))
  }
}
