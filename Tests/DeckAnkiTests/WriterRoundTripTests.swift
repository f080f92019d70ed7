import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// Every fixture package, read and written again in each of the four outputs, must read back as
/// the collection it was read as.
///
/// What is compared: the creation time, and with `==` the note types, decks, option groups,
/// notes (id, GUID, note type, fields, tags, modification time), cards (every scheduling
/// column), review log and deletion records (kept in every output); media by name and SHA-1 of the bytes. The expected collection is the
/// original with exactly these differences, each derived here independently of the writer:
///
/// * `.apkg` outputs carry what Anki's exporter would: note types no note uses, decks that
///   hold no cards and are no parent of one (deck 1 "Default" is always kept), option groups no
///   kept deck uses (group 1 is always kept), review-log rows of cards that do not exist, and
///   media no note (or, for `_` files, no note type) refers to are left out. Each left-out note
///   type, deck, option group and media file must come with a warning naming it.
/// * `.colpkg` outputs add a deck for every parent level no deck names (Anki's package import
///   adds those itself, a restored collection needs them); each must be a missing parent and be
///   reported with a `deck-added` warning.
/// * Option groups read from a schema-18 collection hold protobuf settings; the writer writes
///   every package as schema 11, so they read back as legacy JSON. They are compared with the
///   writer's own conversion of the original blob, read as the reader reads JSON (sorted keys).
///   That conversion is checked separately against the JSON Anki itself wrote for the same
///   preset (`WriterBehaviourTests`), and the real Anki judges it in `Tests/anki`.
@Suite("Writing Anki packages: read, write, read back")
struct WriterRoundTripTests {
  /// One of the four outputs.
  struct Output: CustomTestStringConvertible, Sendable {
    var generation: AnkiPackageGeneration
    var kind: AnkiPackageKind
    var testDescription: String { generation.formatName(for: kind) }
    var fileExtension: String { kind.rawValue }
  }

  static let outputs = [
    Output(generation: .legacy2, kind: .apkg), Output(generation: .latest, kind: .apkg),
    Output(generation: .legacy2, kind: .colpkg), Output(generation: .latest, kind: .colpkg),
    // Not offered by `deckport convert`, but part of the writer's API.
    Output(generation: .legacy1, kind: .apkg),
  ]

  /// The categories a fixture may produce when written; anything else is a regression.
  static let expectedCategories: Set<Diagnostic.Category> = [
    "note-type-unused", "deck-unused", "deck-options-unused", "reviews-unused", "media-unused",
    "deck-added", "settings-dropped", "tag-registry-dropped", "tag-collapse-dropped",
    // A deck package whose option group 1 is not Anki's default (Anki's import keeps its own).
    "deck-options-ignored",
    // A deck package whose collection has deletion records (Anki's import ignores them).
    "deletions-ignored",
  ]

  /// What particular fixtures also warn of, for what other programs made them do.
  static let expectedForPackage: [String: Set<Diagnostic.Category>] = [
    // anki-apkg-export writes notes' modification times in milliseconds: the year 48954.
    "real/anki-apkg-export-legacy1.apkg": ["future-time"],
    // genanki-go's ids are random 64-bit numbers, half of them far in the future; a collection
    // package gives those new ids.
    "real/genanki-go-legacy1.apkg": ["future-id"],
    // Two new cards at position 1573317275, past the collection's `nextPos` 1538: a collection
    // package is written with one past them.
    "real/all-decks-v1-legacy.colpkg": ["setting-changed"],
  ]

  /// The settings the writer may give a value of its own (``Schema11JSON/withSettings``'s rules,
  /// checked in `CollectionSettingsTests`); every other setting of a collection package is
  /// written as read.
  static let settingsWrittenByRule: Set<String> = ["schedVer", "nextPos", "curDeck", "activeDecks", "curModel"]

