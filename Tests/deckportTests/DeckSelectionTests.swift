import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("Only some decks of a collection (convert --only-deck): what Anki's export of them holds")
struct DeckSelectionTests {
  static let basic = StockNoteType.basic.noteType
  static let cloze = StockNoteType.cloze.noteType

  /// Spanish (options 2) with an empty subdeck and a subdeck holding a card, Latin beside it, a
  /// filtered deck holding a card taken from Spanish; notes in each, one with a card in both
  /// Spanish and Latin; media named by the notes and one by nothing.
  static let collection = DeckCollection(
    decks: [
      Deck(id: 1, name: "Default"),
      Deck(id: 10, name: "Spanish", kind: .normal(optionsID: 2)),
      Deck(id: 11, name: "Spanish::Empty"),
      Deck(id: 12, name: "Spanish::Verbs"),
      Deck(id: 20, name: "Latin", kind: .normal(optionsID: 3)),
      Deck(id: 30, name: "Filtered", kind: .filtered(FilteredDeck(reschedule: true, searchTerms: []))),
    ],
    deckOptions: [2, 3, 4].map { DeckOptions(id: $0, name: "Group \($0)", settings: .anki11JSON("{}")) },
    noteTypes: [basic, cloze],
    notes: [
      Note(id: 100, guid: "a", noteTypeID: basic.id, fields: ["comer", "<img src=\"eat.png\">"], tags: ["verbs::ar"]),
      Note(id: 101, guid: "b", noteTypeID: basic.id, fields: ["rosa", "[sound:rosa.mp3]"], tags: ["latin"]),
      Note(id: 102, guid: "c", noteTypeID: cloze.id, fields: ["{{c1::hola}} {{c2::amigo}}", ""]),
      Note(id: 103, guid: "d", noteTypeID: basic.id, fields: ["el gato", ""]),
    ],
    cards: [
      Card(id: 200, noteID: 100, templateOrdinal: 0, deckID: 12),
      Card(id: 201, noteID: 101, templateOrdinal: 0, deckID: 20),
      Card(id: 202, noteID: 102, templateOrdinal: 0, deckID: 10),
      Card(id: 203, noteID: 102, templateOrdinal: 1, deckID: 20),
      Card(id: 204, noteID: 103, templateOrdinal: 0, deckID: 30, scheduling: CardScheduling(originalDeckID: 10)),
    ],
    reviews: [
      Review(id: 300, cardID: 200, ease: 3, interval: 1, lastInterval: 0, easeFactor: 2500, duration: 1, kind: .review),
      Review(id: 301, cardID: 201, ease: 3, interval: 1, lastInterval: 0, easeFactor: 2500, duration: 1, kind: .review),
    ],
    media: ["eat.png", "rosa.mp3", "unused.png"].map { MediaFile(name: $0, blob: MediaBlob(data: Data($0.utf8))) },
    deletions: [Deletion(objectID: 5, kind: .note)],
    settings: [AnkiProperty(key: "rollover", jsonText: "4")],
    tagRegistry: ["verbs", "verbs::ar", "latin", "orphan"].map {
      RegisteredTag(name: $0, updateSequenceNumber: 0, isCollapsed: false)
    })

  @Test("a deck keeps the notes with a card in it, its subdecks or taken from it, whole, and what they use")
  func oneDeck() throws {
    let (kept, selection) = try Self.collection.selectingDecks(named: ["spanish"], at: SourceLocation(file: "c"))
    #expect(selection.deckNames == ["Spanish"])
    #expect(kept.notes.map(\.id) == [100, 102, 103])
    // The cloze note is kept whole: its card in Latin too, and so Latin.
    #expect(kept.cards.map(\.id) == [200, 202, 203, 204])
    #expect(kept.decks.map(\.name) == ["Spanish", "Spanish::Empty", "Spanish::Verbs", "Latin", "Filtered"])
    #expect(kept.deckOptions.map(\.id) == [2, 3])
    #expect(kept.noteTypes.map(\.id) == [Self.basic.id, Self.cloze.id])
    #expect(kept.reviews.map(\.id) == [300])
    #expect(kept.media.map(\.name) == ["eat.png"])
    #expect(kept.tagRegistry.map(\.name) == ["verbs", "verbs::ar"])
    #expect(kept.deletions.isEmpty)
    #expect(kept.settings == Self.collection.settings)
    #expect((selection.kept.notes, selection.kept.cards, selection.kept.reviews, selection.kept.media) == (3, 4, 1, 1))
    #expect((selection.read.notes, selection.read.cards, selection.read.reviews, selection.read.media) == (4, 5, 2, 3))
  }

