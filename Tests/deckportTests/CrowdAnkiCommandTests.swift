import DeckCrowdAnki
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert with CrowdAnki folders")
struct CrowdAnkiCommandTests {
  static let folder = Fixtures.path("crowdanki/ultimate-geography/Ultimate_Geography")

  @Test("a CrowdAnki folder written again keeps every crowdanki_uuid, GUID, field and media file")
  func crowdAnkiToCrowdAnki() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "again")
    let run = try CommandRun.deckport(["convert", Self.folder, output, "--to", "crowdanki"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let original = try Self.json(Self.folder + "/Ultimate_Geography.json")
    let again = try Self.json(output + "/deck.json")
    #expect(again["crowdanki_uuid"] as? String == original["crowdanki_uuid"] as? String)
    #expect(again["deck_config_uuid"] as? String == original["deck_config_uuid"] as? String)
    let uuids = { (deck: [String: Any], key: String) in
      ((deck[key] as? [[String: Any]]) ?? []).compactMap { $0["crowdanki_uuid"] as? String }.sorted()
    }
    #expect(uuids(again, "note_models") == uuids(original, "note_models"))
    #expect(uuids(again, "deck_configurations") == uuids(original, "deck_configurations"))
    let notes = { (deck: [String: Any]) in
      ((deck["notes"] as? [[String: Any]]) ?? []).map {
        "\($0["guid"] ?? "")|\($0["fields"] ?? "")|\($0["tags"] ?? "")"
      }
    }
    #expect(notes(again) == notes(original))
    #expect((again["media_files"] as? [String])?.sorted() == (original["media_files"] as? [String])?.sorted())
    for name in (original["media_files"] as? [String]) ?? [] {
      #expect(
        FileManager.default.contentsEqual(atPath: Self.folder + "/media/" + name, andPath: output + "/media/" + name))
    }
    // The same input gives the same bytes.
    let second = scratch.path(for: "second")
    #expect(try CommandRun.deckport(["convert", Self.folder, second, "--to", "crowdanki"]).status == 0)
    #expect(FileManager.default.contentsEqual(atPath: output + "/deck.json", andPath: second + "/deck.json"))
  }

  @Test(
    "what Anki keeps of decks and note models travels in the folder: a real folder's deck limits and note models' last tags are read and written again, without a warning"
  )
  func ankiPropertiesTravel() throws {
    let folder = Fixtures.path("crowdanki/moderncardthemes/🧪_Test_Deck")
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "again")
    let run = try CommandRun.deckport(["convert", folder, output, "--to", "crowdanki", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(!run.standardError.contains("crowdanki-keys-not-kept"), "\(run.standardError)")
    #expect(!run.standardError.contains("anki-properties-dropped"), "\(run.standardError)")
    let original = try Self.json(folder + "/deck.json")
    let again = try Self.json(output + "/deck.json")
    // The fixture's own custom study limit (1 new card) and Anki's default for reviews.
    #expect(original["extendNew"] as? Int == 1 && original["extendRev"] as? Int == 50)
    #expect(again["extendNew"] as? Int == 1 && again["extendRev"] as? Int == 50)
    let lastTags = { (deck: [String: Any]) in
      ((deck["note_models"] as? [[String: Any]]) ?? []).map { "\($0["name"] ?? ""): \($0["tags"] ?? "none")" }
    }
    #expect(lastTags(original).contains("prettyBasic: [\"Allgemeinwissen::Chemistry::Random_Formulas\"]"))
    #expect(lastTags(again) == lastTags(original))
  }

  @Test("a folder's import_config.yaml (CrowdAnki's import choices) is named as not read, and fails --strict")
  func importConfigIsNamed() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "Ultimate_Geography")
    try FileManager.default.copyItem(atPath: Self.folder, toPath: folder)
    // The shape CrowdAnki's importer reads (`import_dialog.py`): defaults of its import dialog.
    try Data("personal_fields:\n  Ultimate Geography: [Country info]\nadd_tag_to_cards: [UG]\n".utf8).write(
      to: URL(fileURLWithPath: folder + "/import_config.yaml"))
    let output = scratch.path(for: "again")
    let run = try CommandRun.deckport(["convert", folder, output, "--to", "crowdanki"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "deckport: \(folder)/import_config.yaml: warning: [crowdanki-import-config] CrowdAnki's import choices (personal fields, tags to add on import, whether cards move between decks) are not read, and a folder deckport writes has no such file: the deck is converted as the folder holds it; copy the file into a folder written from it to keep them\n"
      ), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output + "/import_config.yaml"))
    let strict = try CommandRun.deckport(["convert", folder, scratch.path(for: "strict.apkg"), "--strict"])
    #expect(strict.status == 1 && strict.standardError.contains("[crowdanki-import-config]"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "strict.apkg")))
  }

  @Test("diff of two versions of a folder shows a changed deck limit and a note model's changed last tags")
  func diffShowsChangedProperties() throws {
    let scratch = try TemporaryDirectory()
    let edited = scratch.path(for: "Ultimate_Geography")
    try FileManager.default.copyItem(atPath: Self.folder, toPath: edited)
    let file = edited + "/Ultimate_Geography.json"
    var deck = try Self.json(file)
    deck["extendNew"] = 3
    var models = try #require(deck["note_models"] as? [[String: Any]])
    models[0]["tags"] = ["UG::Capitals"]
    deck["note_models"] = models
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: file))
    let run = try CommandRun.deckport(["diff", Self.folder, edited])
    #expect(run.status == 1, "\(run.standardError)")
    #expect(
      run.standardOutput.contains(
        """
        Anki's other properties: 2 changed
          ~ deck 'Ultimate Geography': extendNew: 10 → 3
          ~ note type 'Ultimate Geography': tags: ["UG::Continents"] → ["UG::Capitals"]

        """), "\(run.standardOutput)")
    #expect(!run.standardOutput.contains("Anki's other properties of decks and note types: not compared"))
    // Against the package made from it, which holds more of them, they are not compared.
    let package = scratch.path(for: "geography.apkg")
    #expect(try CommandRun.deckport(["convert", Self.folder, package, "-q"]).status == 0)
    let againstPackage = try CommandRun.deckport(["diff", package, edited])
    #expect(
      againstPackage.standardOutput.contains(
        "Anki's other properties of decks and note types: not compared (crowdanki holds what CrowdAnki's export writes"
      ), "\(againstPackage.standardOutput)")
  }

  @Test(
    "a package's decks and note types written as a folder keep their own limits and last tags; the collapse state, day counts and sync state are named as not kept"
  )
  func ankiPropertiesFromAPackage() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "Deck")
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/genanki_legacy1.apkg"), output, "--to", "crowdanki",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError
        == "deckport: \(output): warning: [anki-properties-dropped] what Anki keeps of 2 decks and 2 note types besides their content is not kept (such as whether a deck is collapsed, the day's study counts and the sync state): a CrowdAnki folder has no place for it\n"
        + "deckport: \(output): warning: [modification-times-dropped] the modification times of 2 notes and 2 note types (when each was last changed) are not kept: the crowdanki format has no place for them, so reading it back gives them the file's time, and Anki's import the time of the import (Anki's browser shows these times, and its import of a package updates a note only from a later one)\n"
    )
    // The package has `genanki::Sub` and no `genanki`: the subdeck is the root, named in full,
    // as CrowdAnki's export of a subdeck names it.
    let sub = try Self.json(output + "/deck.json")
    #expect((sub["children"] as? [Any])?.isEmpty == true)
    // genanki's deck has Anki 2.1's default review extension, 50 (a new deck now has 0).
    #expect(sub["name"] as? String == "genanki::Sub" && sub["extendRev"] as? Int == 50)
    #expect(sub["collapsed"] == nil && sub["newToday"] == nil && sub["usn"] == nil)
    for model in (sub["note_models"] as? [[String: Any]]) ?? [] {
      #expect((model["tags"] as? [Any])?.isEmpty == true && (model["vers"] as? [Any])?.isEmpty == true)
      #expect(model["did"] == nil && model["usn"] == nil)
    }
  }

  @Test(
    "a deck property under a key the folder writes from the model is named and left out; one Anki would read as 0 is written as 0"
  )
  func deckPropertiesChecked() throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "deck.json")
    #expect(
      try CommandRun.deckport(["convert", Fixtures.path("anki/genanki_legacy1.apkg"), source, "-q"]).status == 0)
    var document = try Self.json(source)
    var decks = try #require(document["decks"] as? [[String: Any]])
    let index = try #require(decks.firstIndex { $0["name"] as? String == "genanki::Sub" })
    decks[index]["ankiProperties"] = ["extendNew": "-5", "newLimit": "7", "id": "5"]
    document["decks"] = decks
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: source))
    let output = scratch.path(for: "Deck")
    let run = try CommandRun.deckport(["convert", source, output, "--to", "crowdanki", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let deck = "\(output): deck 'genanki::Sub' (id \(decks[index]["id"] ?? ""))"
    #expect(
      run.standardError.contains(
        "\(deck), property 'id': warning: [anki-property-invalid] deckport writes 'id' from the model's own data, so the property is left out\n"
      ), "\(run.standardError)")
    #expect(
      run.standardError.contains("\(deck): warning: [value-clamped] property 'extendNew' is -5"), "\(run.standardError)"
    )
    let sub = try Self.json(output + "/deck.json")
    #expect(sub["name"] as? String == "genanki::Sub")
    #expect(sub["extendNew"] as? Int == 0 && sub["newLimit"] as? Int == 7 && sub["id"] == nil)
  }

  @Test("a non-empty folder is refused without --force and replaced whole with it; an empty one is used")
  func existingDestination() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: output + "/note.txt"))
    let refused = try CommandRun.deckport(["convert", Self.folder, output, "--to", "crowdanki"])
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("\(output): is a folder that is not empty; pass --force to replace it"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["note.txt"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out"])

    let forced = try CommandRun.deckport(["convert", Self.folder, output, "--to", "crowdanki", "--force"])
    #expect(forced.status == 0, "stderr: \(forced.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["deck.json", "media"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out"])

    let empty = scratch.path(for: "empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    #expect(try CommandRun.deckport(["convert", Self.folder, empty, "--to", "crowdanki"]).status == 0)
  }

  @Test("a deck file of the wrong shape is refused, naming the file and the JSON path")
  func badDeckFile() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "bad")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    var deck = try Self.json(Self.folder + "/Ultimate_Geography.json")
    var notes = (deck["notes"] as? [[String: Any]]) ?? []
    notes[2]["fields"] = "not an array"
    deck["notes"] = notes
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: folder + "/deck.json"))
    let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.apkg")])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("\(folder)/deck.json: at notes[2].fields: expected an array of strings"),
      "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "out.apkg")))
  }

  @Test(
    "media entries that are not regular files (a named pipe, links to /dev/zero and to nothing) are skipped unopened, with a warning naming each"
  )
  func mediaThatAreNotFiles() throws {
    // What FuzzCrowdAnki's slow input held: waiting on the pipe ended only by libFuzzer's timer.
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "Deck")
    try FileManager.default.createDirectory(atPath: folder + "/media", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.folder + "/Ultimate_Geography.json", toPath: folder + "/deck.json")
    #expect(mkfifo(folder + "/media/pipe.png", 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: folder + "/media/zero.png", withDestinationPath: "/dev/zero")
    try FileManager.default.createSymbolicLink(atPath: folder + "/media/gone.png", withDestinationPath: "no such file")
    let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.apkg")])
    #expect(run.status == 0, "\(run.standardError)")
    for (name, kind) in [
      ("gone.png", "a symbolic link that leads nowhere"), ("pipe.png", "a named pipe"), ("zero.png", "a device"),
    ] {
      #expect(
        run.standardError.contains(
          "deckport: \(folder)/media/\(name): warning: [media-skipped] is \(kind), not a media file; skipped\n"),
        "\(run.standardError)")
    }
  }

  @Test("a deck file that is a named pipe or a link to /dev/zero is refused by name, unopened, with or without --from")
  func deckFileThatIsNotAFile() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "Deck")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    #expect(mkfifo(folder + "/deck.json", 0o600) == 0)
    for from in [[], ["--from", "crowdanki"]] {
      let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.apkg")] + from)
      #expect(run.status != 0)
      #expect(
        run.standardError == "deckport: error: \(folder)/deck.json: cannot be read (it is a named pipe, not a file)\n")
    }
    try FileManager.default.removeItem(atPath: folder + "/deck.json")
    try FileManager.default.createSymbolicLink(atPath: folder + "/Deck.json", withDestinationPath: "/dev/zero")
    let run = try CommandRun.deckport(["convert", folder, scratch.path(for: "out.apkg")])
    #expect(run.standardError == "deckport: error: \(folder)/Deck.json: cannot be read (it is a device, not a file)\n")
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "out.apkg")))
  }

  @Test(
    "a link that leads outside the folder is not followed: a media file or the media folder is skipped with a warning naming where it leads, the deck file refused; links inside are followed"
  )
  func linksOutOfTheFolder() throws {
    // A deck cloned from someone else's repository could otherwise carry a file of this machine's
    // (a key, a note) into a package its user then shares.
    let scratch = try TemporaryDirectory()
    let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    let secret = scratch.path(for: "secret.txt")
    try Data("private".utf8).write(to: URL(fileURLWithPath: secret))
    let folder = scratch.path(for: "Deck")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try FileManager.default.copyItem(atPath: Self.folder + "/Ultimate_Geography.json", toPath: folder + "/deck.json")
    try FileManager.default.copyItem(atPath: Self.folder + "/media", toPath: folder + "/media")
    let ownMedia = try FileManager.default.contentsOfDirectory(atPath: folder + "/media").sorted()
    try FileManager.default.createSymbolicLink(atPath: folder + "/media/absolute.png", withDestinationPath: secret)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/media/relative.png", withDestinationPath: "../../secret.txt")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/media/alias.svg", withDestinationPath: "ug-flag-france.svg")
    let output = scratch.path(for: "out")
    let run = try CommandRun.deckport(["convert", folder, output, "--to", "crowdanki"])
    #expect(run.status == 0, "\(run.standardError)")
    for name in ["absolute.png", "relative.png"] {
      #expect(
        run.standardError.contains(
          "deckport: \(folder)/media/\(name): warning: [media-skipped] is a symbolic link to \(real(secret)), outside the folder \(real(folder)); skipped (copy the file into the folder to keep it)\n"
        ), "\(run.standardError)")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output + "/media").sorted()
        == (ownMedia + ["alias.svg"]).sorted())
    #expect(
      FileManager.default.contentsEqual(
        atPath: output + "/media/alias.svg", andPath: folder + "/media/ug-flag-france.svg"))
    // The two links (the fixture's own keys are all kept).
    let strict = try CommandRun.deckport(["convert", folder, scratch.path(for: "strict.apkg"), "--strict"])
    #expect(strict.status != 0)
    #expect(strict.standardError.contains(": --strict: 2 warnings (listed above); nothing was written\n"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "strict.apkg")))

    // Named through a link of its own, the folder is where the link leads: the same two are skipped.
    try FileManager.default.createSymbolicLink(atPath: scratch.path(for: "Linked"), withDestinationPath: "Deck")
    let linked = try CommandRun.deckport(["convert", scratch.path(for: "Linked"), scratch.path(for: "linked.apkg")])
    #expect(linked.status == 0, "\(linked.standardError)")
    #expect(linked.standardError.components(separatedBy: "[media-skipped]").count == 3, "\(linked.standardError)")

    // The media folder itself leads out: one warning, nothing of it read.
    let other = scratch.path(for: "Other")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
    try FileManager.default.copyItem(atPath: folder + "/deck.json", toPath: other + "/deck.json")
    try FileManager.default.createSymbolicLink(atPath: other + "/media", withDestinationPath: folder + "/media")
    let shared = try CommandRun.deckport(["convert", other, scratch.path(for: "shared"), "--to", "crowdanki"])
    #expect(shared.status == 0, "\(shared.standardError)")
    #expect(
      shared.standardError.contains(
        "deckport: \(other)/media: warning: [media-skipped] is a symbolic link to \(real(folder))/media, outside the folder \(real(other)); its \(ownMedia.count + 3) entries are skipped (copy the files into the folder to keep them)\n"
      ), "\(shared.standardError)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "shared/media/ug-flag-france.svg")))

    // The deck file leads out: refused by name, with or without --from.
    try FileManager.default.removeItem(atPath: other + "/deck.json")
    try FileManager.default.createSymbolicLink(atPath: other + "/deck.json", withDestinationPath: folder + "/deck.json")
    for from in [[], ["--from", "crowdanki"]] {
      let refused = try CommandRun.deckport(["convert", other, scratch.path(for: "refused.apkg")] + from)
      #expect(refused.status != 0)
      #expect(
        refused.standardError
          == "deckport: error: \(other)/deck.json: cannot be read (it is a symbolic link to \(real(folder))/deck.json, outside the folder \(real(other)); only the folder's own files are read)\n"
      )
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "refused.apkg")))
  }

  @Test("notes under several top-level decks are written below a root named after the folder, with a warning")
  func severalTopLevelDecks() throws {
    let scratch = try TemporaryDirectory()
    let package = Fixtures.path("anki/latest_sched.apkg")
    let folder = scratch.path(for: "tree")
    let run = try CommandRun.deckport(["convert", package, folder, "--to", "crowdanki"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: [deck-root-added] cards sit under 2 top-level decks ('Default', 'Languages'), but a CrowdAnki folder holds one deck; they are written as subdecks of a new top deck 'tree' (the folder's name), so importing the folder into Anki nests them under it ('tree::Default', 'tree::Languages')"
      ), "\(run.standardError)")
    let deck = try Self.json(folder + "/deck.json")
    #expect(deck["name"] as? String == "tree")
    #expect(((deck["notes"] as? [Any]) ?? [1]).isEmpty)
    let children = (deck["children"] as? [[String: Any]]) ?? []
    #expect(children.compactMap { $0["name"] as? String } == ["Default", "Languages"])

    // Read back, every note is there, in the same decks one level down.
    let back = try CommandRun.deckport(["inspect", folder, "--json"])
    let source = try CommandRun.deckport(["inspect", package, "--json"])
    let summary = { (text: String) -> (notes: Int, decks: [String]) in
      let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
      return ((object?["notes"] as? Int) ?? -1, ((object?["decks"] as? [String]) ?? []).sorted())
    }
    #expect(summary(back.standardOutput).notes == summary(source.standardOutput).notes)
    #expect(summary(back.standardOutput).decks == summary(source.standardOutput).decks.map { "tree::\($0)" })
  }

  @Test(
    "a top deck named Default in any case (here the added root, named after the folder) is reported as CrowdAnki renames it, and fails --strict"
  )
  func defaultTopDeckRenamedByCrowdAnki() throws {
    let scratch = try TemporaryDirectory()
    let package = Fixtures.path("anki/latest_sched.apkg")
    let folder = scratch.path(for: "default")
    let run = try CommandRun.deckport(["convert", package, folder, "--to", "crowdanki", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: [deck-renamed] the top deck is named 'default', and every Anki collection has a Default deck of its own, which CrowdAnki's import does not take for the folder's (it finds decks by CrowdAnki UUID, and a collection's Default has none unless CrowdAnki exported it): CrowdAnki imports the folder's deck as 'default_2', with its subdecks below it"
      ), "\(run.standardError)")
    // Another name: no such warning.
    let other = try CommandRun.deckport(["convert", package, scratch.path(for: "tree"), "--to", "crowdanki"])
    #expect(!other.standardError.contains("[deck-renamed]"), "\(other.standardError)")
    // A note of the stock Basic in Default, and nothing else to report: --strict fails on it alone.
    let document = scratch.path(for: "deck.json")
    try Data(
      #"{"format": "deckport-deck", "version": 1, "notes": [{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: document))
    let strictFolder = scratch.path(for: "Words")
    let strict = try CommandRun.deckport(["convert", document, strictFolder, "--to", "crowdanki", "--strict"])
    #expect(strict.status == 1)
    #expect(
      strict.standardError.hasPrefix(
        "deckport: \(strictFolder): deck 'Default' (id 1): warning: [deck-renamed] the top deck is named 'Default'"),
      "\(strict.standardError)")
    #expect(strict.standardError.hasSuffix("--strict: 1 warning (listed above); nothing was written\n"))
  }

  /// CrowdAnki's export of a subdeck names its root in full (`A::B`), and its import makes the
  /// parent `A` as a plain deck. Written under a made-up `A` with a UUID of its own, the folder
  /// made CrowdAnki rename that parent `A_2` where the original had been imported.
  @Test("a folder whose root is a subdeck (a name with ::) is written with that root, not below a made-up parent")
  func subdeckRootKept() throws {
    let folder = Fixtures.path("crowdanki/heimat-flora-fauna/A._Allgemeinwissen__Heimat_Flora_&_Fauna")
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "again")
    let run = try CommandRun.deckport(["convert", folder, output, "--to", "crowdanki"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let original = try Self.json(folder + "/deck.json")
    let again = try Self.json(output + "/deck.json")
    #expect(again["name"] as? String == "A. Allgemeinwissen::Heimat Flora & Fauna")
    #expect(again["crowdanki_uuid"] as? String == original["crowdanki_uuid"] as? String)
    #expect((again["children"] as? [Any])?.isEmpty == true)
    #expect((again["notes"] as? [Any])?.count == 68)

    // Decks side by side below a parent the deck does not have keep a made-up root above them.
    let document = scratch.path(for: "deck.json")
    try Data(
      #"""
      {"format": "deckport-deck", "version": 1,
       "notes": [{"noteType": "Basic", "deck": "A::B", "fields": {"Front": "b", "Back": ""}},
                 {"noteType": "Basic", "deck": "A::C", "fields": {"Front": "c", "Back": ""}},
                 {"noteType": "Basic", "deck": "X::Y::Z", "fields": {"Front": "z", "Back": ""}}]}
      """#.utf8
    ).write(to: URL(fileURLWithPath: document))
    let sideBySide = scratch.path(for: "side")
    let written = try CommandRun.deckport(["convert", document, sideBySide, "--to", "crowdanki"])
    #expect(written.status == 0, "stderr: \(written.standardError)")
    let tree = try Self.json(sideBySide + "/deck.json")
    #expect(tree["name"] as? String == "side")
    let tops = (tree["children"] as? [[String: Any]]) ?? []
    #expect(tops.compactMap { $0["name"] as? String } == ["A", "X"])
    #expect(((tops.first?["children"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } == ["B", "C"])
  }

  @Test("one top-level deck with cards is the root; an empty plain Default is left out without a warning")
  func emptyDefaultIsSilent() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "french")
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("real/french-phrases-legacy2-nometa.apkg"), folder, "--to", "crowdanki",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(!run.standardError.contains("[deck-root-added]"))
    #expect(!run.standardError.contains("[deck-dropped]"))
    #expect(try Self.json(folder + "/deck.json")["name"] as? String != "french")
  }

  @Test("the deck tree comes back with its full names; scheduling loss is reported, and fails --strict")
  func deckTreeAndScheduling() throws {
    let scratch = try TemporaryDirectory()
    let package = Fixtures.path("real/french-phrases-legacy2-nometa.apkg")
    let folder = scratch.path(for: "tree")
    let run = try CommandRun.deckport(["convert", package, folder, "--to", "crowdanki", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.contains("warning: [scheduling]"))
    let strict = try CommandRun.deckport([
      "convert", package, scratch.path(for: "strict"), "--to", "crowdanki", "--strict",
    ])
    #expect(strict.status != 0)
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "strict")))

    let back = try CommandRun.deckport(["inspect", folder, "--json"])
    let source = try CommandRun.deckport(["inspect", package, "--json"])
    #expect(back.status == 0, "stderr: \(back.standardError)")
    let deckNames = { (text: String) -> [String] in
      let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
      return ((object?["decks"] as? [String]) ?? []).filter { $0 != "Default" }.sorted()
    }
    #expect(deckNames(back.standardOutput) == deckNames(source.standardOutput))
    #expect(!deckNames(source.standardOutput).isEmpty)
  }

  @Test(
    "an option group's sync state, which CrowdAnki does not keep, is reported: in its schema-11 settings or as a property"
  )
  func optionGroupSyncState() throws {
    let scratch = try TemporaryDirectory()
    // A deck someone exported: its Default group was synced at usn 116.
    let legacy = try CommandRun.deckport([
      "convert", Fixtures.path("real/mixed-note-types-legacy2.apkg"), scratch.path(for: "legacy"), "--to", "crowdanki",
    ])
    #expect(legacy.status == 0, "stderr: \(legacy.standardError)")
    #expect(
      legacy.standardError.contains(
        "warning: [anki-properties-dropped] the sync state (usn) of 1 option group is not kept: a CrowdAnki folder has no place for it"
      ))
    // A collection of Anki's own export, synced (usn 0): nothing to report.
    let synced = try CommandRun.deckport([
      "convert", Fixtures.path("anki/latest.colpkg"), scratch.path(for: "synced"), "--to", "crowdanki",
    ])
    #expect(synced.status == 0 && !synced.standardError.contains("option group"))
  }

  @Test(
    "a note model's or option group's value Anki cannot read is written as the nearest one it reads, named in a value-clamped warning"
  )
  func valuesAnkiCannotRead() throws {
    let scratch = try TemporaryDirectory()
    // A real CrowdAnki deck file (Brain Brew's example), given a font size beyond 16 bits and an
    // answer action Anki does not define: CrowdAnki's import hands both to Anki, which refuses
    // them (Tests/anki/test_crowdanki_import_of_ours.py shows it with the real backend).
    var deck = try Self.json(Fixtures.path("crowdanki/brain-brew-example/crowdanki_example_1/deck.json"))
    var models = try #require(deck["note_models"] as? [[String: Any]])
    var fields = try #require(models[0]["flds"] as? [[String: Any]])
    fields[0]["size"] = 1 << 40
    models[0]["flds"] = fields
    // Keys the reader reports as not kept are taken out, so only what the writer says is reported.
    models[0]["tags"] = nil
    deck["extendNew"] = nil
    deck["extendRev"] = nil
    deck["note_models"] = models
    var groups = try #require(deck["deck_configurations"] as? [[String: Any]])
    groups[0]["answerAction"] = -1
    deck["deck_configurations"] = groups
    let source = scratch.path(for: "source")
    try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: source + "/deck.json"))

    let output = scratch.path(for: "fitted")
    let run = try CommandRun.deckport(["convert", source, output, "--to", "crowdanki", "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError.contains(
        "field 'Word': warning: [value-clamped] font size ('size') is 1099511627776, which Anki cannot read there (it reads a whole number from 0 to 65535) and would refuse it, which stops CrowdAnki's import part way; 65535 is written"
      ), "\(run.standardError)")
    #expect(run.standardError.contains("note type 'Test Model' (id "), "\(run.standardError)")
    #expect(run.standardError.contains("option group 'LL Default' (id "), "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: [value-clamped] setting 'answerAction' is -1, which Anki cannot read there (it reads one of 0, 1, 2, 3, 4) and would refuse it, which stops CrowdAnki's import part way; 0 is written"
      ),
      "\(run.standardError)")
    // The example's templates name fields its note model lacks ('X Word'), which Anki's note type
    // API refuses: the folder keeps them, and says so.
    #expect(
      run.standardError.contains(
        "template 'X Comprehension': warning: [template-refused] its front names the field 'X Word', which the note type does not have: Anki's note type API refuses such a template, which stops CrowdAnki's import part way"
      ), "\(run.standardError)")
    let written = try Self.json(output + "/deck.json")
    let writtenModel = try #require((written["note_models"] as? [[String: Any]])?.first)
    #expect(((writtenModel["flds"] as? [[String: Any]])?.first?["size"] as? Int) == 65535)
    let writtenGroup = try #require((written["deck_configurations"] as? [[String: Any]])?.first)
    #expect(writtenGroup["answerAction"] as? Int == 0)
    #expect(writtenGroup["maxTaken"] as? Int == 60)

    let strict = try CommandRun.deckport([
      "convert", source, scratch.path(for: "strict"), "--to", "crowdanki", "--strict",
    ])
    #expect(strict.status == 1 && strict.standardError.contains("value-clamped"), "\(strict.standardError)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "strict")))
  }

  @Test("convert --out-dir --to crowdanki writes one folder per input, named after it without its extension")
  func batchIntoFolders() throws {
    let scratch = try TemporaryDirectory()
    let outDir = scratch.path(for: "out")
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/latest_sched.apkg"), Fixtures.path("real/french-phrases-legacy2-nometa.apkg"),
      Self.folder, "--out-dir", outDir, "--to", "crowdanki",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: outDir).sorted()
        == ["Ultimate_Geography", "french-phrases-legacy2-nometa", "latest_sched"])
    for name in ["Ultimate_Geography", "french-phrases-legacy2-nometa", "latest_sched"] {
      #expect(FileManager.default.fileExists(atPath: "\(outDir)/\(name)/deck.json"))
    }
    // The root added above several top-level decks is named after the folder written.
    #expect(try Self.json(outDir + "/latest_sched/deck.json")["name"] as? String == "latest_sched")
    #expect(run.standardError.contains("new top deck 'latest_sched'"), "\(run.standardError)")
  }

  @Test("a note CrowdAnki wrote into two decks (its cards were split) is read once, with a warning naming both decks")
  func noteInTwoDecksIsOneNote() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "split")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    var deck = try Self.json(Self.folder + "/Ultimate_Geography.json")
    let notes = (deck["notes"] as? [[String: Any]]) ?? []
    // A subdeck holding the same note again, as CrowdAnki's exporter writes it.
    var child: [String: Any] = deck
    child["name"] = "Capitals"
    child["crowdanki_uuid"] = "6c1f5a02-0000-4000-8000-000000000001"
    child["children"] = [[String: Any]]()
    child["notes"] = [notes[0]]
    child["note_models"] = nil
    child["deck_configurations"] = nil
    child["media_files"] = nil
    deck["children"] = [child]
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: folder + "/deck.json"))
    try FileManager.default.copyItem(atPath: Self.folder + "/media", toPath: folder + "/media")
    let output = scratch.path(for: "out.apkg")
    let run = try CommandRun.deckport(["convert", folder, output])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let guid = try #require(notes[0]["guid"] as? String)
    #expect(
      run.standardError.contains(
        "[note-decks-merged] note \(guid) is in deck 'Ultimate Geography' and again in deck 'Ultimate Geography::Capitals'"
      ),
      "\(run.standardError)")
    let summary = try CommandRun.deckport(["inspect", output, "--json"])
    let inspected = try JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8)) as? [String: Any]
    #expect(inspected?["notes"] as? Int == notes.count)
    // A different note under a GUID already used stays a second note (the writer's GUID policy decides).
    var different = notes[0]
    different["fields"] = ["changed"] + ((notes[0]["fields"] as? [String]) ?? []).dropFirst()
    child["notes"] = [different]
    deck["children"] = [child]
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: folder + "/deck.json"))
    let refused = try CommandRun.deckport(["convert", folder, scratch.path(for: "other.apkg")])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains(guid), "\(refused.standardError)")
  }

  @Test(
    "a note of more values than its note model has fields keeps them, joined into the last field; a short one is filled"
  )
  func noteOfOtherValueCountIsFitted() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "fitted")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    var deck = try Self.json(Self.folder + "/Ultimate_Geography.json")
    var notes = try #require(deck["notes"] as? [[String: Any]])
    // Two notes of one note model.
    #expect(notes[0]["note_model_uuid"] as? String == notes[1]["note_model_uuid"] as? String)
    let long = try #require(notes[0]["fields"] as? [String])
    let short = try #require(notes[1]["fields"] as? [String])
    notes[0]["fields"] = long + ["extra", "more"]
    notes[1]["fields"] = [short[0]]
    deck["notes"] = notes
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: folder + "/deck.json"))
    try FileManager.default.copyItem(atPath: Self.folder + "/media", toPath: folder + "/media")
    let output = scratch.path(for: "out.json")
    let run = try CommandRun.deckport(["convert", folder, output, "--verbose"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let models = try #require(deck["note_models"] as? [[String: Any]])
    let model = try #require(models.first { $0["crowdanki_uuid"] as? String == notes[0]["note_model_uuid"] as? String })
    let names = try #require((model["flds"] as? [[String: Any]])?.compactMap { $0["name"] as? String })
    #expect(names.count == long.count)
    #expect(
      run.standardError.contains(
        "[field-count] note \(notes[0]["guid"] ?? "") has \(long.count + 2) fields but its note model '\(model["name"] ?? "")' has \(long.count); the values from field \(long.count) on are joined with \"; \" into the last field, '\(names[names.count - 1])', as Anki's Check Database joins them"
      ), "\(run.standardError)")
    // The deck written, read with Foundation: the first note's values all there, the second's
    // missing ones empty.
    let written = try #require(try Self.json(output)["notes"] as? [[String: Any]])
    let byGUID = Dictionary(written.map { ($0["guid"] as? String ?? "", $0["fields"] as? [String: String] ?? [:]) }) {
      first, _ in first
    }
    let first = try #require(byGUID[notes[0]["guid"] as? String ?? ""])
    #expect(names.map { first[$0] ?? "(none)" } == long.dropLast() + [long[long.count - 1] + "; extra; more"])
    let second = try #require(byGUID[notes[1]["guid"] as? String ?? ""])
    #expect(names.map { second[$0] ?? "" } == [short[0]] + Array(repeating: "", count: names.count - 1))
  }

  @Test(
    "a note model's or option group's Anki id kept in the folder is its id; one an earlier object has, or one Anki never gives, is replaced by the derived id with a warning"
  )
  func noteModelAnkiIDs() throws {
    let scratch = try TemporaryDirectory()
    var deck = try CrowdAnkiFixtureDeck.deck()
    var models = try #require(deck["note_models"] as? [[String: Any]])
    try #require(models.count >= 3)
    let kept: Int64 = 1_500_000_000_000
    models[0]["deckport_anki_id"] = kept
    models[1]["deckport_anki_id"] = kept
    models[2]["deckport_anki_id"] = -3
    // One that is another note model's derived id (pasted), and one that is text.
    try #require(models.count >= 5)
    let pasted = CrowdAnkiReader.derivedNoteTypeID(uuid: try #require(models[4]["crowdanki_uuid"] as? String))
    models[3]["deckport_anki_id"] = pasted
    models[4]["deckport_anki_id"] = "1500000000001"
    deck["note_models"] = models
    // An option group keeps its id too (Anki's Default, 1, here).
    var groups = try #require(deck["deck_configurations"] as? [[String: Any]])
    groups[0]["deckport_anki_id"] = 1
    deck["deck_configurations"] = groups
    let folder = try CrowdAnkiFixtureDeck.folder("ids", in: scratch, holding: deck)
    let output = scratch.path(for: "out.json")
    let run = try CommandRun.deckport(["convert", folder, output])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let names = models.map { $0["name"] as? String ?? "" }
    #expect(
      run.standardError.contains(
        "[crowdanki-anki-id] note model '\(names[1])' gives the Anki id \(kept) of note model '\(names[0])' before it"
      ),
      "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "[crowdanki-anki-id] note model '\(names[2])' gives the Anki id -3, which is not one Anki gives"),
      "\(run.standardError)")
    // The deck written, read with Foundation: the first keeps the id, the others get their own;
    // the member is no property of the note type.
    let noteTypes = try #require(try Self.json(output)["noteTypes"] as? [[String: Any]])
    let ids = Dictionary(noteTypes.map { ($0["name"] as? String ?? "", ($0["id"] as? NSNumber)?.int64Value ?? 0) }) {
      first, _ in first
    }
    #expect(ids[names[0]] == kept)
    #expect(ids[names[1]] != kept && ids[names[1]] != nil)
    #expect((ids[names[2]] ?? 0) > 0)
    #expect(ids[names[3]] == pasted)
    let document = try Self.json(output)
    let groupIDs = (document["deckOptions"] as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.int64Value }
    #expect(groupIDs == [1])
    #expect(
      run.standardError.contains(
        #"[crowdanki-anki-id] note model '\#(names[4])' gives the Anki id "1500000000001", which is not one Anki gives"#
      ),
      "\(run.standardError)")
    // Every note type its own id, and every card made: as many as the folder without the ids gives.
    #expect(Set(noteTypes.compactMap { ($0["id"] as? NSNumber)?.int64Value }).count == noteTypes.count)
    let plain = scratch.path(for: "plain.json")
    let plainFolder = try CrowdAnkiFixtureDeck.folder("plain", in: scratch, holding: try CrowdAnkiFixtureDeck.deck())
    #expect(try CommandRun.deckport(["convert", plainFolder, plain, "-q"]).status == 0)
    let cards = { (path: String) in (try Self.json(path)["cards"] as? [Any])?.count }
    #expect(try cards(output) == cards(plain) && cards(plain) != nil)
    #expect(!(try String(contentsOfFile: output, encoding: .utf8)).contains("deckport_anki_id"))

    // Written again as a folder, each note model keeps the id it was read with, read with Foundation.
    let again = scratch.path(for: "again")
    #expect(try CommandRun.deckport(["convert", output, again, "--to", "crowdanki"]).status == 0)
    let written = try #require(try Self.json(again + "/deck.json")["note_models"] as? [[String: Any]])
    let first = try #require(written.first { $0["name"] as? String == names[0] })
    #expect((first["deckport_anki_id"] as? NSNumber)?.int64Value == kept)
  }

  static func json(_ path: String) throws -> [String: Any] {
    (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) as? [String: Any] ?? [:]
  }
}
