import DeckCore
import DeckIO
import Foundation
import PlistCodec
import Testing

@testable import DeckAppStorage

/// The built-in profiles against the seed apps' real models, and what deckport does to fit notes
/// to them.
@Suite("Seed app models")
struct SeedModelTests {
  /// A key of a real model: name, type, whether the model requires it.
  struct ModelKey: Equatable, CustomStringConvertible {
    var key: String
    var type: AppValueType
    var required: Bool
    var description: String { "\(key): \(type.rawValue)\(required ? "" : "?")" }
  }

  @Test(
    "each profile's keys, types and required flags are the app's real model",
    arguments: [
      (
        AppRecordProfile.flashzilla, "Card",
        [
          ModelKey(key: "id", type: .uuid, required: true), ModelKey(key: "prompt", type: .string, required: true),
          ModelKey(key: "answer", type: .string, required: true),
        ]
      ),
      (
        AppRecordProfile.neoMnemo, "Mnemonic",
        [
          ModelKey(key: "keyword", type: .string, required: true),
          ModelKey(key: "story", type: .string, required: true),
          ModelKey(key: "image", type: .data, required: true),
        ]
      ),
      (
        AppRecordProfile.flashcardQuiz, "Flashcard",
        [
          ModelKey(key: "word", type: .string, required: true),
          ModelKey(key: "definition", type: .string, required: true),
          ModelKey(key: "createdAt", type: .date, required: true),
          ModelKey(key: "wordTypeRaw", type: .string, required: true),
        ]
      ),
      (
        AppRecordProfile.idealic, "Logs",
        [
          ModelKey(key: "title", type: .string, required: false), ModelKey(key: "text", type: .string, required: false),
        ]
      ),
    ])
  func realModels(profile: AppRecordProfile, recordType: String, model: [ModelKey]) {
    #expect(profile.recordType == recordType)
    #expect(profile.fields.map { ModelKey(key: $0.key, type: $0.type, required: $0.required) } == model)
  }

  @Test("record type names: Flashzilla's SwiftData CardEntity, Idealic's logs in either spelling")
  func recordTypeNames() {
    #expect(AppRecordProfile.flashzilla.recordTypeNames == ["Card", "CardEntity"])
    #expect(AppRecordProfile.neoMnemo.recordTypeNames == ["Mnemonic"])
    #expect(AppRecordProfile.flashcardQuiz.recordTypeNames == ["Flashcard"])
    #expect(AppRecordProfile.idealic.recordTypeNames == ["Logs", "logs"])
  }

  @Test("identity keys")
  func identityKeys() {
    #expect(AppRecordProfile.flashzilla.identityKeys == ["id"])
    #expect(AppRecordProfile.neoMnemo.identityKeys == ["keyword"])
    #expect(AppRecordProfile.flashcardQuiz.identityKeys == ["word"])
    #expect(AppRecordProfile.idealic.identityKeys == ["title", "text"])
    for profile in AppRecordProfile.all {
      #expect(profile.identityKeys.allSatisfy(profile.keys.contains), "\(profile)")
    }
  }