  @Test("a subdeck alone, with its parents; several decks together; unused note types go")
  func subdeckAndSeveral() throws {
    let location = SourceLocation(file: "c")
    let (verbs, _) = try Self.collection.selectingDecks(named: ["Spanish::Verbs"], at: location)
    #expect(verbs.notes.map(\.id) == [100])
    #expect(verbs.decks.map(\.name) == ["Spanish", "Spanish::Verbs"])
    #expect(verbs.noteTypes.map(\.id) == [Self.basic.id])
    let (both, selection) = try Self.collection.selectingDecks(named: ["Latin", "Spanish::Verbs"], at: location)
    #expect(selection.deckNames == ["Latin", "Spanish::Verbs"])
    #expect(both.notes.map(\.id) == [100, 101, 102])
    #expect(both.media.map(\.name) == ["eat.png", "rosa.mp3"])
  }

  @Test("a tag of 50,000 levels is kept without its parents (their names would grow with its square)")
  func deepTag() throws {
    let deep = Array(repeating: "a", count: 50_000).joined(separator: "::")
    var collection = Self.collection
    collection.notes[0].tags = [deep]
    collection.tagRegistry = [deep, "a"].map { RegisteredTag(name: $0, updateSequenceNumber: 0, isCollapsed: false) }
    let (kept, _) = try collection.selectingDecks(named: ["Spanish::Verbs"], at: SourceLocation(file: "c"))
    #expect(kept.tagRegistry.map(\.name) == [deep])
  }

  @Test("a name no deck has is refused, naming the input and listing its decks")
  func unknownDeck() {
    #expect {
      try Self.collection.selectingDecks(named: ["Spanish::Nouns"], at: SourceLocation(file: "deck.apkg"))
    } throws: { error in
      "\(error)"
        == "deck.apkg: no deck is named 'Spanish::Nouns' (its decks: 'Default', 'Filtered', 'Latin', 'Spanish', 'Spanish::Empty', 'Spanish::Verbs')"
    }
    // An app's own choice names no file: the error is the message alone.
    #expect {
      try Self.collection.selectingNotes(inDecks: ["Spanish::Nouns"], taggedWith: [])
    } throws: { error in
      "\(error)"
        == "no deck is named 'Spanish::Nouns' (its decks: 'Default', 'Filtered', 'Latin', 'Spanish', 'Spanish::Empty', 'Spanish::Verbs')"
    }
  }
}

@Suite("deckport convert, inspect and diff --only-deck")
struct OnlyDeckCommandTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  @Test("--json and --dry-run say what was selected; an unknown deck exits 1 (2 in diff) and writes nothing")
  func selectionReported() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "verbs.json")
    let run = try CommandRun.deckport([
      "convert", Self.package, output, "--only-deck", "Languages::French::Verbs", "--only-deck", "default", "--json",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let selection = try #require(report["selection"] as? [String: Any])
    #expect(selection["decks"] as? [String] == ["Languages::French::Verbs", "Default"])
    let read = try #require(selection["read"] as? [String: Int])
    #expect(read == ["notes": 9, "cards": 15, "reviews": 8, "media": 6])
    let written = try #require(report["written"] as? [String: Int])
    #expect(written["notes"] == 3)
    #expect(selection["kept"] as? [String: Int] == written)

    let tagged = try CommandRun.deckport([
      "convert", Self.package, scratch.path(for: "geo.json"), "--only-tag", "GEO", "--json",
    ])
    #expect(tagged.status == 0, "stderr: \(tagged.standardError)")
    let taggedReport = try #require(
      try JSONSerialization.jsonObject(with: Data(tagged.standardOutput.utf8)) as? [String: Any])
    let tagSelection = try #require(taggedReport["selection"] as? [String: Any])
    #expect(tagSelection["tags"] as? [String] == ["GEO"] && tagSelection["decks"] as? [String] == [])

    let plan = try CommandRun.deckport([
      "convert", Self.package, scratch.path(for: "plan.csv"), "--only-deck", "languages::french::verbs", "--dry-run",
    ])
    #expect(plan.status == 0)
    #expect(
      plan.standardOutput.hasPrefix(
        "Only the deck 'Languages::French::Verbs' and its subdecks: 2 of 9 notes, 4 of 15 cards, "))

    let inspected = try CommandRun.deckport(["inspect", Self.package, "--only-deck", "languages::french::verbs"])
    #expect(inspected.status == 0, "stderr: \(inspected.standardError)")
    #expect(
      inspected.standardOutput.split(separator: "\n").prefix(3) == [
        "Format:   apkg-latest",
        "Only the deck 'Languages::French::Verbs' and its subdecks: 2 of 9 notes, 4 of 15 cards, 3 of 8 reviews, 2 of 6 media files",
        "Notes:    2",
      ])
    let unknownInInspect = try CommandRun.deckport(["inspect", Self.package, "--only-deck", "Spanish"])
    #expect(unknownInInspect.status == 1)
    #expect(unknownInInspect.standardError.contains("no deck is named 'Spanish'"))

    let diff = try CommandRun.deckport([
      "diff", Self.package, Fixtures.path("anki/latest.colpkg"), "--only-deck", "Languages::French::Verbs", "--stat",
    ])
    #expect(diff.status == 0, "stdout: \(diff.standardOutput) stderr: \(diff.standardError)")
    let unknownInDiff = try CommandRun.deckport(["diff", Self.package, Self.package, "--only-deck", "Spanish"])
    #expect(unknownInDiff.status == 2)
    #expect(unknownInDiff.standardError.contains("no deck is named 'Spanish'"))

    let missing = scratch.path(for: "none.apkg")
    let refused = try CommandRun.deckport(["convert", Self.package, missing, "--only-deck", "Spanish"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("no deck is named 'Spanish' (its decks: 'Default', 'Languages',"))
    #expect(!FileManager.default.fileExists(atPath: missing))
  }
}

