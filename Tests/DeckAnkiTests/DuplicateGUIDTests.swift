import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Notes that share a GUID, written under each ``DuplicateGUIDPolicy``.
@Suite("Writing Anki packages: duplicate GUIDs")
struct DuplicateGUIDTests {
  static let basicID: Int64 = 1_700_000_000_000

  /// Three notes with the GUID "abc" (ids 10, 11, 12) and one with "xyz" (13), a card each,
  /// and a review of the card of note 11.
  static var collection: DeckCollection {
    DeckCollection(
      creationTime: 1_795_320_000,
      decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: basicID, name: "Basic",
          fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
      ],
      notes: [
        Note(id: 10, guid: "abc", noteTypeID: basicID, fields: ["first", "1"]),
        Note(id: 11, guid: "abc", noteTypeID: basicID, fields: ["second", "2"]),
        Note(id: 12, guid: "abc", noteTypeID: basicID, fields: ["third", "3"]),
        Note(id: 13, guid: "xyz", noteTypeID: basicID, fields: ["fourth", "4"]),
      ],
      cards: (10...13).map { Card(id: $0 + 10, noteID: $0, templateOrdinal: 0, deckID: 1) },
      reviews: [
        Review(
          id: 1_795_320_000_000, cardID: 21, ease: 3, interval: 1, lastInterval: 0, easeFactor: 2500, duration: 1000,
          kind: .review)
      ])
  }

  static func write(_ policy: DuplicateGUIDPolicy, kind: AnkiPackageKind = .apkg) throws -> (
    AnkiPackageContents, [Diagnostic], String
  ) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.\(kind.rawValue)")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: kind, duplicateGUIDs: policy))
      .write(collection, to: path, reportingAs: "out.\(kind.rawValue)")
    return (try AnkiPackageReader().read(path: path), warnings, scratch.path)
  }

  @Test("fail (the default) refuses, naming both notes and the way forward")
  func fail() throws {
    let scratch = try TemporaryDirectory()
    let error = try #require(throws: DeckError.self) {
      try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .apkg))
        .write(Self.collection, to: scratch.path(for: "out.apkg"), reportingAs: "out.apkg")
    }
    #expect(error.location.item == "note 11")
    #expect(
      error.message
        == "note has the GUID 'abc' of note 10; Anki matches notes by GUID, so importing the package again would update only one of them (DuplicateGUIDPolicy keep-first or new-guid writes them)"
    )
  }

  @Test(
    "keep-first writes the first note and leaves out each later one with its cards and reviews",
    arguments: [AnkiPackageKind.apkg, .colpkg])
  func keepFirst(kind: AnkiPackageKind) throws {
    let (contents, warnings, _) = try Self.write(.keepFirst, kind: kind)
    let written = contents.collection
    #expect(written.notes.map(\.id) == [10, 13])
    #expect(written.notes.map(\.guid) == ["abc", "xyz"])
    #expect(written.cards.map(\.id) == [20, 23])
    #expect(written.reviews.isEmpty, "the review of note 11's card goes with it")
    let duplicates = warnings.filter { $0.category == "guid-duplicate" }
    #expect(
      duplicates.map(\.description)
        == [11, 12].map {
          "out.\(kind.rawValue): note \($0): warning: [guid-duplicate] note has the GUID 'abc' of note 10, and Anki matches notes by GUID (importing the package again would update only one of them); it is left out, with its cards"
        })
  }

  @Test("the import warnings of a deck package name only what keep-first writes, not the notes it leaves out")
  func keepFirstWarnsOnlyOfWrittenNotes() throws {
    var collection = Self.collection
    let future: Int64 = 4_102_444_800  // 2100
    // Note 11 is left out: its control character, decomposed text, tag, card data, future time
    // and future review would each have been warned of, and must not be.
    collection.notes[1].fields[0] = "sec\u{1}onde\u{301}"
    collection.notes[1].tags = ["a::::b"]
    collection.notes[1].modificationTime = future
    collection.cards[1].scheduling.data = "{\"unknown\":1}"
    collection.reviews[0].id = future * 1000
    // A note type no note uses is not in a deck package: its future time is not named either.
    var unused = collection.noteTypes[0]
    unused.id = 99
    unused.name = "Unused"
    unused.modificationTime = future
    collection.noteTypes.append(unused)
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.apkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .apkg, duplicateGUIDs: .keepFirst))
      .write(collection, to: path, reportingAs: "out.apkg")
    #expect(warnings.map(\.category).sorted() == ["guid-duplicate", "guid-duplicate", "note-type-unused"])
    #expect(try AnkiPackageReader().read(path: path).collection.notes.map(\.id) == [10, 13])

    // The same changes on note 10, which is written, are each warned of.
    var kept = collection
    kept.notes[0].fields[0] = "fir\u{1}ste\u{301}"
    kept.notes[0].tags = ["a::::b"]
    kept.notes[0].modificationTime = future
    kept.cards[0].scheduling.data = "{\"unknown\":1}"
    kept.reviews[0].cardID = 20
    let keptWarnings = try AnkiPackageWriter(
      options: .init(generation: .legacy2, kind: .apkg, duplicateGUIDs: .keepFirst)
    ).write(kept, to: path, reportingAs: "out.apkg")
    let categories = Set(keptWarnings.map(\.category))
    for expected: Diagnostic.Category in ["field-changed", "tag-changed", "card-data-changed", "future-time"] {
      #expect(categories.contains(expected), "\(expected) in \(keptWarnings)")
    }
    #expect(!keptWarnings.contains { $0.message.contains("Unused") })
    #expect(keptWarnings.filter { $0.category == "future-time" }.count == 2, "the note and the review")
  }

  @Test("new-guid keeps every note; later ones get GUIDs derived from the old GUID and the note id")
  func newGUID() throws {
    let (contents, warnings, _) = try Self.write(.newGUID)
    let written = contents.collection
    let guid11 = DerivedID.guid(for: ["abc", "11"])
    let guid12 = DerivedID.guid(for: ["abc", "12"])
    #expect(written.notes.map(\.id) == [10, 11, 12, 13])
    #expect(written.notes.map(\.guid) == ["abc", guid11, guid12, "xyz"])
    #expect(Set(written.notes.map(\.guid)).count == 4)
    #expect(written.cards.count == 4 && written.reviews.count == 1)
    #expect(
      warnings.filter { $0.category == "guid-duplicate" }.map(\.description) == [
        "out.apkg: note 11: warning: [guid-duplicate] note has the GUID 'abc' of note 10, and Anki matches notes by GUID (importing the package again would update only one of them); it is written with the new GUID '\(guid11)'",
        "out.apkg: note 12: warning: [guid-duplicate] note has the GUID 'abc' of note 10, and Anki matches notes by GUID (importing the package again would update only one of them); it is written with the new GUID '\(guid12)'",
      ])
    // Deterministic: the same input gives the same GUIDs.
    #expect(try Self.write(.newGUID).0.collection.notes.map(\.guid) == written.notes.map(\.guid))
  }

  @Test("new-guid never gives a note a GUID another note already has")
  func newGUIDAvoidsTakenGUIDs() throws {
    var collection = Self.collection
    // Note 13 already holds the GUID note 11 would be given.
    collection.notes[3].guid = DerivedID.guid(for: ["abc", "11"])
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.apkg")
    _ = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .apkg, duplicateGUIDs: .newGUID))
      .write(collection, to: path, reportingAs: path)
    let guids = try AnkiPackageReader().read(path: path).collection.notes.map(\.guid)
    #expect(Set(guids).count == 4)
    #expect(guids[1] == DerivedID.guid(for: ["abc", "11", "2"]))
  }
}

