import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

@Suite("Core Data / SwiftData stores")
struct CoreDataStoreTests {
  @Test("entities are listed from Z_PRIMARYKEY, with names and types from the model cache")
  func listEntities() throws {
    let types = try AppStorageReader().recordTypes(path: AppFixtures.path("flashzilla.store"))
    #expect(types.count == 1)
    let card = try #require(types.first)
    #expect(card.name == "Card")
    #expect(card.count == 3)
    #expect(
      card.fields == [
        .init(key: "id", type: .uuid), .init(key: "prompt", type: .string), .init(key: "answer", type: .string),
      ])
    #expect(card.profile == .flashzilla)
    #expect(card.detail == "table ZCARD, Z_ENT 1, Z_MAX 3")
  }

  @Test(
    "rows of a table that belong to no entity (Z_ENT empty or unknown) are named in a warning, not read silently past")
  func rowsOfNoEntity() throws {
    let scratch = try TemporaryDirectory()
    let path = try AppFixtures.copy("flashzilla.store", into: scratch)
    try AppFixtures.execute(
      "UPDATE ZCARD SET Z_ENT = 99 WHERE Z_PK = 2; UPDATE ZCARD SET Z_ENT = NULL WHERE Z_PK = 3;", on: path)
    let content = try AppStorageReader().read(path: path)
    #expect(content.records.records.count == 1)
    let warning = try #require(content.warnings.first { $0.category == "rows-of-no-entity" })
    #expect(warning.location.table == "ZCARD")
    #expect(warning.message.hasPrefix("2 rows of the table belong to no entity of the store"))
    try AppFixtures.execute("UPDATE ZCARD SET Z_ENT = 1 WHERE Z_PK = 3;", on: path)
    let one = try #require(
      try AppStorageReader().read(path: path).warnings.first { $0.category == "rows-of-no-entity" })
    #expect(one.message.hasPrefix("1 row of the table belongs to no entity of the store"))
    // Stores Apple's frameworks made, every entity read (Photos' hierarchies share tables): none.
    for name in [
      "Photos.sqlite", "NoteStore-macOS-12-Monterey.sqlite", "MicrosoftTeams-iOS15.sqlite",
      "CartKitSwiftData_v1.sqlite",
      "VacuumTest-challenges.store", "SampleModel_V1.sqlite", "SampleModel2_V2.sqlite",
    ] {
      let store = try AppStorageReader().readStore(path: Fixtures.path("apple-stores/\(name)"))
      #expect(!store.warnings.contains { $0.category == "rows-of-no-entity" }, "\(name)")
    }
    // The store as Core Data left it has none.
    let whole = try AppStorageReader().read(
      path: AppFixtures.copy("flashzilla.store", into: scratch, as: "whole.store"))
    #expect(!whole.warnings.contains { $0.category == "rows-of-no-entity" })
  }

  @Test("a Boolean attribute holding neither 0 nor 1 is read as true, as Core Data reads it, and said")
  func booleanNeitherZeroNorOne() throws {
    let scratch = try TemporaryDirectory()
    // A store Core Data made (SampleModel_V1: ExpensiveSportCar.isLimitedEdition is a Boolean).
    let path = try AppFixtures.copy("../apple-stores/SampleModel_V1.sqlite", into: scratch, as: "SampleModel_V1.sqlite")
    let clean = try AppStorageReader().read(path: path, options: AppStorageOptions(entity: "ExpensiveSportCar"))
    #expect(!clean.warnings.contains { $0.category == "boolean-not-0-or-1" })
    try AppFixtures.execute(
      "UPDATE ZCAR SET ZISLIMITEDEDITION = 2 WHERE Z_PK = 87; UPDATE ZCAR SET ZISLIMITEDEDITION = -1 WHERE Z_PK = 99;",
      on: path)
    let content = try AppStorageReader().read(path: path, options: AppStorageOptions(entity: "ExpensiveSportCar"))
    let warnings = content.warnings.filter { $0.category == "boolean-not-0-or-1" }
    #expect(warnings.count == 1)
    #expect(warnings.first?.location.table == "ZCAR")
    #expect(
      warnings.first?.message
        == "entity ExpensiveSportCar: the Boolean attribute isLimitedEdition holds 2 in row 87 (and 1 other row), not 0 or 1; read as true, as Core Data reads it (written elsewhere, it is true)"
    )
    let flags = content.records.records.compactMap { $0["isLimitedEdition"] }
    #expect(flags.filter { $0 == .bool(true) }.count == 3)
  }

  @Test("the model cache inflates (raw DEFLATE) and decodes (NSKeyedArchiver) on Linux")
  func modelCache() throws {
    let scratch = try TemporaryDirectory()
    let path = try AppFixtures.copy("neomnemo.store", into: scratch)
    let database = try SQLiteDatabase(path: path, readOnly: true, location: SourceLocation(file: path))
    let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
    #expect(try statement.step())
    let model = try CoreDataModel.decode(modelCache: statement.blob(0))
    let mnemonic = try #require(model.entities["Mnemonic"])
    let attributes = mnemonic.attributes
    #expect(attributes.map(\.name) == ["keyword", "story", "image"])
    #expect(attributes.map(\.typeCode) == [700, 700, 1000])
    #expect(attributes.map(\.isOptional) == [false, false, false])
    #expect(attributes.map(\.allowsExternalStorage) == [false, false, true])
    #expect(throws: CoreDataModel.Failure.self) { try CoreDataModel.decode(modelCache: Data("not deflate".utf8)) }
  }

  @Test("UUIDs come from their 16 raw bytes, and the records match the plist's cards")
  func flashzillaStore() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("flashzilla.store"))
    #expect(content.kind == .coreData)
    #expect(content.place == "entity Card (table ZCARD)")
    #expect(content.records.records == AppFixtures.flashzillaRecords)
    #expect(content.records.primaryKeys == [1, 2, 3])
  }

  @Test("the -wal is read with the store (the main file alone is stale), and no file of the store changes")
  func walIsRead() throws {
    let path = AppFixtures.path("flashzilla-wal.store")
    let before = try AppFixtures.snapshot(path)
    #expect(before.keys.sorted() == ["", "-shm", "-wal"])
    let content = try AppStorageReader().read(path: path)
    #expect(content.records.records.count == 5)
    #expect(content.records.records.last?["prompt"] == .string("Also later"))
    #expect(try AppFixtures.snapshot(path) == before)
    let mainOnly = try AppFixtures.python(
      "import sqlite3,sys; print(sqlite3.connect('file:'+sys.argv[1]+'?immutable=1', uri=True).execute('select count(*) from ZCARD').fetchone()[0])",
      [path])
    #expect(mainOnly == "3\n")
  }

  @Test("external storage: an inline 0x01 blob, a 0x02 reference to _EXTERNAL_DATA, and empty data (0x01 alone)")
  func externalStorage() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("neomnemo.store"))
    #expect(content.records.profile == .neoMnemo)
    let records = content.records.records
    #expect(
      records.map { $0.keys } == [
        ["keyword", "story", "image"], ["keyword", "story", "image"], ["keyword", "story", "image"],
      ])
    #expect(records[2]["image"] == .data(Data()))
    guard case .data(let inline)? = records[0]["image"], case .data(let external)? = records[1]["image"] else {
      Issue.record("images are not data")
      return
    }
    #expect(inline.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let file = try Data(
      contentsOf: URL(
        fileURLWithPath: AppFixtures.path(".neomnemo_SUPPORT/_EXTERNAL_DATA/3F2504E0-4F89-41D3-9A0C-0305E82C3301")))
    #expect(external == file)
  }

  @Test("a store without a model cache: names from the columns, spelled by the profile; dates from 2001")
  func noModelCache() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("flashcard-quiz.sqlite"))
    #expect(content.kind == .coreData)
    #expect(content.records.profile == .flashcardQuiz)
    let first = try #require(content.records.records.first)
    #expect(first.keys == ["createdAt", "definition", "word", "wordTypeRaw"])
    #expect(first["createdAt"] == .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5)))
    #expect(first["word"] == .string("hello"))
  }

  @Test("filling a store the app created: Z_PK above Z_MAX, Z_ENT, Z_OPT = 1, Z_MAX raised, metadata untouched")
  func insertIntoEmptyStore() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-empty.store", into: scratch)
    let metadataBefore = try AppFixtures.python(
      "import sqlite3,sys,hashlib; c=sqlite3.connect(sys.argv[1]); print(hashlib.sha1(c.execute('select Z_PLIST from Z_METADATA').fetchone()[0] + c.execute('select Z_CONTENT from Z_MODELCACHE').fetchone()[0]).hexdigest())",
      [store])
    let report = try AppMigrator().migrate(
      source: AppFixtures.path("flashzilla-binary.plist"), destination: store,
      options: AppMigrationOptions(existing: .replace))
    #expect(report.destination.place == "entity Card (table ZCARD)")
    #expect(report.destination.recordCount == 3)
    let rows = try AppFixtures.python(
      "import sqlite3,sys,uuid; c=sqlite3.connect(sys.argv[1]); print(c.execute('select Z_PK, Z_ENT, Z_OPT, ZPROMPT from ZCARD order by Z_PK').fetchall()); print(c.execute('select Z_MAX from Z_PRIMARYKEY where Z_NAME = \"Card\"').fetchone()[0]); print(str(uuid.UUID(bytes=c.execute('select ZID from ZCARD where Z_PK = 1').fetchone()[0])).upper()); print(c.execute('pragma integrity_check').fetchone()[0])",
      [store])
    #expect(
      rows
        == "[(1, 1, 1, 'Zwölf? 日本 🃏'), (2, 1, 1, 'a/b \"quoted\"\\nsecond line'), (3, 1, 1, 'Capital of France?')]\n3\nE621E1F8-C36C-495A-93FC-0C247A3E6E5F\nok\n"
    )
    let metadataAfter = try AppFixtures.python(
      "import sqlite3,sys,hashlib; c=sqlite3.connect(sys.argv[1]); print(hashlib.sha1(c.execute('select Z_PLIST from Z_METADATA').fetchone()[0] + c.execute('select Z_CONTENT from Z_MODELCACHE').fetchone()[0]).hexdigest())",
      [store])
    #expect(metadataAfter == metadataBefore)
    #expect(try AppStorageReader().read(path: store).records.records == AppFixtures.flashzillaRecords)
    // The same cards again match by id: nothing changes.
    let again = try AppMigrator().migrate(
      source: AppFixtures.path("flashzilla-binary.plist"), destination: store,
      options: AppMigrationOptions(existing: .replace))
    #expect(again.destination.merge == AppRecordMergeSummary(unchanged: 3))
    #expect(try AppStorageReader().read(path: store).records.records == AppFixtures.flashzillaRecords)
    // Added regardless, the unique index refuses them: nothing is written.
    let before = try AppFixtures.snapshot(store)
    #expect {
      try AppMigrator().migrate(
        source: AppFixtures.path("flashzilla-binary.plist"), destination: store,
        options: AppMigrationOptions(existing: .replace, matching: AppRecordMatching(policy: .add)))
    } throws: { error in
      (error as? DeckError)?.description
        == "\(store): table ZCARD: record 1: SQLite: UNIQUE constraint failed: ZCARD.ZID (SQL: INSERT INTO \"ZCARD\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZID\", \"ZPROMPT\", \"ZANSWER\") VALUES (?, ?, ?, ?, ?, ?))"
    }
    #expect(try AppFixtures.snapshot(store) == before)
  }

  @Test("inserting into a store with rows and a -wal: new keys follow Z_MAX, the old -wal is folded in")
  func insertAfterWAL() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-wal.store", into: scratch)
    let cards = AppRecords(
      name: "Card",
      records: [
        AppRecord([
          ("id", .uuid(UUID(uuidString: "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE") ?? UUID())), ("prompt", .string("six")),
          ("answer", .string("6")),
        ])
      ],
      profile: .flashzilla)
    let report = try AppStorageWriter().write(cards, to: store, options: AppWriteOptions(existing: .backup))
    let backup = try #require(report.backupPath)
    #expect(FileManager.default.fileExists(atPath: backup + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
    let content = try AppStorageReader().read(path: store)
    #expect(content.records.records.count == 6)
    #expect(content.records.primaryKeys == [1, 2, 3, 4, 5, 6])
    #expect(try AppStorageReader().read(path: backup).records.records.count == 5)
  }

  @Test("a card without an id gets a UUID derived from its content, and a warning")
  func derivedIdentity() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-empty.store", into: scratch)
    let cards = AppRecords(
      name: "Card", records: [AppRecord([("prompt", .string("no id")), ("answer", .string("yet"))])],
      profile: .flashzilla)
    let report = try AppStorageWriter().write(cards, to: store, options: AppWriteOptions(existing: .replace))
    #expect(report.warnings.map(\.category) == ["generated-uuid"])
    let stored = try AppStorageReader().read(path: store).records.records
    let expected = CoreDataValueEncoding.derivedUUID(for: cards.records[0], entity: "Card")
    #expect(stored.first?["id"] == .uuid(expected))
  }

  @Test("NeoMnemo: images go into an external-storage attribute tagged inline, and come back equal")
  func neoMnemoImages() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    let report = try AppMigrator().migrate(
      source: AppFixtures.path("neomnemo-mnemonics.json"), destination: store,
      options: AppMigrationOptions(existing: .replace))
    #expect(report.source.records.profile == .neoMnemo)
    let content = try AppStorageReader().read(path: store)
    let source = try AppStorageReader().read(path: AppFixtures.path("neomnemo-mnemonics.json"))
    #expect(Array(content.records.records.suffix(2)).map { $0["image"] } == source.records.records.map { $0["image"] })
    let tag = try AppFixtures.python(
      "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select hex(substr(ZIMAGE,1,2)) from ZMNEMONIC where Z_PK = 4').fetchone()[0])",
      [store])
    #expect(tag == "0189\n")
  }

  @Test("a store that syncs with CloudKit is refused for writing; nothing changes")
  func cloudKit() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("cloudkit.store", into: scratch)
    let before = try AppFixtures.snapshot(store)
    #expect {
      try AppMigrator().migrate(
        source: AppFixtures.path("flashzilla-binary.plist"), destination: store,
        options: AppMigrationOptions(existing: .replace))
    } throws: { error in
      (error as? DeckError)?.description
        == "\(store): refusing to write: the store syncs with CloudKit (it has the CloudKit mirroring table ANSCKRECORDMETADATA); rows written outside the app would not be uploaded and could be overwritten"
    }
    #expect(try AppFixtures.snapshot(store) == before)
    #expect(try FolderContents.names(in: scratch.path) == ["cloudkit.store"])
  }

  @Test("a store is never created: the app must make it")
  func neverCreated() throws {
    let scratch = try TemporaryDirectory()
    let store = scratch.path(for: "default.store")
    #expect {
      try AppMigrator().migrate(source: AppFixtures.path("flashzilla-binary.plist"), destination: store)
    } throws: { error in
      (error as? DeckError)?.message.hasPrefix("a Core Data/SwiftData store can only be filled, never created") == true
    }
    #expect(try FolderContents.names(in: scratch.path).isEmpty)
  }

  @Test("a key the entity has no attribute for is refused, naming the record and key")
  func unknownAttribute() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-empty.store", into: scratch)
    let records = AppRecords(
      name: "Card", records: [AppRecord([("prompt", .string("p")), ("answer", .string("a")), ("hint", .string("h"))])])
    #expect {
      try AppStorageWriter().write(records, to: store, options: AppWriteOptions(existing: .replace))
    } throws: { error in
      (error as? DeckError)?.description
        == "\(store): table ZCARD: record 1, key 'hint': the entity Card has no property for this key (its properties: id, prompt, answer), so the records do not fit it; write them into storage of their own keys (a JSON file, a plist, deckport's SQLite)"
    }
    // A deck's notes go in through a profile: the error names the setting.
    var notes = records
    notes.valuesAreNoteText = true
    #expect {
      try AppStorageWriter().write(notes, to: store, options: AppWriteOptions(existing: .replace))
    } throws: { error in
      (error as? DeckError)?.message.hasSuffix(
        "goes in through the profile that maps them: name it with AppStorageOptions.profile") == true
    }
  }

  @Test("a real SwiftData store's composite (VacuumTest: an enum) is decoded with its element and read as an object")
  func realSwiftDataComposite() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "challenges.store")
    for suffix in ["", "-shm", "-wal"] {
      try FileManager.default.copyItem(
        atPath: Fixtures.path("apple-stores/VacuumTest-challenges.store" + suffix), toPath: path + suffix)
    }
    let database = try SQLiteDatabase(path: path, readOnly: true, location: SourceLocation(file: path))
    let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
    #expect(try statement.step())
    let model = try CoreDataModel.decode(modelCache: statement.blob(0))
    let challenge = try #require(model.entities["Challenge"])
    let rating = CoreDataModel.Composite(
      name: "rating", isOptional: true,
      elements: [
        .init(
          name: "rating", typeCode: 700, isOptional: true, isTransient: false, allowsExternalStorage: false,
          defaultValue: nil)
      ])
    #expect(challenge.properties.contains(.composite(rating)))

    let content = try AppStorageReader().read(path: path)
    #expect(content.place == "entity Challenge (table ZCHALLENGE)")
    let records = content.records.records
    #expect(records.map { $0["name"] } == [.string("Challenge #1"), .string("Challenge #0"), .string("Challenge #2")])
    #expect(records.map { $0["rating"] } == [nil, .object(AppRecord([("rating", .string("Hard"))])), nil])
  }
}