@Suite("A collection without its scheduling (convert --without-scheduling), as Anki's export without it")
struct WithoutSchedulingTests {
  @Test("cards new at their first position, filtered decks normal, no reviews, no marked or leech tags")
  func reset() {
    let basic = StockNoteType.basic.noteType
    let collection = DeckCollection(
      decks: [
        Deck(id: 1, name: "Default", ankiProperties: [AnkiProperty(key: "newToday", jsonText: "[3, 5]")]),
        Deck(id: 2, name: "Filtered", kind: .filtered(FilteredDeck(reschedule: true, searchTerms: []))),
      ],
      noteTypes: [basic],
      notes: [Note(id: 1, guid: "a", noteTypeID: basic.id, fields: ["x", "y"], tags: ["Marked", "verbs", "LEECH"])],
      cards: [
        // Out of id order: positions are handed out in card id order.
        Card(
          id: 30, noteID: 1, templateOrdinal: 0, deckID: 1,
          scheduling: CardScheduling(type: .review, queue: .review, due: 50, interval: 9, easeFactor: 2500, reviews: 4)),
        Card(
          id: 10, noteID: 1, templateOrdinal: 0, deckID: 1,
          scheduling: CardScheduling(
            type: .review, queue: .suspended, due: 12, interval: 3, easeFactor: 2300, reviews: 2, lapses: 1,
            remainingSteps: 1001, flags: 3, data: #"{"pos":7,"s":4.5,"d":6.1,"lrt":1790000000}"#)),
        Card(
          id: 20, noteID: 1, templateOrdinal: 0, deckID: 2,
          scheduling: CardScheduling(type: .new, queue: .new, due: -100, originalDue: 4, originalDeckID: 1)),
        Card(
          id: 40, noteID: 1, templateOrdinal: 0, deckID: 1,
          scheduling: CardScheduling(type: .learning, queue: .learning, due: 1_790_000_000)),
      ],
      reviews: [
        Review(id: 5, cardID: 30, ease: 3, interval: 9, lastInterval: 4, easeFactor: 2500, duration: 1, kind: .review)
      ],
      deletions: [Deletion(objectID: 9, kind: .card)],
      settings: [AnkiProperty(key: "nextPos", jsonText: "21")])
    let reset = collection.withoutScheduling()
    #expect(reset.notes[0].tags == ["verbs"])
    #expect(reset.cards.map(\.scheduling.due) == [21, 7, 4, 22])
    #expect(reset.cards.map(\.deckID) == [1, 1, 2, 1])
    #expect(reset.cards.allSatisfy { $0.scheduling.type == .new && $0.scheduling.queue == .new })
    #expect(reset.cards.allSatisfy { $0.scheduling.interval == 0 && $0.scheduling.easeFactor == 0 })
    #expect(reset.cards.allSatisfy { $0.scheduling.reviews == 0 && $0.scheduling.lapses == 0 })
    #expect(reset.cards.allSatisfy { $0.scheduling.flags == 0 && $0.scheduling.originalDeckID == 0 })
    #expect(reset.cards[1].scheduling.remainingSteps == 1001)
    #expect(reset.cards[1].scheduling.data == #"{"lrt":1790000000}"#)
    #expect(reset.decks[1].kind == .normal(optionsID: 1))
    #expect(reset.decks[0].ankiProperties.isEmpty)
    #expect(reset.reviews.isEmpty && reset.deletions.isEmpty)
  }

  @Test("without deck presets every normal deck uses group 1 and no group is kept; filtered decks stay")
  func noPresets() {
    let collection = DeckCollection(
      decks: [
        Deck(id: 1, name: "Default", kind: .normal(optionsID: 2)),
        Deck(id: 2, name: "Filtered", kind: .filtered(FilteredDeck(reschedule: false, searchTerms: []))),
      ],
      deckOptions: [1, 2].map { DeckOptions(id: $0, name: "Group \($0)", settings: .anki11JSON("{}")) })
    let plain = collection.withoutDeckPresets()
    #expect(plain.decks.map(\.kind) == [.normal(optionsID: 1), collection.decks[1].kind])
    #expect(plain.deckOptions.isEmpty)
  }
}

@Suite("ExportChoices through the library's DeckConverter")
struct ExportChoicesLibraryTests {
  @Test("the doc comment's call: one deck without scheduling, and the choices' defaults keep everything")
  func documentedCall() throws {
    let scratch = try TemporaryDirectory()
    let choices = ExportChoices(onlyDecks: ["Languages::French"], scheduling: false)
    let report = try DeckConverter().convert(
      input: Fixtures.path("anki/latest.colpkg"), output: scratch.path(for: "Spanish.apkg"),
      options: ConversionOptions(choices: choices))
    #expect(report.selection?.deckNames == ["Languages::French"])
    #expect((report.summary.notes, report.summary.cards, report.summary.reviews) == (5, 9, 0))
    #expect(ExportChoices().keepsEverything)
    #expect(!ExportChoices(media: false).keepsEverything)
    let whole = try DeckConverter().convert(
      input: Fixtures.path("anki/latest.colpkg"), output: scratch.path(for: "all.apkg"))
    #expect(whole.selection == nil && whole.summary.reviews == 8)
  }

  @Test(
    "without scheduling or media, the selection's line counts the reviews and media files written (none), not those the decks hold"
  )
  func selectionCountsWhatIsWritten() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let input = Fixtures.path("anki/latest.colpkg")
    let unscheduled = try DeckConverter().convert(
      input: input, output: scratch.path(for: "French.apkg"),
      options: ConversionOptions(choices: ExportChoices(onlyDecks: ["Languages::French"], scheduling: false)))
    let selection = try #require(unscheduled.selection)
    #expect(
      selection.line
        == "Only the deck 'Languages::French' and its subdecks: 5 of 9 notes, 9 of 15 cards, 0 of 8 reviews, 4 of 7 media files"
    )
    #expect(selection.kept.reviews == unscheduled.summary.reviews)
    #expect(selection.read == DeckSelection.Counts(try DeckLoader().load(path: input).collection))

    let withoutMedia = try DeckConverter().convert(
      input: input, output: scratch.path(for: "French.json"),
      options: ConversionOptions(choices: ExportChoices(onlyDecks: ["Languages::French"], media: false)))
    #expect(withoutMedia.selection?.kept.media == 0 && withoutMedia.summary.media == 0)
    #expect(withoutMedia.selection?.kept.reviews == 5 && withoutMedia.summary.reviews == 5)

    // The collection's own selection, without the other choices, still counts the decks' reviews.
    let (_, alone) = try DeckLoader().load(path: input).selectingNotes(inDecks: ["Languages::French"], taggedWith: [])
    #expect(alone.kept.reviews == 5 && alone.kept.media == 4)
  }