  @Test("the word types are Flashcard Quiz's WordType raw values")
  func wordTypes() {
    #expect(
      AppRecordProfile.flashcardQuiz.fields.last?.choices?.values == [
        "noun", "verb", "adjective", "adverb", "preposition", "conjunction", "pronoun", "interjection", "determiner",
        "phrase",
      ])
  }

  @Test("detection stays tolerant: keys writing supplies may be missing; an Idealic set uses both keys")
  func tolerantDetection() {
    let card = AppRecord([("prompt", .string("p")), ("answer", .string("a"))])
    #expect(AppRecordProfile.flashzilla.fits(card))
    #expect(AppRecordProfile.detect(in: [card]) == .flashzilla)
    let withNotes = AppRecord([("keyword", .string("k")), ("story", .string("s")), ("notes", .string("n"))])
    #expect(AppRecordProfile.detect(in: [withNotes]) == nil)
    let logs = [
      AppRecord([("title", .string("t")), ("text", .string("x"))]), AppRecord([("text", .string("only text"))]),
    ]
    #expect(AppRecordProfile.detect(in: logs) == .idealic)
    #expect(AppRecordProfile.idealic.fits(AppRecord([("text", .string("only text"))])))
    #expect(AppRecordProfile.detect(in: [AppRecord([("text", .string("only text"))])]) == nil)
    #expect(!AppRecordProfile.idealic.matches([AppRecord()]))
  }

  /// A deck of one note type with `fields`, one note per entry of `notes` (GUID, field values,
  /// tags), ids counting up from 1_700_000_000_000.
  static func deck(fields: [String], notes: [(guid: String, values: [String], tags: [String])]) -> DeckCollection {
    let noteType = NoteType(
      id: 7, name: "Imported", fields: fields.map { NoteType.Field(name: $0) },
      templates: [.init(name: "Card 1", questionFormat: "{{\(fields[0])}}", answerFormat: "{{\(fields[0])}}")])
    let made = notes.enumerated().map { index, note in
      Note(id: 1_700_000_000_000 + Int64(index), guid: note.guid, noteTypeID: 7, fields: note.values, tags: note.tags)
    }
    return DeckCollection(decks: [Deck(id: 1, name: "Default")], noteTypes: [noteType], notes: made)
  }

  @Test("Flashzilla: the id comes from the note's GUID, the same in every conversion")
  func flashzillaIDFromGUID() throws {
    let canonical = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    let deck = Self.deck(
      fields: ["Front", "Back"],
      notes: [
        ("f:Ab3#x", ["Hund", "dog"], []), (canonical, ["Katze", "cat"], []),
        ("0b6b5a8e-2c1d-4e6f-9a7b-3c2d1e0f9a8b", ["Maus", "mouse"], []),
      ])
    let first = try AppRecordMapping.records(from: deck, profile: .named(.flashzilla)).records
    let second = try AppRecordMapping.records(from: deck, profile: .named(.flashzilla)).records
    #expect(first.records == second.records)
    let ids = first.records.map { $0["id"] }
    guard case .uuid(let derived)? = ids[0], case .uuid(let kept)? = ids[1], case .uuid(let lower)? = ids[2] else {
      Issue.record("ids are not UUIDs: \(ids)")
      return
    }
    #expect(kept.uuidString == canonical)
    #expect(derived == NoteIdentity.derivedUUID("f:Ab3#x"))
    #expect(Array(derived.uuidString)[14] == "5")
    // A UUID in another spelling (lower case) is that UUID, as the app writes it.
    #expect(lower.uuidString == "0B6B5A8E-2C1D-4E6F-9A7B-3C2D1E0F9A8B")
    #expect(Set([derived, kept, lower]).count == 3)
    // Back to a deck: the id is the GUID; and that deck gives the same ids again.
    let (again, _) = try AppRecordMapping.collection(from: first)
    #expect(again.notes.map(\.guid) == [derived.uuidString, canonical, lower.uuidString])
    let third = try AppRecordMapping.records(from: again).records
    #expect(third.records.map { $0["id"] } == ids)
  }

  @Test("NeoMnemo: a note without a picture gets empty image data; a Notes field and tags are reported")
  func neoMnemoFromNotes() throws {
    let deck = Self.deck(
      fields: ["Keyword", "Story", "Notes"],
      notes: [
        ("g1", ["Haus", "A mouse in the HOUSE.", "noun, das"], ["german"]),
        ("g2", ["Baum", "A BOMb in the tree.", ""], []),
      ])
    let (records, warnings) = try AppRecordMapping.records(
      from: deck, profile: .named(.neoMnemo), file: "default.store")
    #expect(records.records.map(\.keys) == [["keyword", "story", "image"], ["keyword", "story", "image"]])
    #expect(records.records.allSatisfy { $0["image"] == .data(Data()) })
    // Each warning names the store, the record type, and the note with its own note type.
    #expect(
      warnings.map(\.description) == [
        "default.store: record type 'Mnemonic', note 1700000000000 (Imported), field 'Notes': warning: [field-dropped] the field has no place in a NeoMnemo Mnemonic and is left out",
        "default.store: record type 'Mnemonic': warning: [tags-dropped] 1 note has tags, which the records cannot hold",
        "default.store: record type 'Mnemonic': warning: [note-types-dropped] records hold the notes' values, not their note types' templates, styling or field settings; this note type is not one of Anki's stock ones, so its definition is not kept: 'Imported'",
      ])
    // Empty image data comes back as no picture, and the records come back equal.
    let (again, _) = try AppRecordMapping.collection(from: records)
    #expect(again.media.isEmpty)
    #expect(again.notes.map { $0.fields[2] } == ["", ""])
    #expect(try AppRecordMapping.records(from: again).records.records == records.records)
  }

  @Test("NeoMnemo: a record without a picture fills a store as empty data and reads back as one")
  func neoMnemoEmptyImageInStore() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    let deck = Self.deck(fields: ["Keyword", "Story"], notes: [("g1", ["Tisch", "A TEA-SHirt on the table."], [])])
    let (records, _) = try AppRecordMapping.records(from: deck, profile: .named(.neoMnemo))
    _ = try AppStorageWriter().write(records, to: store, options: AppWriteOptions(existing: .replace))
    let stored = try AppStorageReader().read(path: store).records.records
    #expect(
      stored.last
        == AppRecord([
          ("keyword", .string("Tisch")), ("story", .string("A TEA-SHirt on the table.")), ("image", .data(Data())),
        ]))
    let tag = try AppFixtures.python(
      "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select hex(ZIMAGE) from ZMNEMONIC where Z_PK = 4').fetchone()[0])",
      [store])
    #expect(tag == "01\n")
  }

  @Test(
    "Flashcard Quiz: the Word Type field is matched trimmed and without case; anything else is mapped with a warning",
    arguments: [
      ("verb", "run", "verb", false),
      (" Adjective ", "big", "adjective", false),
      ("NOUN", "Hund", "noun", false),
      ("<b>phrase</b>", "by heart", "phrase", false),
      ("Nomen", "Hund", "noun", true),
      ("", "ice cream", "phrase", true),
      ("", "run", "noun", true),
      ("idiom", "  kick the bucket ", "phrase", true),
      ("verbs", "  run  ", "noun", true),
    ])
  func quizWordTypes(wordType: String, word: String, expected: String, warned: Bool) throws {
    let deck = Self.deck(
      fields: ["Word", "Definition", "Word Type"], notes: [("g1", [word, "a definition", wordType], [])])
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .named(.flashcardQuiz))
    let record = try #require(records.records.first)
    #expect(record["wordTypeRaw"] == .string(expected))
    #expect(record["createdAt"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
    let mapped = warnings.filter { $0.category == "word-type-mapped" }
    #expect(mapped.count == (warned ? 1 : 0))
    if let warning = mapped.first {
      let shown = wordType.isEmpty ? "an empty word type" : "'\(wordType)', not a Flashcard Quiz word type,"
      #expect(
        warning.description
          == "record type 'Flashcard': note 1700000000000 (Imported), field 'Word Type': warning: [word-type-mapped] \(shown) becomes '\(expected)' in wordTypeRaw (Flashcard Quiz takes noun, verb, adjective, adverb, preposition, conjunction, pronoun, interjection, determiner, phrase)"
      )
    }
  }

  @Test("Flashcard Quiz: a deck without a Word Type field still gives every required key")
  func quizWithoutWordType() throws {
    let deck = Self.deck(fields: ["Front", "Back"], notes: [("g1", ["hello", "a greeting"], [])])
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .named(.flashcardQuiz))
    let record = try #require(records.records.first)
    #expect(record.keys == ["word", "definition", "createdAt", "wordTypeRaw"])
    #expect(record["wordTypeRaw"] == .string("noun"))
    // The deck's own note type (`Imported`) is not kept either.
    #expect(warnings.map(\.category) == ["word-type-mapped", "note-types-dropped"])
  }

  @Test("Idealic.sqlite is a Core Data store by its content, read as entity Logs")
  func idealicStore() throws {
    let path = AppFixtures.path("Idealic.sqlite")
    #expect(try AppStorageKind.detect(path: path) == .coreData)
    #expect(AppStorageKind.recognize(path: path) == .coreData)
    let content = try AppStorageReader().read(path: path)
    #expect(content.kind == .coreData)
    #expect(content.place == "entity Logs (table ZLOGS)")
    #expect(content.records.name == "Logs")
    #expect(content.records.profile == .idealic)
    #expect(content.records.records.count == 4)
    #expect(
      content.records.records[0]
        == AppRecord([("title", .string("Morning pages")), ("text", .string("Wrote three pages before breakfast."))]))
    #expect(content.records.records[1].keys == ["text"])
    #expect(content.records.records[2].keys == ["title"])
    let types = try AppStorageReader().recordTypes(path: path)
    #expect(types.map(\.name) == ["Logs"])
    #expect(types.first?.fields == [.init(key: "title", type: .string), .init(key: "text", type: .string)])
  }

  @Test("Idealic: logs from a deck fill Idealic.sqlite's Logs entity; an empty title stays absent")
  func idealicFill() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("Idealic.sqlite", into: scratch)
    let deck = Self.deck(
      fields: ["Title", "Text"], notes: [("g1", ["", "untitled thought"], []), ("g2", ["Plan", "Write tests"], [])])
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .named(.idealic))
    #expect(warnings.map(\.category) == ["note-types-dropped"])
    #expect(records.name == "Logs")
    let report = try AppStorageWriter().write(records, to: store, options: AppWriteOptions(existing: .replace))
    #expect(report.place == "entity Logs (table ZLOGS)")
    let stored = try AppStorageReader().read(path: store).records.records
    #expect(
      Array(stored.suffix(2)) == [
        AppRecord([("text", .string("untitled thought"))]),
        AppRecord([("title", .string("Plan")), ("text", .string("Write tests"))]),
      ])
  }

  @Test("Flashzilla's SwiftData store: entity CardEntity is read with the profile and filled from cards")
  func flashzillaSwiftData() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("flashzilla-swiftdata.store"))
    #expect(content.place == "entity CardEntity (table ZCARDENTITY)")
    #expect(content.records.profile == .flashzilla)
    #expect(content.records.records == AppFixtures.flashzillaRecords)

    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-swiftdata-empty.store", into: scratch)
    let cards = AppRecords(name: "Card", records: AppFixtures.flashzillaRecords, profile: .flashzilla)
    let report = try AppStorageWriter().write(cards, to: store, options: AppWriteOptions(existing: .replace))
    #expect(report.place == "entity CardEntity (table ZCARDENTITY)")
    #expect(try AppStorageReader().read(path: store).records.records == AppFixtures.flashzillaRecords)
    // The same cards again match by id and change nothing; added regardless, the unique index on id refuses them.
    let again = try AppStorageWriter().write(cards, to: store, options: AppWriteOptions(existing: .replace))
    #expect(again.merge == AppRecordMergeSummary(unchanged: 3))
    #expect(try AppStorageReader().read(path: store).records.records == AppFixtures.flashzillaRecords)
    #expect(throws: DeckError.self) {
      try AppStorageWriter().write(
        cards, to: store, options: AppWriteOptions(existing: .replace, matching: AppRecordMatching(policy: .add)))
    }
  }

  @Test("a Core Data model marks external storage by bit 0x4 of NSFlagsKey")
  func externalStorageFlag() throws {
    func object(_ pairs: [(String, PlistValue)]) -> PlistValue {
      .dictionary(PlistDictionary(pairs.map { PlistDictionary.Entry(key: $0.0, value: $0.1) }))
    }
    func type(_ name: String) -> PlistValue {
      object([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))])
    }
    let objects: [PlistValue] = [
      .string("$null"),
      object([("$class", .uid(2)), ("NSEntityName", .uid(3)), ("NSProperties", .uid(4))]),
      type("NSEntityDescription"),
      .string("Mnemonic"),
      object([("NS.keys", .array([.uid(5)])), ("NS.objects", .array([.uid(6)])), ("$class", .uid(8))]),
      .string("image"),
      object([
        ("$class", .uid(7)), ("NSPropertyName", .uid(5)), ("NSAttributeType", .integer(1000)),
        ("NSFlagsKey", .integer(4)),
      ]),
      type("NSAttributeDescription"),
      type("NSDictionary"),
    ]
    let root = object([
      ("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100_000)), ("$top", object([("root", .uid(1))])),
      ("$objects", .array(objects)),
    ])
    let archive = try #require(KeyedArchive(root))
    let image = try #require(CoreDataModel.decode(archive).entities["Mnemonic"]?.attributes.first)
    #expect(image.name == "image")
    #expect(image.allowsExternalStorage)
    #expect(!image.isOptional)
  }
}