/// The warnings of writers that keep GUIDs as they are (CSV with a guid column, CrowdAnki).
@Suite("Shared GUIDs in a file that keeps them")
struct SharedGUIDWarningTests {
  static func notes(_ guids: [String]) -> [Note] {
    guids.enumerated().map { index, guid in
      Note(id: Int64(100 + index), guid: guid, noteTypeID: 1, fields: ["\(index)"])
    }
  }

  @Test("each later note of a shared GUID is named with the first; empty GUIDs and other spellings are not shared")
  func laterNotesNamed() {
    let warnings = NoteIdentity.sharedGUIDWarnings(
      in: Self.notes(["abc", "x", "abc", "", "", "\u{E9}", "e\u{301}", "abc", "x"]), importer: "Anki's CSV import",
      location: SourceLocation(file: "out.csv"))
    #expect(warnings.map(\.category) == ["guid-duplicate", "guid-duplicate", "guid-duplicate"])
    #expect(warnings.map(\.location.item) == ["note 102", "note 107", "note 108"])
    #expect(warnings.first?.message.contains("the GUID 'abc' of note 100") == true)
    #expect(warnings.last?.message.contains("the GUID 'x' of note 101") == true)
  }

  @Test("a deck of many notes without shared GUIDs gives no warning; one shared pair among them gives one")
  func manyNotes() {
    var guids = (0..<50_000).map { "g\($0)" }
    #expect(
      NoteIdentity.sharedGUIDWarnings(in: Self.notes(guids), importer: "CrowdAnki", location: SourceLocation(file: "d"))
        .isEmpty)
    guids[40_000] = "g123"
    let warnings = NoteIdentity.sharedGUIDWarnings(
      in: Self.notes(guids), importer: "CrowdAnki", location: SourceLocation(file: "d"))
    #expect(warnings.map(\.location.item) == ["note 40100"])
  }
}