  @Test("convert --only-deck --without-scheduling prints a selection line that agrees with what it wrote")
  func commandLine() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/latest.colpkg"), scratch.path(for: "French.apkg"), "--only-deck",
      "Languages::French", "--without-scheduling",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let lines = run.standardOutput.split(separator: "\n")
    #expect(
      lines.prefix(2) == [
        "Only the deck 'Languages::French' and its subdecks: 5 of 9 notes, 9 of 15 cards, 0 of 8 reviews, 4 of 7 media files",
        "Wrote \(scratch.path(for: "French.apkg")) (apkg) from colpkg-latest: 5 notes, 9 cards, 0 reviews, 4 media files, 2 warnings",
      ])
  }
}

@Suite("DeckDifference with onlyDecks (deckport diff --only-deck)")
struct OnlyDeckDifferenceTests {
  @Test("one deck of each side compared; the import preview is into the whole of the from deck")
  func previewIntoTheWholeCollection() throws {
    let original = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    var edited = original.collection
    let verbs = try #require(edited.decks.first { $0.name == "Languages::French::Verbs" })
    let moved = try #require(edited.notes.firstIndex { $0.fields[0].hasPrefix("Capital of Japan") })
    edited.notes[moved].fields[1] += ", moved"
    edited.notes[moved].modificationTime += 60
    for index in edited.cards.indices where edited.cards[index].noteID == edited.notes[moved].id {
      edited.cards[index].deckID = verbs.id
    }

    let difference = try DeckDifference(
      from: original, to: LoadedDeck(collection: edited, formatName: "json"), fromName: "a.colpkg",
      toName: "b.json", onlyDecks: ["languages::french::verbs"])
    #expect(difference.from.selection?.deckNames == ["Languages::French::Verbs"])
    #expect(difference.to.selection?.deckNames == ["Languages::French::Verbs"])
    // Within the deck, the note is new; A holds it in another deck, so Anki updates it there.
    #expect(difference.notes.added.map(\.guid) == [edited.notes[moved].guid])
    let preview = try #require(difference.ankiImport)
    let counts = preview.counts
    #expect([counts.new, counts.updated, counts.kept, counts.conflicting] == [Int]([0, 1, 2, 0]))
    #expect(preview.cardsNotTaken == 1)
    #expect(
      difference.lines.prefix(4) == [
        "from: a.colpkg (colpkg-latest)",
        "  Only the deck 'Languages::French::Verbs' and its subdecks: 2 of 9 notes, 4 of 15 cards, 3 of 8 reviews, 2 of 7 media files",
        "to:   b.json (json)",
        "  Only the deck 'Languages::French::Verbs' and its subdecks: 3 of 9 notes, 5 of 15 cards, 3 of 8 reviews, 3 of 7 media files",
      ])
    #expect(
      difference.lines.contains {
        $0.hasPrefix(
          "Anki's import of that part of the \"to\" deck, exported alone, into a collection holding the whole \"from\" deck: "
        )
      })

    #expect(throws: DeckError.self) {
      try DeckDifference(from: original, to: original, fromName: "a.colpkg", onlyDecks: ["Spanish"])
    }
  }
}

