import DeckAnki
import DeckCSV
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("CSV writer: the model in Anki's export layout, or as a plain sheet")
struct CSVWriterTests {
  static let basic = stock("Basic")
  static let cloze = stock("Cloze")

  static func stock(_ name: String) -> NoteType {
    StockNoteType(named: name)?.noteType ?? NoteType(id: 0, name: "missing \(name)", fields: [], templates: [])
  }

  /// A small collection: two note types, a parent and a child deck (the child's note first),
  /// fields that need quotes, tags.
  static var small: DeckCollection {
    DeckCollection(
      decks: [Deck(id: 1, name: "Default"), Deck(id: 10, name: "Lang"), Deck(id: 11, name: "Lang::Fr")],
      noteTypes: [basic, cloze],
      notes: [
        Note(id: 1, guid: "g#1", noteTypeID: basic.id, fields: ["bonjour", "hello, \"hi\""], tags: ["fr", "a::b"]),
        Note(id: 2, guid: "g2", noteTypeID: cloze.id, fields: ["{{c1::Paris}}\tcapital", ""], tags: []),
        Note(id: 3, guid: "g3", noteTypeID: basic.id, fields: ["line\nbreak", "x"], tags: ["t"]),
      ],
      cards: [
        Card(id: 100, noteID: 1, templateOrdinal: 0, deckID: 11),
        Card(id: 101, noteID: 2, templateOrdinal: 0, deckID: 10),
        Card(id: 102, noteID: 3, templateOrdinal: 0, deckID: 1),
      ])
  }

  let scratch: TemporaryDirectory

  init() throws { scratch = try TemporaryDirectory() }

  /// Writes `collection` to `name` in this test's scratch folder.
  func write(_ collection: DeckCollection, _ name: String, _ options: CSVOptions = CSVOptions()) throws
    -> (text: String, warnings: [String], path: String)
  {
    let path = scratch.path(for: name)
    let warnings = try CSVWriter(options: options).write(collection, to: path)
    return (try String(contentsOfFile: path, encoding: .utf8), warnings.map(\.description), path)
  }

  @Test("Anki's layout, byte for byte: directives, GUID, note type, deck, padded fields, tags; parents first")
  func ankiLayout() throws {
    let (text, warnings, _) = try write(Self.small, "small.txt")
    #expect(warnings.isEmpty)
    let expected = [
      "#separator:tab", "#html:true", "#guid column:1", "#notetype column:2", "#deck column:3", "#tags column:6",
      "g2\tCloze\tLang\t\"{{c1::Paris}}\tcapital\"\t\t",
      "g3\tBasic\tDefault\t\"line\nbreak\"\tx\tt",
      "\"g#1\"\tBasic\tLang::Fr\tbonjour\t\"hello, \"\"hi\"\"\"\tfr a::b",
    ]
    #expect(text == expected.joined(separator: "\n") + "\n")
  }