@Suite("Writing a deck with --profile auto")
struct DestinationProfileTests {
  @Test(
    "a deck of no profile's note type takes the profile the destination is made for, and says so",
    arguments: ["flashzilla-empty.store", "flashzilla-binary.plist", "flashzilla-cards.json"])
  func takesTheDestinationsProfile(destination name: String) throws {
    let scratch = try TemporaryDirectory()
    let deck = scratch.path(for: "words.csv")
    try Data("Hallo,hello\nZwölf,twelve\n".utf8).write(to: URL(fileURLWithPath: deck))
    let destination = try AppFixtures.copy(name, into: scratch)
    let run = try CommandRun.deckport(["convert", deck, destination, "--force", "--strict"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("profile Flashzilla Card, the destination's): 2 added"))
    let content = try AppStorageReader().read(path: destination)
    #expect(content.records.profile == .flashzilla)
    #expect(content.records.records.contains { $0["prompt"] == .string("Zwölf") && $0["answer"] == .string("twelve") })
  }

  @Test("a store no profile fits refuses the deck's keys and names --profile")
  func noProfileFits() throws {
    let scratch = try TemporaryDirectory()
    let deck = scratch.path(for: "words.csv")
    try Data("Hallo,hello\n".utf8).write(to: URL(fileURLWithPath: deck))
    let destination = try AppFixtures.copy("recipes-composite.store", into: scratch)
    let run = try CommandRun.deckport(["convert", deck, destination, "--force"])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains(
        "the entity Recipe has no property for this key (its properties: id, title, author); a deck whose fields are not these goes in through the profile that maps them: name it with --profile"
      ))
  }
}