@Suite("TagSearch: a tag as Anki's search tag: takes it")
struct TagSearchTests {
  @Test("the tag or a subtag, ignoring case; not a longer tag; in any Unicode form")
  func wholeTagsAndSubtags() throws {
    let geo = try TagSearch("Geo")
    #expect(geo.matches(tag: "geo") && geo.matches(tag: "GEO::Europe::Capitals"))
    #expect(!geo.matches(tag: "geography") && !geo.matches(tag: "a::geo") && !geo.matches(tag: "geo:"))
    let summer = try TagSearch("ÉTÉ")
    #expect(summer.matches(tag: "été") && summer.matches(tag: "e\u{301}te\u{301}::juin"))
    #expect(try TagSearch("a::b").matches(tags: ["x", "A::B::c"]))
  }

  @Test("* any run of characters, _ one; \\*, \\_ and \\\\ the characters themselves")
  func wildcards() throws {
    #expect(try TagSearch("verb*").matches(tag: "verbs::irregular"))
    #expect(try TagSearch("*::c").matches(tag: "a::b::c"))
    #expect(try TagSearch("v_rb").matches(tag: "verb") && !(try TagSearch("v_rb").matches(tag: "vrb")))
    #expect(try TagSearch("a\\*b").matches(tag: "a*b") && !(try TagSearch("a\\*b").matches(tag: "axb")))
    #expect(try TagSearch("a\\_b").matches(tag: "a_b") && !(try TagSearch("a\\_b").matches(tag: "axb")))
    #expect(try TagSearch("a\\\\b").matches(tag: "a\\b"))
    #expect(try TagSearch("a.b").matches(tag: "a.b") && !(try TagSearch("a.b").matches(tag: "axb")))
    // As Anki's parser reads them, \: is :, and a backslash before any other character is itself.
    #expect(try TagSearch("a\\:b").matches(tag: "a:b") && !(try TagSearch("a\\:b").matches(tag: "a\\:b")))
    #expect(try TagSearch("a\\b").matches(tag: "a\\b"))
  }

