import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

@Suite("Records and notes")
struct AppRecordMappingTests {
  @Test("Flashzilla cards become notes (UUID as GUID, text escaped) and come back identical")
  func flashzilla() throws {
    let records = AppRecords(name: "Cards", records: AppFixtures.flashzillaRecords, profile: .flashzilla)
    let (deck, warnings) = try AppRecordMapping.collection(from: records)
    #expect(warnings.isEmpty)
    let noteType = try #require(deck.noteTypes.first)
    #expect(noteType.name == "Flashzilla Card")
    #expect(noteType.fieldNames == ["Prompt", "Answer"])
    #expect(noteType.templates.first?.questionFormat == "{{Prompt}}")
    #expect(deck.decks.map(\.name) == ["Flashzilla"])
    #expect(deck.cards.count == 3)
    let second = try #require(deck.notes.first { $0.guid == "0B6B5A8E-2C1D-4E6F-9A7B-3C2D1E0F9A8B" })
    #expect(second.fields == ["a/b \"quoted\"<br>second line", "&lt;b&gt;not bold&lt;/b&gt; &amp; more"])
    let (back, backWarnings) = try AppRecordMapping.records(from: deck)
    #expect(backWarnings.isEmpty)
    #expect(back.profile == .flashzilla)
    #expect(back.records == AppFixtures.flashzillaRecords)
    #expect(deck.notes.map(\.guid) == AppFixtures.flashzillaCards.map { $0[0].1 })
  }