  @Test(
    "cards Anki's CSV import would not make again, or would make anew, are counted by note",
    arguments: [false, true])
  func cardsTheImportWouldNotMake(notesReversed: Bool) throws {
    // Note 1: cloze 2 only, but cards for clozes 1 and 2 (cloze 1 removed from the text since).
    // Note 2: Basic (and reversed card) whose Back is empty: its reverse card is not made.
    // Note 3: Basic (and reversed card) with only its first card: the reverse is made anew.
    let reversed = Self.stock("Basic (and reversed card)")
    var collection = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [Self.cloze, reversed],
      notes: [
        Note(id: 1, guid: "c1", noteTypeID: Self.cloze.id, fields: ["{{c2::Paris}}", ""]),
        Note(id: 2, guid: "r2", noteTypeID: reversed.id, fields: ["front", " "]),
        Note(id: 3, guid: "r3", noteTypeID: reversed.id, fields: ["front", "back"]),
      ],
      cards: [
        Card(id: 10, noteID: 1, templateOrdinal: 0, deckID: 1),
        Card(id: 11, noteID: 1, templateOrdinal: 1, deckID: 1),
        Card(id: 12, noteID: 2, templateOrdinal: 0, deckID: 1),
        Card(id: 13, noteID: 2, templateOrdinal: 1, deckID: 1),
        Card(id: 14, noteID: 3, templateOrdinal: 0, deckID: 1),
      ])
    if notesReversed { collection.notes.reverse() }
    let (_, warnings, _) = try write(collection, "cards.txt")
    let cards = warnings.filter { $0.contains("[csv-cards]") }
    #expect(cards.count == 2)
    #expect(
      cards.contains {
        $0.contains("2 cards are not kept: Anki's CSV importer makes a note's cards from its fields")
          && $0.hasSuffix("(GUIDs 'c1', 'r2')")
      })
    #expect(
      cards.contains {
        $0.contains("1 card the collection does not hold will be made by Anki's CSV importer")
          && $0.hasSuffix("(GUID 'r3')")
      })
  }

  @Test("a deck without notes is refused, as Anki's importer and the reader refuse a file without rows")
  func deckWithoutNotes() throws {
    var empty = Self.small
    empty.notes = []
    empty.cards = []
    for name in ["empty.txt", "empty.csv"] {
      let error = try #require(throws: DeckError.self) { try write(empty, name) }
      #expect(error.kind == .invalidRequest)
      #expect(error.message.contains("the deck holds no notes"))
      #expect(!FileManager.default.fileExists(atPath: scratch.path(for: name)))
    }
  }

  @Test("a .csv file gets commas, and quotes around fields with commas")
  func commaForCSV() throws {
    let (text, _, _) = try write(Self.small, "small.csv")
    #expect(text.hasPrefix("#separator:comma\n"))
    #expect(text.contains("\"g#1\",Basic,Lang::Fr,bonjour,\"hello, \"\"hi\"\"\",fr a::b\n"))
  }

  @Test("one note type: a #columns line names the columns, so the fields of a custom type come back by name")
  func columnsLineForOneNoteType() throws {
    let vocab = NoteType(
      id: 5, name: "Vocab", fields: [.init(name: "Word"), .init(name: "Meaning")],
      templates: [.init(name: "Recognition", questionFormat: "{{Word}}", answerFormat: "{{Meaning}}")])
    let collection = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [vocab],
      notes: [Note(id: 1, guid: "v1", noteTypeID: 5, fields: ["chat", "cat"])],
      cards: [Card(id: 1, noteID: 1, templateOrdinal: 0, deckID: 1)])
    let (text, _, path) = try write(collection, "vocab.tsv")
    #expect(
      text.contains(
        "#tags column:6\n#columns:guid\tnotetype\tdeck\tWord\tMeaning\ttags\nv1\tVocab\tDefault\tchat\tcat\t\n"))
    let readBack = try CSVReader().read(path: path).collection
    #expect(readBack.noteTypes.map(\.fieldNames) == [["Word", "Meaning"]])
    #expect(readBack.notes.map(\.fields) == [["chat", "cat"]])
  }

  @Test(
    "every fixture package -> CSV -> model keeps each note's GUID, note type, fields, tags and deck",
    arguments: Fixtures.ankiPackages)
  func roundTrip(_ package: String) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    guard !original.notes.isEmpty else {
      #expect(throws: DeckError.self) { try write(original, "deck.txt") }
      return
    }
    for name in ["deck.txt", "deck.csv"] {
      let (_, _, path) = try write(original, name)
      let readBack = try CSVReader().read(path: path).collection
      #expect(Self.rows(readBack) == Self.rows(original), "\(name)")
    }
  }

  /// Each note as a CSV row holds it, by GUID: note type name, fields, tags, the deck of its
  /// first card.
  static func rows(_ collection: DeckCollection) -> [String: [String]] {
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    let decks = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    var first: [Int64: Card] = [:]
    for card in collection.cards where first[card.noteID].map({ $0.templateOrdinal > card.templateOrdinal }) ?? true {
      first[card.noteID] = card
    }
    var rows: [String: [String]] = [:]
    for note in collection.notes {
      let card = first[note.id]
      let deck = card.map { $0.scheduling.originalDeckID != 0 ? $0.scheduling.originalDeckID : $0.deckID }
      // A CSV cannot tell a note type's trailing empty fields from none (for a note type it only
      // names), so those are left out of the comparison.
      var fields = note.fields
      while fields.last == "" { fields.removeLast() }
      rows[note.guid] =
        [noteTypes[note.noteTypeID] ?? "?", deck.flatMap { decks[$0] } ?? "?"] + fields + [
          "tags: " + note.tags.joined(separator: " ")
        ]
    }
    return rows
  }

  @Test("a plain two-column sheet with a header row, and the losses it reports")
  func plainSheet() throws {
    let options = CSVOptions(hasHeaderRow: true, columns: try ColumnMapping(parsing: "front,back"))
    let (text, warnings, path) = try write(Self.small, "sheet.csv", options)
    #expect(text == "front,back\nbonjour,\"hello, \"\"hi\"\"\"\n{{c1::Paris}}\tcapital,\n\"line\nbreak\",x\n")
    #expect(
      warnings == [
        "\(path): warning: [csv-columns] the notes' GUIDs are not written (no guid column), so importing the sheet again adds new notes instead of updating these",
        "\(path): warning: [csv-columns] note types are not written (no notetype column): 'Basic', 'Cloze'",
        "\(path): warning: [csv-columns] decks are not written (no deck column): 'Default', 'Lang', 'Lang::Fr'",
        "\(path): warning: [csv-columns] tags are not written (no tags column): 2 notes have tags",
      ])
  }

  @Test(
    "--header alone: every column with a row of names; reading it back with --header (as HTML) gives the same notes")
  func headerOnlySheet() throws {
    let options = CSVOptions(hasHeaderRow: true)
    let (text, _, path) = try write(Self.small, "sheet.tsv", options)
    #expect(text.hasPrefix("guid\tnotetype\tdeck\tField 1\tField 2\ttags\ng2\tCloze\tLang\t"))
    // A plain sheet has no #html: line, and these fields hold no tag for Anki's detection.
    var reading = options
    reading.isHTML = true
    let readBack = try CSVReader(options: reading).read(path: path).collection
    #expect(Self.rows(readBack) == Self.rows(Self.small))
  }

  @Test("--columns names that match no field are taken in order, and the fields left out are reported")
  func columnsByPosition() throws {
    let options = CSVOptions(columns: try ColumnMapping(parsing: "Word,tags"))
    let (text, warnings, path) = try write(Self.small, "words.csv", options)
    #expect(text == "bonjour,fr a::b\n{{c1::Paris}}\tcapital,\n\"line\nbreak\",t\n")
    #expect(
      warnings.first
        == "\(path): warning: [csv-columns] fields not in CSVOptions.columns are not written: Basic: Back (2 notes); Cloze: Back Extra (1 note)"
    )
  }

  @Test("what a CSV cannot keep is reported, one warning per kind, with counts and names")
  func losses() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let (_, warnings, path) = try write(original, "deck.txt")
    #expect(
      warnings == [
        "\(path): warning: [csv-scheduling] the scheduling of 10 of 15 cards is not kept (due dates, intervals, ease, learning steps, flags, suspension, burying and the schedules of a note's other cards, which take its first card's); the first is card 1795331276845 (note GUID 'An7DBu|ids', card 1 of its note): a CSV holds no scheduling, so Anki makes every card new; nor is what Anki keeps beside the schedule of 6 cards (an original position, the last review's time, FSRS memory state)",
        "\(path): warning: [csv-reviews] the review log is not kept: 8 reviews (a CSV holds no review history)",
        "\(path): warning: [anki-properties-dropped] what Anki keeps of 3 decks and 1 note type besides their content is not kept (such as whether a deck is collapsed, the day's study counts, a deck's own limits and the sync state): a CSV file has no place for it",
        "\(path): warning: [csv-media] 6 media files are not kept (a CSV holds no file bytes; the fields still name them): 'pixel.png', 'café.png', 'beep.wav', '日本.png', '_vocab.css' and 1 more",
        "\(path): warning: [csv-note-type] a CSV names note types but cannot hold their fields' names, templates or styling; this note type is not Anki's stock ones, so its definition is not kept: 'Vocab (3 fields)'",
        // Rows go parents first: the notes of `Default` and `Languages` before those of their
        // subdecks, which is not the order of the new cards.
        "\(path): warning: [csv-scheduling] the order of 9 new cards is not kept: a CSV holds no positions, and Anki's importer numbers new cards in the order of the rows, which is not the order the deck shows them in",
      ])
  }

  @Test("a note type with a stock name that an older Anki made (a real package's Cloze) is reported with what differs")
  func olderStockNoteType() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("real/spanish-audio-latest.apkg")).collection
    let (_, warnings, path) = try write(original, "spanish.csv")
    #expect(
      warnings.contains(
        "\(path): warning: [csv-note-type] a CSV names note types but cannot hold their fields' names, templates or styling; this note type is not Anki's stock ones, so its definition is not kept: 'Cloze' (its fields, templates and styling differ from the stock one)"
      ))
  }

  @Test("a note's row names the home deck of its lowest-ordinal card; split notes and notes without cards are reported")
  func deckOfEachNote() throws {
    let reversed = Self.stock("Basic (and reversed card)")
    let collection = DeckCollection(
      decks: [Deck(id: 1, name: "Default"), Deck(id: 10, name: "Lang"), Deck(id: 11, name: "Lang::Fr")],
      noteTypes: [reversed],
      notes: [
        Note(id: 1, guid: "split", noteTypeID: reversed.id, fields: ["a", "b"]),
        Note(id: 2, guid: "together", noteTypeID: reversed.id, fields: ["c", "d"]),
        Note(id: 3, guid: "cardless", noteTypeID: reversed.id, fields: ["e", "f"]),
        Note(id: 4, guid: "borrowed", noteTypeID: reversed.id, fields: ["g", "h"]),
      ],
      cards: [
        // Listed with the higher ordinal first: the row still takes ordinal 0's deck.
        Card(id: 101, noteID: 1, templateOrdinal: 1, deckID: 10),
        Card(id: 100, noteID: 1, templateOrdinal: 0, deckID: 11),
        Card(id: 102, noteID: 2, templateOrdinal: 0, deckID: 10),
        Card(id: 103, noteID: 2, templateOrdinal: 1, deckID: 10),
        // In a filtered deck (1) borrowed from its home deck Lang::Fr (11).
        Card(
          id: 104, noteID: 4, templateOrdinal: 0, deckID: 1, scheduling: CardScheduling(originalDeckID: 11)),
        Card(id: 105, noteID: 4, templateOrdinal: 1, deckID: 11),
      ])
    let (text, warnings, path) = try write(collection, "decks.txt")
    let deckByGUID = Dictionary(
      uniqueKeysWithValues: text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
        let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
        return (String(cells[0]), String(cells[2]))
      })
    #expect(deckByGUID == ["split": "Lang::Fr", "together": "Lang", "cardless": "", "borrowed": "Lang::Fr"])
    let deckWarnings = warnings.filter { $0.contains("[csv-deck]") }
    #expect(
      deckWarnings == [
        "\(path): warning: [csv-deck] 1 note has cards in more than one deck; a CSV row names one deck, so it keeps the deck of its first card (GUID 'split')",
        "\(path): warning: [csv-deck] 1 note has no cards, so no deck; Anki's importer puts it in its current deck (GUID 'cardless')",
        "\(path): warning: [csv-deck] 1 card is borrowed by a filtered deck; the CSV names its home deck, and filtered decks are not kept",
      ])
  }

  @Test("a large deck is written and read back in chunks")
  func large() throws {
    let notes = (0..<30_000).map { index in
      Note(
        id: Int64(index + 1), guid: "n\(index)", noteTypeID: Self.basic.id,
        fields: ["front \(index) \"quoted\", with\ttab", "back\nline \(index) 日本語"], tags: ["t\(index % 7)"])
    }
    let cards = notes.map { Card(id: $0.id, noteID: $0.id, templateOrdinal: 0, deckID: 1) }
    let collection = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [Self.basic], notes: notes, cards: cards)
    let (_, warnings, path) = try write(collection, "large.txt")
    #expect(warnings.isEmpty)
    let (readBack, readWarnings) = try CSVReader().read(path: path)
    #expect(readWarnings.isEmpty)
    #expect(readBack.notes.map(\.fields) == notes.map(\.fields))
    #expect(readBack.notes.map(\.guid) == notes.map(\.guid))
  }
}