  @Test("none finds notes without tags, * every note; empty and spaced searches are refused")
  func specialWords() throws {
    #expect(try TagSearch("none").matches(tags: []) && !(try TagSearch("none").matches(tags: ["a"])))
    // Only `none` in lower case: `NONE` is a tag of that name, in any case, as in Anki.
    let capitals = try TagSearch("NONE")
    #expect(!capitals.matches(tags: []) && capitals.matches(tags: ["None"]))
    #expect(try TagSearch("*").matches(tags: []) && (try TagSearch("*").matches(tags: ["a"])))
    #expect(throws: DeckError.self) { try TagSearch("") }
    #expect(throws: DeckError.self) { try TagSearch("two words") }
  }

  @Test("a tag as Anki holds it: as its import stores it; restored from a collection package, as the file spells it")
  func spellingAnkiHolds() throws {
    let blankLevel = try TagSearch("a::blank::b")
    let emptyLevel = try TagSearch("a::::b")
    #expect(blankLevel.matches(tag: "a::::b") && !emptyLevel.matches(tag: "a::::b"))
    #expect(blankLevel.matches(tags: ["a::::b"]) && !emptyLevel.matches(tags: ["a::::b"]))
    for spelling in [AnkiNameSpelling.restoredLegacy, .restoredLatest] {
      #expect(!blankLevel.matches(tag: "a::::b", spelling: spelling))
      #expect(emptyLevel.matches(tag: "a::::b", spelling: spelling))
      #expect(emptyLevel.matches(tags: ["x", "A::::B::c"], spelling: spelling))
      // Anki's search brings its own text into NFC, not the tags a restore keeps as they are.
      #expect(!(try TagSearch("e\u{301}te\u{301}")).matches(tag: "e\u{301}te\u{301}", spelling: spelling))
      #expect(try TagSearch("été").matches(tag: "été", spelling: spelling))
    }
    #expect(AnkiNameSpelling(formatName: "colpkg-latest") == .restoredLatest)
    #expect(AnkiNameSpelling(formatName: "colpkg-legacy") == .restoredLegacy)
    #expect(
      AnkiNameSpelling(formatName: "apkg-latest") == .imported && AnkiNameSpelling(formatName: "csv") == .imported)
  }

  @Test("notes of some decks with some tags: both, as Anki's search deck:D tag:T")
  func decksAndTags() throws {
    let collection = try DeckLoader().load(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let location = SourceLocation(file: "latest_sched.apkg")
    let (kept, selection) = try collection.selectingNotes(
      inDecks: ["languages"], taggedWith: ["GEO", "none"], at: location)
    let deckNames = Dictionary(uniqueKeysWithValues: collection.decks.map { ($0.id, Deck.matchingKey($0.name)) })
    let inLanguages = Set(
      collection.cards.filter { deckNames[$0.deckID]?.hasPrefix("languages") == true }.map(\.noteID))
    let expected = collection.notes.filter { note in
      inLanguages.contains(note.id) && (note.tags.isEmpty || note.tags.contains { $0.lowercased().hasPrefix("geo") })
    }
    #expect(!expected.isEmpty && expected.count < inLanguages.count)
    #expect(kept.notes.map(\.id) == expected.map(\.id))
    #expect(selection.deckNames == ["Languages"] && selection.tags == ["GEO", "none"])
    #expect(
      selection.line.hasPrefix(
        "Only the notes of the deck 'Languages' and its subdecks, tagged 'GEO' (or a subtag) or without tags: "))
    #expect(throws: DeckError.self) {
      try collection.selectingNotes(inDecks: [], taggedWith: ["verbs"], at: location)
    }
  }
}

@Suite("DeckSearch: a deck as Anki's search deck: takes it (--only-deck)")
struct DeckSearchTests {
  static func deck(_ name: String, filtered: Bool = false) -> Deck {
    Deck(
      id: 1, name: name,
      kind: filtered ? .filtered(FilteredDeck(reschedule: true, searchTerms: [])) : .normal(optionsID: 1))
  }

  static func finds(_ text: String, _ name: String) throws -> Bool {
    try DeckSearch(text).matches(deck: deck(name))
  }

