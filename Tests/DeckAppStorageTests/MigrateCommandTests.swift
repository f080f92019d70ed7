import DeckAppStorage
import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@Suite("deckport migrate")
struct MigrateCommandTests {
  @Test("Flashzilla plist -> JSON -> SQLite -> plist: exit 0 each time, every card identical, the source unchanged")
  func roundTrip() throws {
    let scratch = try TemporaryDirectory()
    let source = try AppFixtures.copy("flashzilla-binary.plist", into: scratch, as: "prefs.plist")
    let before = try AppFixtures.snapshot(source)
    let steps = [
      (
        source, "cards.json",
        "Read 3 records from \(source): plist, key 'Cards' (JSON data in a binary plist), profile Flashzilla Card\nWrote 3 records to %@: JSON file, the top-level array; 3 added, 0 updated, 0 unchanged; verified: read back, every value equal\n"
      ),
      (
        "cards.json", "cards.sqlite",
        "Read 3 records from %s: JSON file, the top-level array, profile Flashzilla Card\nWrote 3 records to %@: deckport SQLite, record type 'cards'; 3 added, 0 updated, 0 unchanged; verified: read back, every value equal\n"
      ),
      (
        "cards.sqlite", "back.plist",
        "Read 3 records from %s: deckport SQLite, record type 'cards', profile Flashzilla Card\nWrote 3 records to %@: plist, key 'Cards' (JSON data in a binary plist); 3 added, 0 updated, 0 unchanged; verified: read back, every value equal\n"
      ),
    ]
    for (from, to, expected) in steps {
      let input = from.hasPrefix("/") ? from : scratch.path(for: from)
      let output = scratch.path(for: to)
      let run = try CommandRun.deckport(["migrate", input, output])
      #expect(run.status == 0, "stderr: \(run.standardError)")
      #expect(run.standardError == "")
      #expect(
        run.standardOutput
          == expected.replacingOccurrences(of: "%s", with: input).replacingOccurrences(of: "%@", with: output))
    }
    let original = try AppStorageReader().read(path: source).records.records
    #expect(try AppStorageReader().read(path: scratch.path(for: "back.plist")).records.records == original)
    #expect(original == AppFixtures.flashzillaRecords)
    #expect(try AppFixtures.snapshot(source) == before)
  }

  @Test(
    "records of one app's profile into a place holding another app's records are refused, each kind left as it was; without a profile they go beside",
    arguments: ["plist", "json", "sqlite"])
  func anotherAppsRecordsStay(kind: String) throws {
    let scratch = try TemporaryDirectory()
    let quiz = scratch.path(for: "quiz.json")
    try Data(#"[{"word": "run", "definition": "to move fast", "createdAt": 700000000, "wordTypeRaw": "verb"}]"#.utf8)
      .write(to: URL(fileURLWithPath: quiz))
    // Three Flashzilla cards in the destination kind.
    let destination = scratch.path(for: "cards.\(kind)")
    let seeded = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-binary.plist"), destination])
    #expect(seeded.status == 0, "stderr: \(seeded.standardError)")
    let before = try AppFixtures.snapshot(destination)
    // In an SQLite file, records of another name go into a record type of their own: named, the
    // cards' own.
    let place = kind == "sqlite" ? ["--entity", "Cards"] : []

    let refused = try CommandRun.deckport(["migrate", quiz, destination, "--force"] + place)
    #expect(refused.status == 1)
    #expect(
      refused.standardError.contains(
        "holds 3 records with the keys id, prompt, answer, which do not fit the profile Flashcard Quiz Flashcard (does not fit the profile Flashcard Quiz Flashcard: its keys are id, prompt, answer; the profile's are word, definition, createdAt, wordTypeRaw (required: word, definition)): written together, an app could decode neither kind, and writing only the new ones would lose these; nothing was written"
      ), "\(refused.standardError)")
    #expect(try AppFixtures.snapshot(destination) == before)

    let beside = try CommandRun.deckport(["migrate", quiz, destination, "--force", "--profile", "generic"] + place)
    #expect(beside.status == 0, "stderr: \(beside.standardError)")
    #expect(beside.standardError.contains("[records-unlike]"))
    let held = try AppStorageReader().read(
      path: destination, options: .init(entity: kind == "sqlite" ? "Cards" : nil, profile: .generic))
    #expect(held.records.records.count == 4)
  }

  @Test("a key names no place in a destination that is one array: its records stay beside the new ones")
  func keyIntoAnArray() throws {
    let scratch = try TemporaryDirectory()
    let source = try AppFixtures.copy("flashzilla-binary.plist", into: scratch, as: "prefs.plist")
    let deck = scratch.path(for: "deck.apkg")
    #expect(try CommandRun.deckport(["convert", source, deck]).status == 0)
    let kept = #"{"id":"A1B2C3D4-0000-0000-0000-000000000001","prompt":"keep me","answer":"1"}"#
    // The plist's key ('Cards') carries over to the destination; --key names one for convert.
    let runs: [(String, [String])] = [
      ("migrated.json", ["migrate", source]),
      ("converted.json", ["convert", deck, "--to", "app-json", "--profile", "flashzilla", "--key", "Deck"]),
    ]
    for (name, arguments) in runs {
      let destination = scratch.path(for: name)
      try Data("[\(kept)]".utf8).write(to: URL(fileURLWithPath: destination))
      let run = try CommandRun.deckport(Array(arguments.prefix(2)) + [destination, "--force"] + arguments.dropFirst(2))
      #expect(run.status == 0, "stderr: \(run.standardError)")
      #expect(run.standardOutput.contains("3 added, 0 updated, 0 unchanged"), "\(run.standardOutput)")
      let records = try AppStorageReader().read(path: destination).records.records
      #expect(records.count == 4)
      #expect(records.first?["prompt"] == .string("keep me"))
    }
    // A plist whose top value is one array (PropertyListEncoder's of [Card]), likewise.
    let arrayPlist = scratch.path(for: "array.plist")
    let card: [String: Any] = ["id": "A1B2C3D4-0000-0000-0000-000000000001", "prompt": "keep me", "answer": "1"]
    try PropertyListSerialization.data(fromPropertyList: [card], format: .binary, options: 0)
      .write(to: URL(fileURLWithPath: arrayPlist))
    let again = try CommandRun.deckport([
      "convert", deck, arrayPlist, "--profile", "flashzilla", "--key", "Deck", "--force",
    ])
    #expect(again.status == 0, "stderr: \(again.standardError)")
    #expect(try AppStorageReader().read(path: arrayPlist).records.records.count == 4)
  }

  @Test("records without a profile match whole, whatever their keys' order: a second import changes nothing")
  func wholeRecordsMatchInAnyKeyOrder() throws {
    let scratch = try TemporaryDirectory()
    // A real SwiftData store (VacuumTest), whose model gives the keys in another order.
    let store = scratch.path(for: "challenges.store")
    for suffix in ["", "-wal", "-shm"]
    where FileManager.default.fileExists(atPath: Fixtures.path("apple-stores/VacuumTest-challenges.store" + suffix)) {
      try FileManager.default.copyItem(
        atPath: Fixtures.path("apple-stores/VacuumTest-challenges.store" + suffix), toPath: store + suffix)
    }
    let records = scratch.path(for: "r.json")
    try Data(#"[{"name":"New one","id":"11111111-2222-3333-4444-555555555555"}]"#.utf8)
      .write(to: URL(fileURLWithPath: records))
    let held = try AppStorageReader().read(path: store).records.records.count
    var summaries: [String] = []
    for _ in 0..<2 {
      let run = try CommandRun.deckport(["migrate", records, store, "--force"])
      #expect(run.status == 0, "stderr: \(run.standardError)")
      summaries.append(String(run.standardOutput.split(separator: ";")[1].dropFirst()))
    }
    #expect(summaries == ["1 added, 0 updated, 0 unchanged", "0 added, 0 updated, 1 unchanged"])
    #expect(try AppStorageReader().read(path: store).records.records.count == held + 1)
    // JSON files likewise.
    let file = scratch.path(for: "ab.json")
    try Data(#"[{"a":"1","b":"2"}]"#.utf8).write(to: URL(fileURLWithPath: file))
    let reordered = scratch.path(for: "ba.json")
    try Data(#"[{"b":"2","a":"1"}]"#.utf8).write(to: URL(fileURLWithPath: reordered))
    let run = try CommandRun.deckport(["migrate", reordered, file, "--force"])
    #expect(run.standardOutput.contains("0 added, 0 updated, 1 unchanged"), "\(run.standardOutput)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == #"[{"a":"1","b":"2"}]"#)
  }

  @Test("--dry-run reports what would be written and writes nothing, not even a backup")
  func dryRun() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "cards.sqlite")
    let run = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-binary.plist"), output, "--dry-run"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput.hasSuffix(
        "Dry run: would write 3 records to \(output): deckport SQLite, record type 'Cards' (a new file); 3 added, 0 updated, 0 unchanged; verified in a scratch copy; nothing was written\n"
      ))
    #expect(try FolderContents.names(in: scratch.path).isEmpty)

    let existing = try AppFixtures.copy("flashzilla-xml.plist", into: scratch)
    let before = try AppFixtures.snapshot(existing)
    let again = try CommandRun.deckport([
      "migrate", AppFixtures.path("flashzilla-cards.json"), existing, "--dry-run", "--backup",
    ])
    #expect(again.status == 0, "stderr: \(again.standardError)")
    #expect(
      again.standardOutput.contains(
        "Dry run: would leave \(existing) as it is: plist, key 'Cards' (JSON data in an XML plist); 0 added, 0 updated, 3 unchanged; it already holds every record; nothing was written"
      ))
    #expect(try AppFixtures.snapshot(existing) == before)
    #expect(try FolderContents.names(in: scratch.path) == ["flashzilla-xml.plist"])
  }

  @Test(
    "a DEST that already holds every record is left as it was: the same bytes, file and time, no backup",
    arguments: ["flashzilla-xml.plist", "flashzilla-binary.plist", "flashzilla-cards.json"])
  func unchangedDestination(fixture: String) throws {
    let scratch = try TemporaryDirectory()
    let existing = try AppFixtures.copy(fixture, into: scratch)
    let before = try AppFixtures.snapshot(existing)
    let attributes = try FileManager.default.attributesOfItem(atPath: existing)
    let run = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-cards.json"), existing, "--backup"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("Left \(existing) as it was: "), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("0 added, 0 updated, 3 unchanged; it already holds every record\n"))
    #expect(try AppFixtures.snapshot(existing) == before)
    let after = try FileManager.default.attributesOfItem(atPath: existing)
    #expect(after[.systemFileNumber] as? Int == attributes[.systemFileNumber] as? Int)
    #expect(after[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
    #expect(try FolderContents.names(in: scratch.path) == [fixture])
  }

  @Test("an existing DEST is refused without --backup or --force, and left as it was")
  func refusal() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "cards.json")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
    let run = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-binary.plist"), output])
    #expect(run.status == 1)
    #expect(run.standardOutput == "")
    #expect(
      run.standardError
        == "deckport: error: \(output): already exists; pass --backup to keep the old file beside it, or --force to change it\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("precious".utf8))
    #expect(try FolderContents.names(in: scratch.path) == ["cards.json"])
  }

  @Test("--backup keeps the old file beside the new one; --force keeps none")
  func backupAndForce() throws {
    let scratch = try TemporaryDirectory()
    let output = try AppFixtures.copy("flashzilla-native.plist", into: scratch, as: "prefs.plist")
    let old = try Data(contentsOf: URL(fileURLWithPath: output))
    let run = try CommandRun.deckport([
      "migrate", AppFixtures.path("neomnemo-mnemonics.json"), output, "--key", "Mnemonics", "--backup",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let files = try FolderContents.names(in: scratch.path)
    #expect(files.count == 2)
    let backup = try #require(files.first { $0.hasPrefix("prefs.plist.backup-") })
    #expect(backup.range(of: #"^prefs\.plist\.backup-\d{8}-\d{6}$"#, options: .regularExpression) != nil)
    #expect(run.standardOutput.contains("Kept the old \(output) as \(scratch.path(for: backup))\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path(for: backup))) == old)
    // The old key is still there, the new one beside it.
    #expect(
      try AppStorageReader().read(path: output, options: AppStorageOptions(key: "Cards")).records.records
        == AppFixtures.flashzillaRecords)
    #expect(
      try AppStorageReader().read(path: output, options: AppStorageOptions(key: "Mnemonics")).records.records.count == 2
    )

    // Flashzilla's cards under a new key (under "Mnemonics" they would lose NeoMnemo's records,
    // which is refused).
    let forced = try CommandRun.deckport([
      "migrate", AppFixtures.path("flashzilla-cards.json"), output, "--key", "Extra", "--force",
    ])
    #expect(forced.status == 0, "stderr: \(forced.standardError)")
    #expect(try FolderContents.names(in: scratch.path).count == 2)
    #expect(
      try AppStorageReader().read(path: output, options: AppStorageOptions(key: "Mnemonics")).records.records.count == 2
    )
  }

  @Test(
    "a file replaced keeps its permissions: an app's private plist and JSON file, and a package written over with --force"
  )
  func permissionsKept() throws {
    let scratch = try TemporaryDirectory()
    func mode(_ path: String) throws -> Int {
      try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
    let plist = try AppFixtures.copy("flashzilla-binary.plist", into: scratch, as: "prefs.plist")
    let json = scratch.path(for: "notes.json")
    try Data(#"[{"title": "a", "text": "b"}]"#.utf8).write(to: URL(fileURLWithPath: json))
    let more = scratch.path(for: "more.json")
    try Data(#"[{"title": "c", "text": "d"}]"#.utf8).write(to: URL(fileURLWithPath: more))
    for (source, output, key) in [
      (AppFixtures.path("neomnemo-mnemonics.json"), plist, ["--key", "Mnemonics"]), (more, json, []),
    ] {
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)
      let run = try CommandRun.deckport(["migrate", source, output, "--force"] + key)
      #expect(run.status == 0, "stderr: \(run.standardError)")
      #expect(run.standardOutput.contains("1 added") || run.standardOutput.contains("2 added"), "\(run.standardOutput)")
      #expect(try mode(output) == 0o600, "\(output)")
    }
    let package = scratch.path(for: "deck.apkg")
    try Data("old".utf8).write(to: URL(fileURLWithPath: package))
    // The set-group-ID bit is not carried over.
    try FileManager.default.setAttributes([.posixPermissions: 0o2640], ofItemAtPath: package)
    let converted = try CommandRun.deckport([
      "convert", AppFixtures.path("flashzilla-binary.plist"), package, "--force", "-q",
    ])
    #expect(converted.status == 0, "stderr: \(converted.standardError)")
    #expect(try mode(package) == 0o640)
  }

  @Test(
    "a relative link to a store or a plist is read and written through: the file it leads to changes, the link stays")
  func relativeLinks() throws {
    let scratch = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: scratch.path(for: "sub"), withIntermediateDirectories: false)
    let store = try AppFixtures.copy("flashzilla.store", into: scratch, as: "sub/app.store")
    let plist = try AppFixtures.copy("flashzilla-binary.plist", into: scratch, as: "sub/prefs.plist")
    let card = scratch.path(for: "card.json")
    try Data(#"[{"id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "prompt": "q", "answer": "a"}]"#.utf8)
      .write(to: URL(fileURLWithPath: card))
    for (target, link) in [(store, "same.store"), (plist, "same.plist")] {
      let linkPath = scratch.path(for: link)
      try FileManager.default.createSymbolicLink(
        atPath: linkPath, withDestinationPath: "sub/" + (target as NSString).lastPathComponent)
      let listed = try CommandRun.deckport(["migrate", "--list", linkPath])
      #expect(listed.status == 0 && listed.standardOutput.contains("3 records"), "\(listed.standardError)")
      let written = try CommandRun.deckport(["migrate", card, linkPath, "--force"])
      #expect(written.status == 0, "stderr: \(written.standardError)")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linkPath).hasPrefix("sub/"))
      #expect(try AppStorageReader().read(path: target).records.records.count == 4, "\(target)")
    }

    // A store with external storage, through a link from another folder: its files are found
    // beside the store, not beside the link.
    try FileManager.default.createDirectory(atPath: scratch.path(for: "other"), withIntermediateDirectories: false)
    let pictures = try AppFixtures.copy("neomnemo.store", into: scratch, as: "sub/neomnemo.store")
    let pictureLink = scratch.path(for: "other/mine.store")
    try FileManager.default.createSymbolicLink(atPath: pictureLink, withDestinationPath: "../sub/neomnemo.store")
    #expect(try AppStorageReader().read(path: pictureLink).records == AppStorageReader().read(path: pictures).records)

    // A whole-store migration into a link writes the store it leads to.
    let empty = try AppFixtures.copy("flashzilla-empty.store", into: scratch, as: "sub/empty.store")
    let emptyLink = scratch.path(for: "other/empty.store")
    try FileManager.default.createSymbolicLink(atPath: emptyLink, withDestinationPath: "../sub/empty.store")
    let whole = try CommandRun.deckport([
      "migrate", "--whole-store", AppFixtures.path("flashzilla.store"), emptyLink, "--force",
    ])
    #expect(whole.status == 0, "stderr: \(whole.standardError)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: emptyLink) == "../sub/empty.store")
    #expect(try AppStorageReader().read(path: empty).records.records.count == 3)

    // A link that leads nowhere yet: the file is made where it leads.
    let dangling = scratch.path(for: "later.plist")
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "sub/later.plist")
    let made = try CommandRun.deckport(["migrate", card, dangling])
    #expect(made.status == 0, "stderr: \(made.standardError)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "sub/later.plist")
    #expect(try AppStorageReader().read(path: scratch.path(for: "sub/later.plist")).records.records.count == 1)
  }

  @Test("usage errors exit with 64")
  func usage() throws {
    let both = try CommandRun.deckport(["migrate", "a.plist", "b.json", "--backup", "--force"])
    #expect(both.status == 64)
    #expect(both.standardError.contains("Use either --backup or --force, not both."))
    #expect(try CommandRun.deckport(["migrate", "a.plist"]).status == 64)
    let profile = try CommandRun.deckport(["migrate", "a.plist", "b.json", "--profile", "anki"])
    #expect(profile.status == 64)
    #expect(
      profile.standardError.contains(
        "Unknown profile 'anki'; use auto, generic, flashzilla, neomnemo, flashcard-quiz, idealic."))
  }

  @Test("bad input: exit status 1, one line naming the file, key and record, nothing written")
  func badInput() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "prefs.plist")
    try PropertyListSerialization.data(
      fromPropertyList: ["Cards": Data("[{\"prompt\": 1,}]".utf8)], format: .binary, options: 0
    )
    .write(to: URL(fileURLWithPath: input))
    let output = scratch.path(for: "out.json")
    let run = try CommandRun.deckport(["migrate", input, output, "--key", "Cards"])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "deckport: error: \(input): key 'Cards': the JSON data does not decode: line 1, column 15 of the JSON: expected a key in double quotes\n"
    )
    #expect(try FolderContents.names(in: scratch.path) == ["prefs.plist"])

    let unknown = try CommandRun.deckport(["migrate", AppFixtures.path("unknown-layout.sqlite"), output])
    #expect(unknown.status == 1)
    #expect(
      unknown.standardError.hasPrefix(
        "deckport: error: \(AppFixtures.path("unknown-layout.sqlite")): an SQLite file of an unknown layout: its tables are cards, settings;"
      ))
    #expect(try FolderContents.names(in: scratch.path) == ["prefs.plist"])
  }

  @Test(
    "records SQLite cannot store (a NUL in a key, more keys than a table's columns): exit status 1, one line naming the record type and key, nothing written"
  )
  func unstorableInSQLite() throws {
    let scratch = try TemporaryDirectory()
    let nul = scratch.path(for: "rec.json")
    try Data(#"[{"id":"A","a\u0000b":"x"}]"#.utf8).write(to: URL(fileURLWithPath: nul))
    let wide = scratch.path(for: "wide.json")
    let keys = (0..<2_100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    try Data("[{\(keys)}]".utf8).write(to: URL(fileURLWithPath: wide))
    let deck = scratch.path(for: "deck.json")
    try Data(
      #"{"format":"deckport-deck","version":1,"noteTypes":[{"name":"T","fields":[{"name":"a\u0000b"},{"name":"Back"}],"templates":[{"name":"C","question":"{{Back}}"}]}],"notes":[{"noteType":"T","fields":{"a\u0000b":"x","Back":"y"}}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: deck))
    let inputs = try FolderContents.names(in: scratch.path)
    let runs = [
      (
        ["migrate", nul, scratch.path(for: "rec.sqlite")],
        "rec.sqlite: record type 'rec': the key 'a\\u{00}b' holds a NUL character (U+0000), which SQLite cannot hold in a column name; nothing was written"
      ),
      (
        ["migrate", wide, scratch.path(for: "wide.sqlite")],
        "wide.sqlite: record type 'wide': its records have 2100 keys, and a table holds at most 1998 (SQLite's limit of 2000 columns, less deckport's own deckport_position and deckport_keys); nothing was written"
      ),
      (
        ["convert", deck, scratch.path(for: "deck.sqlite")],
        "deck.sqlite: record type 'T': the key 'a\\u{00}b' holds a NUL character (U+0000), which SQLite cannot hold in a column name; nothing was written"
      ),
    ]
    for (arguments, message) in runs {
      let run = try CommandRun.deckport(arguments)
      #expect(run.status == 1)
      #expect(run.standardError == "deckport: error: \(scratch.path)/\(message)\n")
      #expect(try FolderContents.names(in: scratch.path) == inputs)
    }
  }

  /// A binary plist whose key `Cards` holds one record with the date `seconds` under `d`.
  static func binaryPlist(date seconds: Double) throws -> Data {
    try PlistDocument(
      format: .binary,
      root: .dictionary(
        PlistDictionary([
          .init(
            key: "Cards",
            value: .array([
              .dictionary(
                PlistDictionary([.init(key: "id", value: .string("A")), .init(key: "d", value: .date(seconds))]))
            ]))
        ]))
    ).data()
  }

  @Test(
    "a date of -0.0 seconds goes into an XML plist as 2001-01-01T00:00:00Z, verified equal; a NaN date is refused as not a number"
  )
  func signedZeroDateIntoXMLPlist() throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "src.plist")
    try Self.binaryPlist(date: -0.0).write(to: URL(fileURLWithPath: source))
    // The source really holds -0.0, which differs from 0.0 as stored.
    let read = try AppStorageReader().read(path: source).records.records
    #expect(read.first?["d"] == .date(Date(timeIntervalSinceReferenceDate: -0.0)))
    #expect(read.first?["d"] != .date(Date(timeIntervalSinceReferenceDate: 0)))
    let destination = scratch.path(for: "dest.plist")
    let held = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>Other</key><integer>1</integer></dict></plist>\n"
        .utf8)
    try held.write(to: URL(fileURLWithPath: destination))
    let run = try CommandRun.deckport(["migrate", source, destination, "--force", "--plist-style", "native"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("verified: read back, every value equal"))
    let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: destination)), as: UTF8.self)
    #expect(written.contains("<key>d</key>\n\t\t\t<date>2001-01-01T00:00:00Z</date>"))

    try Self.binaryPlist(date: .nan).write(to: URL(fileURLWithPath: source))
    try held.write(to: URL(fileURLWithPath: destination))
    let nan = try CommandRun.deckport(["migrate", source, destination, "--force", "--plist-style", "native"])
    #expect(nan.status == 1)
    #expect(
      nan.standardError
        == "deckport: error: \(destination): key 'Cards': record 1, key 'd': the date is not a number (NaN seconds since 2001); an XML plist date names a moment of the years 1 to 9999\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == held)
    #expect(try FolderContents.names(in: scratch.path) == ["dest.plist", "src.plist"])
  }

  @Test("a store locked by a running app: exit status 1, nothing written")
  func locked() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla.store", into: scratch)
    let app = try BadInputTests.holdOpen(
      store, "c.execute('BEGIN IMMEDIATE'); c.execute('select 1 from ZCARD').fetchall()")
    defer {
      kill(app.processIdentifier, SIGKILL)
      app.waitUntilExit()
    }
    let output = scratch.path(for: "cards.json")
    let run = try CommandRun.deckport(["migrate", store, output])
    #expect(run.status == 1)
    #expect(
      run.standardError.hasPrefix(
        "deckport: error: \(store): the store is locked (SQLITE_BUSY): process \(app.processIdentifier)"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let into = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-cards.json"), store, "--force"])
    #expect(into.status == 1)
    #expect(into.standardError.contains("the store is locked (SQLITE_BUSY)"))
  }

  @Test("--list shows the entities of a store with counts and fields")
  func list() throws {
    let run = try CommandRun.deckport(["migrate", "--list", AppFixtures.path("neomnemo.store")])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput == """
        \(AppFixtures.path("neomnemo.store")): Core Data/SwiftData store
          Mnemonic: 3 records, profile neomnemo
            fields: keyword (string), story (string), image (data)
            table ZMNEMONIC, Z_ENT 1, Z_MAX 3

        """)
  }

  @Test("a store is filled through the CLI, and the source is never the destination")
  func intoStoreAndSameFile() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-empty.store", into: scratch)
    let run = try CommandRun.deckport(["migrate", AppFixtures.path("flashzilla-xml.plist"), store, "--backup"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput.hasSuffix(
        "Wrote 3 records to \(store): Core Data/SwiftData store, entity Card (table ZCARD); 3 added, 0 updated, 0 unchanged; verified: read back, every value equal\n"
      ))
    #expect(try AppStorageReader().read(path: store).records.records == AppFixtures.flashzillaRecords)
    let same = try CommandRun.deckport(["migrate", store, store, "--force"])
    #expect(same.status == 1)
    #expect(same.standardError == "deckport: error: \(store): is the source file; deckport never changes its source\n")
  }

  @Test("--strict: warnings fail the migration before anything is written")
  func strict() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "out.json")
    let strict = try CommandRun.deckport([
      "migrate", AppFixtures.path("neomnemo.store"), output, "--profile", "generic", "--strict",
    ])
    #expect(strict.status == 1)
    #expect(strict.standardError.contains("warning: [type-changed] 3 data values come back from a JSON file as string"))
    #expect(strict.standardError.hasSuffix("deckport: error: --strict: 1 warning above\n"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let lenient = try CommandRun.deckport([
      "migrate", AppFixtures.path("neomnemo.store"), output, "--profile", "generic",
    ])
    #expect(lenient.status == 0)
  }
}