  @Test("read, write, read back", arguments: Fixtures.ankiPackages, outputs)
  func roundTrip(package: String, output: Output) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package))
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.\(output.fileExtension)")
    let warnings = try AnkiPackageWriter(options: .init(generation: output.generation, kind: output.kind))
      .write(original.collection, to: path, reportingAs: path)
    let written = try AnkiPackageReader().read(path: path)

    #expect(written.generation == output.generation)
    #expect(written.kind == output.kind)
    #expect(written.warnings.isEmpty, "reading the written package warned: \(written.warnings)")
    let allowed = Self.expectedCategories.union(Self.expectedForPackage[package] ?? [])
    let unexpected = warnings.filter { !allowed.contains($0.category) }
    #expect(unexpected.isEmpty, "unexpected warnings: \(unexpected)")

    var expected = try Self.expectation(for: original.collection, kind: output.kind, warnings: warnings)
    let back = written.collection
    if output.kind == .colpkg { Self.takeNewIDs(of: &expected, from: back, warnings: warnings) }
    #expect(back.creationTime == expected.creationTime)
    #expect(back.noteTypes == expected.noteTypes)
    // A .colpkg gains the parent decks a collection needs (a package import adds them itself).
    let missingParents = output.kind == .colpkg ? Self.missingParents(of: original.collection.decks) : []
    let added = back.decks.filter { !original.collection.decks.map(\.id).contains($0.id) }
    #expect(Set(added.map { $0.name.lowercased() }) == missingParents)
    #expect(warnings.filter { $0.category == "deck-added" }.count == missingParents.count)
    #expect(back.decks.filter { deck in !added.contains { $0.id == deck.id } } == expected.decks)
    #expect(back.deckOptions == expected.deckOptions)
    #expect(back.notes == expected.notes)
    #expect(back.cards == expected.cards)
    #expect(back.reviews == expected.reviews)
    #expect(back.deletions == expected.deletions)
    if output.kind == .colpkg {
      let written = Dictionary(back.settings.map { ($0.key, $0.jsonText) }, uniquingKeysWith: { first, _ in first })
      for setting in original.collection.settings where !Self.settingsWrittenByRule.contains(setting.key) {
        #expect(written[setting.key] == setting.jsonText, "setting \(setting.key)")
      }
      // The list of tags as read (schema 11 keeps no collapsed state), then the notes' other tags.
      let registry = original.collection.tagRegistry
      #expect(
        back.tagRegistry.prefix(registry.count).map { [$0.name, "\($0.updateSequenceNumber)"] }
          == registry.map { [$0.name, "\($0.updateSequenceNumber)"] })
      #expect(back.tagRegistry.dropFirst(registry.count).allSatisfy { $0.updateSequenceNumber == -1 })
      #expect(
        warnings.contains { $0.category == "tag-collapse-dropped" } == registry.contains { $0.isCollapsed == false })
    } else {
      #expect(back.settings.isEmpty)
      #expect(back.tagRegistry.isEmpty)
      #expect(warnings.contains { $0.category == "settings-dropped" } == !original.collection.settings.isEmpty)
      #expect(warnings.contains { $0.category == "tag-registry-dropped" } == !original.collection.tagRegistry.isEmpty)
    }
    #expect(try Self.mediaDigests(back.media) == Self.mediaDigests(expected.media))
  }

  /// `original` as the writer must give it back in a package of `kind`, and checks that the
  /// warnings name exactly what an `.apkg` leaves out.
  static func expectation(for original: DeckCollection, kind: AnkiPackageKind, warnings: [Diagnostic]) throws
    -> DeckCollection
  {
    var expected = original
    if kind == .apkg {
      let usedNoteTypes = Set(original.notes.map(\.noteTypeID))
      expected.noteTypes = original.noteTypes.filter { usedNoteTypes.contains($0.id) }

      let cardDecks = Set(original.cards.flatMap { [$0.deckID, $0.scheduling.originalDeckID] })
      let keptNames = Set(
        original.decks.filter { cardDecks.contains($0.id) }.flatMap { deck in
          deck.nameComponents.indices.map { deck.nameComponents[...$0].joined(separator: "::").lowercased() }
        })
      expected.decks = original.decks.filter { $0.id == 1 || keptNames.contains($0.name.lowercased()) }

      var usedOptions: Set<Int64> = [1]
      for deck in expected.decks {
        if case .normal(let id) = deck.kind { usedOptions.insert(id) }
      }
      expected.deckOptions = original.deckOptions.filter { usedOptions.contains($0.id) }

      let cardIDs = Set(original.cards.map(\.id))
      expected.reviews = original.reviews.filter { cardIDs.contains($0.cardID) }

      let dropped = Set(warnings.filter { $0.category == "media-unused" }.compactMap(\.location.item))
      expected.media = original.media.filter { !dropped.contains("media file '\($0.name)'") }
      let referenced = Set(original.notes.flatMap { $0.fields.flatMap(MediaReferences.fileNames(in:)) })
      for file in original.media where dropped.contains("media file '\(file.name)'") {
        #expect(!referenced.contains(file.name), "'\(file.name)' is referenced by a note but was left out")
      }

      let leftOut = Set(warnings.compactMap(\.location.item))
      for noteType in original.noteTypes where !expected.noteTypes.contains(where: { $0.id == noteType.id }) {
        #expect(leftOut.contains("note type '\(noteType.name)' (id \(noteType.id))"), "no warning for \(noteType.name)")
      }
      for deck in original.decks where !expected.decks.contains(where: { $0.id == deck.id }) {
        #expect(leftOut.contains("deck '\(deck.name)' (id \(deck.id))"), "no warning for deck \(deck.name)")
      }
      for options in original.deckOptions where !expected.deckOptions.contains(where: { $0.id == options.id }) {
        #expect(leftOut.contains("option group '\(options.name)' (id \(options.id))"))
      }
    }
    expected.deckOptions = try expected.deckOptions.map(schema11Form)
    return expected
  }

  /// For a collection package: the ids the writer gave the notes and cards whose ids were more
  /// than a day in the future, found by GUID (and template), each checked to be an id of today
  /// and given to `expected`, whose cards follow their notes. A fixture with reviews of such ids
  /// would need the same; none has them.
  static func takeNewIDs(of expected: inout DeckCollection, from back: DeckCollection, warnings: [Diagnostic]) {
    let limit = Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000
    #expect(!expected.reviews.contains { $0.id > limit })
    let futureNotes = expected.notes.filter { $0.id > limit }
    let futureCards = expected.cards.filter { $0.id > limit }
    #expect(warnings.contains { $0.category == "future-id" } == !(futureNotes.isEmpty && futureCards.isEmpty))
    guard !futureNotes.isEmpty || !futureCards.isEmpty else { return }
    let backNotesByGUID = Dictionary(back.notes.map { ($0.guid, $0.id) }, uniquingKeysWith: { first, _ in first })
    var noteIDs: [Int64: Int64] = [:]
    for note in futureNotes {
      guard let id = backNotesByGUID[note.guid] else { continue }
      #expect(id <= limit && !expected.notes.contains { $0.id == id }, "note \(note.guid) got \(id)")
      noteIDs[note.id] = id
    }
    for index in expected.notes.indices {
      if let id = noteIDs[expected.notes[index].id] { expected.notes[index].id = id }
    }
    for index in expected.cards.indices {
      if let id = noteIDs[expected.cards[index].noteID] { expected.cards[index].noteID = id }
    }
    for index in expected.cards.indices where expected.cards[index].id > limit {
      let card = expected.cards[index]
      guard
        let id = back.cards.first(where: { $0.noteID == card.noteID && $0.templateOrdinal == card.templateOrdinal })?.id
      else { continue }
      #expect(id <= limit && !expected.cards.contains { $0.id == id }, "card \(card.id) got \(id)")
      expected.cards[index].id = id
      for review in expected.reviews.indices where expected.reviews[review].cardID == card.id {
        expected.reviews[review].cardID = id
      }
    }
    expected.notes.sort { $0.id < $1.id }
    expected.cards.sort { $0.id < $1.id }
  }

  /// An option group as it reads back from a schema-11 collection: its settings as JSON text
  /// with sorted keys, converted from protobuf when they were.
  static func schema11Form(_ options: DeckOptions) throws -> DeckOptions {
    guard case .anki18Protobuf = options.settings else { return options }
    let (json, _) = try DeckOptionsConversion.entry(for: options, location: SourceLocation(file: "test"))
    let object = try JSONSerialization.jsonObject(with: Data(json.text.utf8))
    let text = String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    var converted = options
    converted.settings = .anki11JSON(text)
    return converted
  }

  /// The parent levels no deck names (lowercased), which a collection package must add.
  static func missingParents(of decks: [Deck]) -> Set<String> {
    let names = Set(decks.map { $0.name.lowercased() })
    var missing = Set<String>()
    for deck in decks {
      let levels = deck.nameComponents
      for count in 1..<max(levels.count, 1) {
        let parent = levels[..<count].joined(separator: "::").lowercased()
        if !names.contains(parent) { missing.insert(parent) }
      }
    }
    return missing
  }

  /// Name and SHA-1 of each file, sorted by name.
  static func mediaDigests(_ media: [MediaFile]) throws -> [String] {
    try media.map { "\($0.name) \(try $0.blob.sha1Hex())" }.sorted()
  }
}