  @Test("NeoMnemo images become media named by their SHA-1 and referenced from the Image field")
  func neoMnemoMedia() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("neomnemo.store"))
    let (deck, warnings) = try AppRecordMapping.collection(from: content.records)
    #expect(warnings.isEmpty)
    #expect(deck.noteTypes.first?.fieldNames == ["Keyword", "Story", "Image"])
    #expect(deck.media.count == 2)
    for file in deck.media {
      let data = try file.blob.data()
      #expect(file.name == SHA1.hex(SHA1.digest(data)) + ".png")
      #expect(file.mimeType == "image/png")
    }
    let haus = try #require(deck.notes.first { $0.fields[0] == "Haus" })
    #expect(haus.fields[2] == "<img src=\"\(deck.media[0].name)\">")
    #expect(MediaReferences.fileNames(in: haus.fields[2]) == [deck.media[0].name])
    // Empty image data is no picture: an empty field and no media file.
    let laufen = try #require(deck.notes.first { $0.fields[0] == "laufen" })
    #expect(laufen.fields[2] == "")
    let (back, _) = try AppRecordMapping.records(from: deck)
    #expect(back.records == content.records.records)
  }

  @Test("Flashcard Quiz: createdAt becomes the note id in milliseconds, and back")
  func quizCreation() throws {
    let content = try AppStorageReader().read(path: AppFixtures.path("flashcard-quiz.sqlite"))
    let (deck, _) = try AppRecordMapping.collection(from: content.records)
    #expect(deck.notes.map(\.id) == [1_678_307_200_500, 1_678_310_800_000])
    #expect(deck.noteTypes.first?.fieldNames == ["Word", "Definition", "Word Type"])
    let (back, _) = try AppRecordMapping.records(from: deck)
    #expect(back.records.first?["createdAt"] == .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5)))
    #expect(back.records.first?["wordTypeRaw"] == .string("interjection"))
  }

  @Test("without a profile, a string that is a picture's or sound's base64 (an app's Data in JSON) is that media file")
  func base64MediaInGenericRecords() throws {
    // A PNG and an MP3 frame header, each padded to more than the shortest media taken.
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 80))
    let mp3 = Data([0xFF, 0xFB, 0x90, 0x64] + Array(repeating: 0, count: 100))
    let unknown = Data(Array(repeating: 0x41, count: 100))
    let records = AppRecords(
      name: "Words",
      records: [
        AppRecord([("front", .string("Hund")), ("image", .string(png.base64EncodedString()))]),
        AppRecord([("front", .string("Katze")), ("image", .string(mp3.base64EncodedString()))]),
        AppRecord([("front", .string("Maus")), ("image", .string(unknown.base64EncodedString()))]),
      ])
    let (deck, _) = try AppRecordMapping.collection(from: records)
    let pngName = SHA1.hex(SHA1.digest(png)) + ".png"
    let mp3Name = SHA1.hex(SHA1.digest(mp3)) + ".mp3"
    #expect(
      deck.notes.map { $0.fields[1] } == [
        "<img src=\"\(pngName)\">", "[sound:\(mp3Name)]", unknown.base64EncodedString(),
      ])
    #expect(deck.media.map(\.name) == [pngName, mp3Name])
    #expect(try deck.media.map { try $0.blob.data() } == [png, mp3])
    // What stays text: too short, white space, other characters, bits past the end set, bytes
    // of no known format.
    let canonical = png.base64EncodedString()
    #expect(MediaSniffing.media(inBase64: canonical) == png)
    #expect(MediaSniffing.media(inBase64: Data(png.prefix(60)).base64EncodedString()) == nil)
    #expect(MediaSniffing.media(inBase64: canonical.prefix(40) + "\n" + canonical.dropFirst(40)) == nil)
    #expect(MediaSniffing.media(inBase64: canonical.prefix(40) + "-" + canonical.dropFirst(41)) == nil)
    // 88 bytes end in one byte (7) and two `=`: `Bw==`; `Bx==` sets a bit past the end.
    #expect(canonical.hasSuffix("Bw=="))
    #expect(MediaSniffing.media(inBase64: canonical.dropLast(3) + "x==") == nil)
    #expect(MediaSniffing.media(inBase64: unknown.base64EncodedString()) == nil)
    // With a profile, a string key is text whatever it holds.
    let profiled = AppRecords(
      name: "Cards", records: [AppRecord([("prompt", .string(canonical)), ("answer", .string("x"))])],
      profile: .flashzilla)
    #expect(try AppRecordMapping.collection(from: profiled).collection.media.isEmpty)
  }

  @Test(
    "note types records do not keep are named: changed or custom ones, and custom ones no note uses; stock ones and those made from records are not"
  )
  func noteTypesNamed() throws {
    let basic = try #require(StockNoteType.noteType(named: "Basic"))
    let cloze = try #require(StockNoteType.noteType(named: "Cloze"))
    var styled = try #require(StockNoteType.noteType(named: "Basic (and reversed card)"))
    styled.css += ".card { color: red; }"
    let vocabulary = NoteType(
      id: 3, name: "Vocabulary", fields: [.init(name: "Word"), .init(name: "Meaning")],
      templates: [.init(name: "Recall", questionFormat: "{{Meaning}}", answerFormat: "{{Word}}")])
    let deck = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [basic, cloze, vocabulary],
      notes: [Note(id: 1, guid: "a", noteTypeID: basic.id, fields: ["Hund", "dog"])])
    let message = { (deck: DeckCollection) throws in
      try AppRecordMapping.records(from: deck, profile: .generic).warnings.first {
        $0.category == "note-types-dropped"
      }?
      .message
    }
    // Stock Basic in use, stock Cloze unused: nothing; the custom Vocabulary, unused, is named.
    #expect(
      try message(deck)
        == "records hold the notes' values, not their note types' templates, styling or field settings; this note type is not one of Anki's stock ones, so its definition is not kept: 'Vocabulary' (no note kept uses it)"
    )
    var used = deck
    used.noteTypes = [basic, styled]
    used.notes.append(Note(id: 2, guid: "b", noteTypeID: styled.id, fields: ["Katze", "cat"]))
    #expect(
      try message(used)
        == "records hold the notes' values, not their note types' templates, styling or field settings; this note type is not one of Anki's stock ones, so its definition is not kept: 'Basic (and reversed card)' (its styling differs from the stock one)"
    )
    // A deck made from records, and back: its note type comes back whole, and is not named.
    let (records, _) = try AppRecordMapping.records(from: used, profile: .generic)
    let (fromRecords, _) = try AppRecordMapping.collection(from: records)
    #expect(try message(fromRecords) == nil)
  }

  /// A real collection's mp3 (`srf-chinese-legacy2.colpkg`, `audio1-2exercise3.mp3`) begins
  /// with `FF FA`, a frame header with a CRC, which was taken for unknown bytes (`.bin`, an
  /// `<object>` reference) when it came back from app storage.
  @Test(
    "MPEG audio frames of every layer and version, with or without a CRC, are mp3; ADTS frames aac; other bytes keep their kind",
    arguments: [
      ([0xFF, 0xFB, 0x90, 0x64], "mp3"), ([0xFF, 0xFA, 0x92, 0x60], "mp3"), ([0xFF, 0xF3, 0x40, 0xC4], "mp3"),
      ([0xFF, 0xE3, 0x18, 0xC4], "mp3"), ([0xFF, 0xFD, 0x90, 0x00], "mp3"), ([0xFF, 0xF1, 0x50, 0x80], "aac"),
      ([0xFF, 0xF9, 0x50, 0x80], "aac"), ([0xFF, 0xD8, 0xFF, 0xE0], "jpg"), ([0xFF, 0xEB, 0x00, 0x00], "bin"),
      ([0xFF, 0x00, 0x00, 0x00], "bin"),
    ] as [([UInt8], String)])
  func soundFrames(bytes: [UInt8], ext: String) {
    #expect(MediaSniffing.kind(of: Data(bytes + Array(repeating: 0, count: 12))).ext == ext)
    let reference = MediaSniffing.kind(of: Data(bytes)).reference
    #expect((reference == .sound) == (ext == "mp3" || ext == "aac"))
  }

  @Test("a generic shape maps field-for-key, and says which types become text")
  func generic() throws {
    let records = AppRecords(
      name: "Words",
      records: [
        AppRecord([
          ("front", .string("Hund")), ("back", .string("dog")), ("level", .integer(3)),
          ("tags:x", .array([.string("a")])),
        ])
      ])
    let (deck, warnings) = try AppRecordMapping.collection(from: records)
    #expect(deck.noteTypes.first?.name == "Words (app records)")
    #expect(deck.noteTypes.first?.fieldNames == ["front", "back", "level", "tagsx"])
    #expect(deck.notes.first?.fields == ["Hund", "dog", "3", "[\"a\"]"])
    #expect(
      warnings.map(\.description) == [
        "record type 'Words': key 'tags:x': warning: [key-renamed] is the note field 'tagsx' (Anki's field names hold no :{}\" and no leading #^/, and each name once); converting the deck back into storage that has the key restores it",
        "record type 'Words': key 'level': warning: [type-to-text] integer values become note text; converting the deck back types them again by a profile, a store's model or the values the file already holds under the key, else they stay text",
        "record type 'Words': key 'tags:x': warning: [type-to-text] array values become note text; converting the deck back types them again by a profile, a store's model or the values the file already holds under the key, else they stay text",
      ])
    let (back, _) = try AppRecordMapping.records(from: deck)
    #expect(
      back.records == [
        AppRecord([
          ("front", .string("Hund")), ("back", .string("dog")), ("level", .string("3")), ("tagsx", .string("[\"a\"]")),
        ])
      ])
  }

  /// An Anki-style deck: a Basic note type, a note whose Back shows a picture, formatting and tags.
  static func ankiDeck() -> DeckCollection {
    let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    let basic = NoteType(
      id: 1, name: "Basic", fields: [.init(name: "Front"), .init(name: "Back")],
      templates: [.init(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
    return DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [basic],
      notes: [
        Note(
          id: 1_700_000_000_000, guid: "abc", noteTypeID: 1,
          fields: ["<b>Katze</b>", "A cat.<br><img src=\"cat.png\">"], tags: ["animals"]),
        Note(id: 1_700_000_000_001, guid: "def", noteTypeID: 1, fields: ["Hund", "A dog &amp; a bone"]),
      ],
      cards: [Card(id: 1, noteID: 1_700_000_000_000, templateOrdinal: 0, deckID: 1)],
      media: [MediaFile(name: "cat.png", blob: MediaBlob(data: picture))])
  }

  @Test("generic records: a field that is only a picture becomes data; a picture beside text is named as dropped")
  func genericPictures() throws {
    var deck = Self.ankiDeck()
    deck.notes.append(Note(id: 1_700_000_000_002, guid: "ghi", noteTypeID: 1, fields: ["<img src=\"cat.png\">", "x"]))
    deck.notes.append(
      Note(id: 1_700_000_000_003, guid: "jkl", noteTypeID: 1, fields: ["<img src=\"gone.png\">", "[sound:a.mp3] y"]))
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .generic)
    #expect(records.records[0]["Back"] == .string("A cat.\n"))
    #expect(records.records[2]["Front"] == .data(try deck.media[0].blob.data()))
    #expect(records.records[3]["Front"] == .string(""))
    let named = warnings.filter { $0.category == "media-dropped" || $0.category == "media-missing" }
    #expect(
      named.map { "\($0.category) \($0.location.item ?? "") \($0.message)" } == [
        "media-dropped note 1700000000000 (Basic), field 'Back' refers to cat.png beside other content, which a text value cannot hold (only a field that is the picture or sound alone becomes data)",
        "media-missing note 1700000000003 (Basic), field 'Front' refers to gone.png, which the deck does not have",
        "media-dropped note 1700000000003 (Basic), field 'Back' refers to a.mp3 beside other content, which a text value cannot hold (only a field that is the picture or sound alone becomes data)",
      ])
  }

  /// Found by the session 58 review: once `a/` and `a\b.png` counted as references (Anki's
  /// import takes them for the files `a` and `ab.png`), records looked them up as written.
  @Test("a reference Anki's import renames (a/, c\\d.png) names the file of the name Anki stores")
  func referencesByStoredName() throws {
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7])
    var deck = Self.ankiDeck()
    deck.media = ["a", "cd.png"].map { MediaFile(name: $0, blob: MediaBlob(data: png)) }
    deck.notes = [
      Note(id: 1, guid: "a", noteTypeID: 1, fields: ["<img src=\"a/\">", "x"]),
      Note(id: 2, guid: "b", noteTypeID: 1, fields: ["<img src=\"c\\d.png\">", "y"]),
    ]
    let (generic, genericWarnings) = try AppRecordMapping.records(from: deck, profile: .generic)
    #expect(generic.records.map { $0["Front"] } == [.data(png), .data(png)])
    #expect(genericWarnings.filter { $0.category.rawValue.hasPrefix("media") }.isEmpty, "\(genericWarnings)")
    // Flashzilla's text keys cannot hold them: each is named once, with its field.
    let (_, flashzilla) = try AppRecordMapping.records(from: deck, profile: .named(.flashzilla))
    #expect(
      flashzilla.filter { $0.category.rawValue.hasPrefix("media") }.map(\.message) == [
        "refers to a/, which the Flashzilla Card key 'prompt' (text) cannot hold",
        "refers to c\\d.png, which the Flashzilla Card key 'prompt' (text) cannot hold",
      ])
  }

  /// Seen on real packages (an AnkiDroid sample's `[sound:_1sec.mp3]` on a card's back, a
  /// template's `_eudict_24.png`): a file no field names has no record to go into.
  @Test("a media file no record holds, such as one only a template uses, is named as not kept")
  func templateMediaNamed() throws {
    var deck = Self.ankiDeck()
    deck.media.append(MediaFile(name: "_logo.png", blob: MediaBlob(data: Data([1, 2, 3]))))
    let (_, warnings) = try AppRecordMapping.records(from: deck, profile: .generic, file: "cards.json")
    #expect(
      warnings.filter { $0.category == "media-dropped" && $0.location.item == "record type 'Basic'" }.map(\.description)
        == [
          "cards.json: record type 'Basic': warning: [media-dropped] 1 media file ('_logo.png') is not kept: no record holds it (a file only the note types' templates or styling use, only a field left out names, or no note kept names)"
        ])
    // The picture a field names is reported with that field, not again.
    #expect(warnings.filter { $0.message.contains("cat.png") }.count == 1)
  }

  @Test("a profile: media only a field left out names, or a second picture beside the one a Data key takes, are named")
  func mediaOfFieldsLeftOut() throws {
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7])
    let mnemonic = NoteType(
      id: 1, name: "Mnemonic",
      fields: [.init(name: "Keyword"), .init(name: "Story"), .init(name: "Image"), .init(name: "Audio")],
      templates: [.init(name: "Card 1", questionFormat: "{{Keyword}}", answerFormat: "{{Story}}")])
    let deck = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [mnemonic],
      notes: [
        Note(
          id: 1_700_000_000_000, guid: "a", noteTypeID: 1,
          fields: ["Haus", "A mouse.", "<img src=\"house.png\"><img src=\"mouse.png\">", "[sound:haus.mp3]"])
      ],
      cards: [Card(id: 1, noteID: 1_700_000_000_000, templateOrdinal: 0, deckID: 1)],
      media: ["house.png", "mouse.png", "haus.mp3"].map { MediaFile(name: $0, blob: MediaBlob(data: png)) })
    let (records, warnings) = try AppRecordMapping.records(
      from: deck, profile: .named(.neoMnemo), file: "default.store")
    #expect(records.records.first?["image"] == .data(png))
    #expect(
      warnings.map(\.description) == [
        "default.store: record type 'Mnemonic', note 1700000000000 (Mnemonic), field 'Audio': warning: [field-dropped] the field has no place in a NeoMnemo Mnemonic and is left out",
        "default.store: record type 'Mnemonic': warning: [note-types-dropped] records hold the notes' values, not their note types' templates, styling or field settings; this note type is not one of Anki's stock ones, so its definition is not kept: 'Mnemonic'",
        "default.store: record type 'Mnemonic': warning: [media-dropped] 2 media files ('haus.mp3', 'mouse.png') are not kept: no record holds them (a file only the note types' templates or styling use, only a field left out names, or no note kept names)",
      ])
  }

  @Test("records name what they cannot hold of the deck: its decks, a note's later cards, several note types")
  func structureLosses() throws {
    var deck = Self.ankiDeck()
    let reversed = NoteType(
      id: 2, name: "Reversed", fields: [.init(name: "Front"), .init(name: "Back")],
      templates: [
        .init(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}"),
        .init(name: "Card 2", questionFormat: "{{Back}}", answerFormat: "{{Front}}"),
      ])
    deck.noteTypes.append(reversed)
    deck.decks.append(Deck(id: 7, name: "Lang::French"))
    deck.notes.append(Note(id: 1_700_000_000_009, guid: "rev", noteTypeID: 2, fields: ["chat", "cat"]))
    deck.cards += [
      Card(id: 2, noteID: 1_700_000_000_009, templateOrdinal: 0, deckID: 7),
      Card(id: 3, noteID: 1_700_000_000_009, templateOrdinal: 1, deckID: 7),
    ]
    let (_, warnings) = try AppRecordMapping.records(from: deck, profile: .generic)
    let structure = warnings.filter { ["decks-dropped", "cards-dropped", "note-types-merged"].contains($0.category) }
    #expect(
      structure.map(\.message) == [
        "the cards are in 2 decks ('Default', 'Lang::French'), which the records cannot hold: a deck made from them puts every note in one deck, 'Basic'",
        "1 card beyond the first of its note (a reverse card, a further cloze number) is not kept: a record is a note, and a deck made from the records has one card a note",
        "notes of 2 note types ('Basic', 'Reversed') become records of one type, 'Basic', each with its own note type's field names; which note type a record came from is not kept",
      ])
    // A deck of one note type, in Default, one card a note: nothing of the kind.
    let (_, plain) = try AppRecordMapping.records(from: Self.ankiDeck(), profile: .generic)
    #expect(!plain.contains { ["decks-dropped", "cards-dropped", "note-types-merged"].contains($0.category) })
  }

  @Test(
    "a note whose <div> or <p> blocks become line breaks counts in formatting-dropped; one of text and <br> only does not"
  )
  func blocksCountAsFormatting() throws {
    let basic = NoteType(
      id: 1, name: "Basic", fields: [.init(name: "Front"), .init(name: "Back")],
      templates: [.init(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
    let deck = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [basic],
      notes: [
        Note(id: 1, guid: "a", noteTypeID: 1, fields: ["<div>one</div><div>two</div>", "x"]),
        Note(id: 2, guid: "b", noteTypeID: 1, fields: ["one<p>two</p>", "x"]),
        Note(id: 3, guid: "c", noteTypeID: 1, fields: ["one<br>two", "Tom &amp; Jerry"]),
      ])
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .generic)
    #expect(records.records.map { $0["Front"] } == [.string("one\ntwo"), .string("one\ntwo"), .string("one\ntwo")])
    #expect(
      warnings.filter { $0.category == "formatting-dropped" }.map(\.message) == [
        "2 notes had HTML formatting, which plain app text cannot keep (tags are removed; a <div> or <p> block becomes a line break, which comes back as <br>)"
      ])
    // The third note's text comes back as the HTML it was made of.
    #expect(FieldText.html("one\ntwo") == "one<br>two")
  }

  /// Seen on a real package (`deepa-math-ml-legacy1.apkg`: `A<sup>T</sup>Ax<u>⃗</u> = 0⃗`): a
  /// combining mark right after a tag's `>` makes one character with it, and the mark was
  /// removed with the tag.
  @Test("a combining mark right after a tag stays in the text")
  func combiningMarkAfterTag() {
    var losses = FieldText.Losses()
    #expect(FieldText.text("Ax<u>\u{20D7}</u> = 0\u{20D7}", losses: &losses) == "Ax\u{20D7} = 0\u{20D7}")
    #expect(losses.removedMarkup && !losses.blocksAsLineBreaks)
    var more = FieldText.Losses()
    #expect(FieldText.text("e<br>\u{301}<div>\u{301}x</div>", losses: &more) == "e\n\u{301}\n\u{301}x")
  }

  @Test("an Anki deck with images -> NeoMnemo-shaped store -> deck: the pictures come back")
  func deckThroughStore() throws {
    let deck = Self.ankiDeck()
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .named(.neoMnemo))
    #expect(warnings.map(\.category).sorted() == ["formatting-dropped", "note-types-dropped", "tags-dropped"])
    #expect(records.records[0]["keyword"] == .string("Katze"))
    #expect(records.records[0]["story"] == .string("A cat.\n"))
    #expect(records.records[0]["image"] == .data(try deck.media[0].blob.data()))
    #expect(records.records[1].keys == ["keyword", "story", "image"])
    #expect(records.records[1]["image"] == .data(Data()))
    #expect(records.records[1]["story"] == .string("A dog & a bone"))

    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    let report = try AppStorageWriter().write(records, to: store, options: AppWriteOptions(existing: .replace))
    #expect(report.place == "entity Mnemonic (table ZMNEMONIC)")
    let stored = try AppStorageReader().read(path: store).records
    #expect(Array(stored.records.suffix(2)) == records.records)

    let (again, _) = try AppRecordMapping.collection(from: stored.replacingRecords(Array(stored.records.suffix(2))))
    let katze = try #require(again.notes.first { $0.fields[0] == "Katze" })
    let name = try #require(MediaReferences.fileNames(in: katze.fields[2]).first)
    let file = try #require(again.media.first { $0.name == name })
    #expect(try file.blob.data() == deck.media[0].blob.data())
    #expect(katze.fields[1] == "A cat.<br>")
  }

  @Test(
    "a large picture goes into records, through a store's external file and back out mapped from private temporary files, not held in memory"
  )
  func largePictureIsMapped() throws {
    var deck = Self.ankiDeck()
    let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<300_000).map { UInt8($0 % 251) })
    deck.media = [MediaFile(name: "cat.png", blob: MediaBlob(data: picture))]
    let (records, _) = try AppRecordMapping.records(from: deck, profile: .named(.neoMnemo))
    guard case .data(let image)? = records.records[0]["image"] else {
      Issue.record("no image: \(records.records[0])")
      return
    }
    #expect(image == picture)
    #if os(Linux)
    #expect(MemoryMaps.isSpilled(image), "\(MemoryMaps.file(holding: image) ?? "heap")")
    #endif

    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    _ = try AppStorageWriter().write(records, to: store, options: AppWriteOptions(existing: .replace))
    let stored = try AppStorageReader().read(path: store).records
    let back = try #require(stored.records.first { $0["keyword"] == .string("Katze") })
    guard case .data(let storedImage)? = back["image"] else {
      Issue.record("no image: \(back)")
      return
    }
    #expect(storedImage == picture)
    #if os(Linux)
    // Copied from the store's _EXTERNAL_DATA file first: no other process can shorten the copy.
    #expect(MemoryMaps.isSpilled(storedImage), "\(MemoryMaps.file(holding: storedImage) ?? "heap")")
    #endif
  }

  @Test("notes take the store's modification time: its write-ahead log's when later, never its -shm index's")
  func storeModificationTime() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let store = try AppFixtures.copy("flashzilla-wal.store", into: scratch)
    let times: [(String, TimeInterval)] = [("", 1_790_000_000), ("-wal", 1_790_000_100), ("-shm", 1_790_000_900)]
    for (suffix, seconds) in times {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: store + suffix)
    }
    let deck = try AppStorageFormat.coreData.read(path: store, context: FormatReadContext())
    #expect(!deck.collection.notes.isEmpty)
    #expect(deck.collection.notes.allSatisfy { $0.modificationTime == 1_790_000_100 })
  }

  @Test(
    "app text with line endings and markup-looking characters survives the note and back",
    arguments: [
      "plain", "a\nb", "a\r\nb", "a\rb", "<b>&amp;</b>", "&nbsp; literally", "  spaces  ", "",
    ])
  func fieldText(text: String) {
    var losses = FieldText.Losses()
    #expect(FieldText.text(FieldText.html(text), losses: &losses) == text)
    #expect(!losses.removedMarkup)
  }
}