  @Test("a name is that deck and its subdecks, ignoring case, in any Unicode form; not a longer name")
  func plainNames() throws {
    #expect(try Self.finds("Spanish", "Spanish") && Self.finds("spanish", "SPANISH::Verbs::ar"))
    #expect(try !Self.finds("Spanish", "Spanish2") && !Self.finds("Spanish", "Latin::Spanish"))
    #expect(try !Self.finds("Spanish::Verbs", "Spanish") && Self.finds("spanish::VERBS", "Spanish::Verbs"))
    #expect(try Self.finds("ÉTÉ", "e\u{301}te\u{301}::juin") && Self.finds("e\u{301}te\u{301}", "Été"))
    #expect(try !DeckSearch("Spanish").isPattern && !DeckSearch("a\\*b").isPattern)
    #expect(try DeckSearch("Span*").isPattern && DeckSearch("Sp_nish").isPattern)
  }

  @Test("* any run of characters (across levels), _ one (a level's separator too, as in Anki)")
  func wildcards() throws {
    #expect(try Self.finds("Lang*", "Languages::French") && Self.finds("Lang*", "Langs"))
    #expect(try Self.finds("*French*", "Languages::French::Verbs") && Self.finds("*french*", "French Stuff"))
    #expect(try !Self.finds("*French", "Languages::FrenchX") && Self.finds("*::Verbs", "Spanish::Verbs"))
    #expect(try Self.finds("Languages::Fr_nch", "languages::french") && !Self.finds("Fr_nch", "Frnch"))
    // Anki matches the name with its levels joined by U+001F, which _ matches like any character.
    #expect(try Self.finds("Spanish_Verbs", "Spanish::Verbs"))
  }

  @Test("\\*, \\_ and \\\\ the characters; \\: \\( \\) \\- \\\" theirs; another backslash itself")
  func escapes() throws {
    #expect(try Self.finds("Music\\*Star", "Music*Star") && !Self.finds("Music\\*Star", "MusicXStar"))
    #expect(try Self.finds("Under\\_Score", "Under_Score") && !Self.finds("Under\\_Score", "UnderXScore"))
    #expect(try Self.finds("a\\\\b", "a\\b") && Self.finds("a\\b", "a\\b"))
    #expect(try Self.finds("Languages\\:\\:French", "Languages::French"))
    #expect(try Self.finds("\\(x\\) \\- \\\"y\\\"", "(x) - \"y\""))
  }

  @Test("each level as Anki takes a deck name's: trimmed of white space and :, blank when empty")
  func levels() throws {
    #expect(try Self.finds(" Languages :: French ", "Languages::French"))
    #expect(try Self.finds("a:::b", "a::b") && Self.finds("a::", "a::blank"))
    #expect(try Self.finds("a\u{7}b", "ab"))
  }

  @Test("white space of any kind in the search is a space, as Anki's parser makes it before reading a search")
  func whiteSpace() throws {
    #expect(try !Self.finds("a\u{3000}b", "a\u{3000}b") && Self.finds("a\u{3000}b", "a b"))
    #expect(try !Self.finds("a\u{A0}b", "a\u{A0}b") && Self.finds("a\u{A0}b", "a b"))
    #expect(try !Self.finds("tab\tin", "tabin") && Self.finds("tab\tin", "tab in"))
    #expect(try Self.finds("\t", "blank") && Self.finds("   ", "blank") && Self.finds("In  ner", "In  ner"))
    #expect(try !Self.finds("In ner", "In  ner"))
  }

  @Test("a deck restored from a collection package of the latest layout is found only by the name it holds")
  func restoredNames() throws {
    func finds(_ text: String, _ name: String, _ spelling: AnkiNameSpelling = .restoredLatest) throws -> Bool {
      try DeckSearch(text).matches(deck: Self.deck(name), spelling: spelling)
    }
    #expect(try !finds("Outer", " Outer ") && !finds(" Outer ", " Outer "))
    #expect(try !finds("blank", "   ") && !finds("   ", "   "))
    #expect(
      try !finds("Sp::Verbs", "Sp :: Verbs") && !finds("Sp :: Verbs", "Sp :: Verbs") && finds("Sp*", "Sp :: Verbs"))
    #expect(try finds("Z", "Z::  ::Y") && !finds("Z::blank::Y", "Z::  ::Y"))
    #expect(try !finds("e\u{301}", "e\u{301}") && finds("In  ner", "In  ner") && finds("spanish", "Spanish::Verbs"))
    // A legacy collection package's names are stored by the upgrade Anki opens it with, as its
    // import stores them.
    #expect(try finds("Outer", " Outer ", .restoredLegacy) && finds("blank", "   ", .restoredLegacy))
    #expect(try finds("Sp::Verbs", "Sp :: Verbs", .restoredLegacy))
  }

  @Test("* every deck and card, filtered the cards in filtered decks; current and empty refused")
  func specialWords() throws {
    #expect(try Self.finds("*", "Anything::At all"))
    let filtered = try DeckSearch("filtered")
    #expect(filtered.matches(deck: Self.deck("Custom Study", filtered: true)))
    #expect(!filtered.matches(deck: Self.deck("filtered")))
    #expect(try Self.finds("Filtered", "filtered") && Self.finds("Current", "current"))
    #expect {
      try DeckSearch("current", at: SourceLocation(file: "deck.apkg"))
    } throws: { error in
      "\(error)".hasPrefix("deck.apkg: 'current' is Anki's search for the deck chosen in its window")
    }
    #expect(throws: DeckError.self) { try DeckSearch("") }
  }

  @Test("what is text to a regular expression is literal: no pattern fails or matches more")
  func hostileText() throws {
    for text in ["(", ")", "[", "deck:(", "a)b", "$^", ".*", "\\", "\\Q", "{1}", "a|b", "\u{1f}", "::", "?"] {
      let search = try DeckSearch(text)
      #expect(!search.matches(deck: Self.deck("abc")), "\(text)")
    }
    #expect(try Self.finds(".*", ".*") && Self.finds("a|b", "a|b") && Self.finds("(", "("))
  }

  @Test("a collection's notes by search: the topmost decks matched name the selection; no match is an error")
  func selecting() throws {
    let collection = DeckSelectionTests.collection
    let location = SourceLocation(file: "deck.apkg")
    let (spanish, selection) = try collection.selectingDecks(named: ["SP*"], at: location)
    #expect(selection.deckNames == ["Spanish"])
    #expect(spanish.notes.map(\.id) == [100, 102, 103])
    let (verbs, verbsSelection) = try collection.selectingDecks(named: ["*::verbs"], at: location)
    #expect(verbsSelection.deckNames == ["Spanish::Verbs"] && verbs.notes.map(\.id) == [100])
    // Filtered: the cards in filtered decks (the note whose card was taken from Spanish).
    let (filtered, filteredSelection) = try collection.selectingDecks(named: ["filtered"], at: location)
    #expect(filtered.notes.map(\.id) == [103] && filteredSelection.deckNames == ["Filtered"])
    let (every, everySelection) = try collection.selectingDecks(named: ["*"], at: location)
    #expect(every.notes.map(\.id) == [100, 101, 102, 103])
    #expect(everySelection.deckNames == ["Default", "Spanish", "Latin", "Filtered"])
    #expect(
      everySelection.line.hasPrefix("Only the decks 'Default', 'Spanish', 'Latin' and 'Filtered' and their subdecks: "))
    #expect {
      try collection.selectingDecks(named: ["Port*"], at: location)
    } throws: { error in
      "\(error)"
        == "deck.apkg: no deck matches 'Port*' (its decks: 'Default', 'Filtered', 'Latin', 'Spanish', 'Spanish::Empty', 'Spanish::Verbs')"
    }
    var normal = collection
    normal.decks.removeAll { $0.id == 30 }
    #expect {
      try normal.selectingDecks(named: ["filtered"], at: location)
    } throws: { error in
      "\(error)".hasPrefix(
        "deck.apkg: no deck is a filtered deck, whose cards 'filtered' finds (a deck named so is found as 'Filtered'; its decks: 'Default', 'Latin',"
      )
    }
  }

  @Test("a search of hundreds of decks names ten of them in its line")
  func manyDecks() throws {
    var collection = DeckSelectionTests.collection
    collection.decks += (1...15).map { Deck(id: 1000 + Int64($0), name: "Deck \($0)") }
    let (_, selection) = try collection.selectingDecks(named: ["*"], at: SourceLocation(file: "c"))
    #expect(selection.deckNames.count == 19)
    #expect(selection.line.hasPrefix("Only the decks 'Default', 'Spanish', 'Latin', 'Filtered', 'Deck 1', "))
    #expect(selection.line.contains("'Deck 6' and 9 more and their subdecks: "))
  }
}
