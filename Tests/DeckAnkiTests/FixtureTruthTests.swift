import DeckAnki
import DeckCore
import Foundation
import Testing

@testable import DeckTestSupport

/// Every fixture package, read by deckport, must hold exactly what the real Anki backend saw in
/// it: the same notes, cards with their scheduling, note types, decks, media bytes and reviews.
@Suite("Anki packages match what the real Anki backend sees")
struct FixtureTruthTests {
  static let packages = Fixtures.ankiPackages

  /// What the reader gives, reshaped like the truth file so the two compare field by field.
  struct Observed {
    var truth: AnkiTruth
    var contents: AnkiPackageContents

    init(_ name: String) throws {
      let path = Fixtures.path(name)
      truth = try AnkiTruth.load(forPackage: path)
      contents = try AnkiPackageReader().read(path: path)
    }

    var collection: DeckCollection { contents.collection }
    var noteTypeNames: [Int64: String] {
      Dictionary(collection.noteTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }
    var deckNames: [Int64: String] {
      Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }
    var guids: [Int64: String] {
      Dictionary(collection.notes.map { ($0.id, $0.guid) }, uniquingKeysWith: { a, _ in a })
    }

    var notes: [AnkiTruth.Note] {
      collection.notes.map {
        AnkiTruth.Note(
          guid: $0.guid, noteType: noteTypeNames[$0.noteTypeID] ?? "?", fields: $0.fields,
          tags: $0.tags, mod: $0.modificationTime)
      }.sorted { $0.guid < $1.guid }
    }

    var cards: [AnkiTruth.Card] {
      collection.cards.map { card in
        let s = card.scheduling
        return AnkiTruth.Card(
          noteGuid: guids[card.noteID] ?? "?", ord: card.templateOrdinal,
          deck: deckNames[card.deckID] ?? "?", type: s.type.rawValue, queue: s.queue.rawValue, due: s.due,
          ivl: s.interval, factor: s.easeFactor, reps: s.reviews, lapses: s.lapses,
          left: s.remainingSteps, flags: s.flags, odue: s.originalDue,
          odeck: s.originalDeckID == 0 ? nil : deckNames[s.originalDeckID])
      }.sorted { ($0.noteGuid, $0.ord) < ($1.noteGuid, $1.ord) }
    }

    var noteTypes: [AnkiTruth.NoteType] {
      collection.noteTypes.map {
        AnkiTruth.NoteType(
          name: $0.name, kind: $0.kind.rawValue, fields: $0.fieldNames,
          templates: $0.templates.map {
            AnkiTruth.Template(name: $0.name, qfmt: $0.questionFormat, afmt: $0.answerFormat)
          }, css: $0.css, sortField: $0.sortFieldIndex)
      }.sorted { $0.name < $1.name }
    }

    var reviews: [AnkiTruth.Review] {
      let cardsByID = Dictionary(collection.cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      return collection.reviews.map { review in
        let card = cardsByID[review.cardID]
        return AnkiTruth.Review(
          // A review of a card the collection deleted: no note, as Anki's view shows it.
          noteGuid: card.flatMap { guids[$0.noteID] } ?? "", ord: card?.templateOrdinal ?? -1,
          ease: review.ease, ivl: review.interval, lastIvl: review.lastInterval,
          factor: review.easeFactor, time: review.duration, type: review.kind.rawValue)
      }.enumerated().sorted {
        ($0.element.noteGuid, $0.element.ord, $0.offset) < ($1.element.noteGuid, $1.element.ord, $1.offset)
      }
      .map(\.element)
    }
  }

  @Test("fixtures exist", .tags(.fixtures))
  func fixturesExist() {
    #expect(Self.packages.count >= 12, "fixtures/anki should hold every generation; run fixtures/make_fixtures.py")
  }

  @Test("notes: GUID, note type, fields, tags, modification time", arguments: packages)
  func notes(package: String) throws {
    let observed = try Observed(package)
    // Anki stores tags canonically sorted; deckport keeps the stored order, so compare as sets.
    let normalise: ([AnkiTruth.Note]) -> [AnkiTruth.Note] = {
      $0.map {
        var note = $0
        note.tags.sort()
        return note
      }
    }
    #expect(normalise(observed.notes) == normalise(observed.truth.notes))
  }

  @Test("cards: deck and full scheduling state", arguments: packages)
  func cards(package: String) throws {
    let observed = try Observed(package)
    #expect(observed.cards == observed.truth.cards)
  }

  @Test("note types: kind, fields, templates, CSS, sort field", arguments: packages)
  func noteTypes(package: String) throws {
    let observed = try Observed(package)
    if observed.contents.kind == .colpkg {
      #expect(observed.noteTypes == observed.truth.noteTypes)
    } else {
      // An imported .apkg lands in a collection that already has the stock note types; the
      // truth lists the ones the imported notes use, which are the ones the package carries.
      let used = Set(observed.truth.notes.map(\.noteType))
      #expect(observed.noteTypes.filter { used.contains($0.name) } == observed.truth.noteTypes)
    }
  }

  @Test("decks holding cards", arguments: packages)
  func decks(package: String) throws {
    let observed = try Observed(package)
    #expect(Set(observed.cards.map(\.deck)).sorted() == observed.truth.decks)
  }

  /// Anki's import of a deck package leaves out a file nothing refers to (a genanki package's
  /// mp3 that only a template names); the reader keeps every file the package holds.
  @Test("media: every file's name and SHA-1 of the bytes, but those Anki's import leaves out", arguments: packages)
  func media(package: String) throws {
    let observed = try Observed(package)
    let referenced = MediaReferences.referencedNames(in: observed.collection)
    var media: [String: String] = [:]
    for file in observed.collection.media {
      #expect(try file.blob.verify(), "\(file.name): bytes do not match the declared SHA-1 and size")
      let isReferenced = referenced.contains(Array(MediaFileName.normalized(file.name).unicodeScalars))
      if package.hasSuffix(".colpkg") || isReferenced { media[file.name] = try file.blob.sha1Hex() }
    }
    #expect(media == observed.truth.media)
  }

  @Test("review log", arguments: packages)
  func reviews(package: String) throws {
    let observed = try Observed(package)
    #expect(observed.reviews == observed.truth.reviews)
    #expect(observed.collection.reviews.count == observed.truth.counts.reviews)
  }

  /// The packages kept by Anki's v1 scheduler whose reading changes something (the review log
  /// above matches Anki's view of them, upgraded).
  static let upgradedFromV1 = [
    "real/personal-collection-legacy1.apkg", "real/c-notes-filtered-legacy1.apkg", "real/indian-music-legacy.colpkg",
    "real/c-operators-anki20-legacy1.apkg", "real/orbit-anki21-legacy.colpkg", "real/all-decks-v1-legacy.colpkg",
    "real/ankicc-legacy2-nometa.apkg", "real/srf-edited-anki20-legacy1.apkg",
    // Its rows need no change, but a collection package's settings are written for v2.
    "real/it-passport-empty-legacy.colpkg",
  ]

  /// A genanki package whose fields end in U+0000, which Anki's import removes (so does the reader).
  static let withNULFields = ["real/anki-packager-genanki-legacy1.apkg"]

  @Test("no warnings on packages Anki wrote, but the v1 scheduler's upgrade", arguments: packages)
  func noWarnings(package: String) throws {
    let observed = try Observed(package)
    let expected: [Diagnostic.Category] =
      Self.upgradedFromV1.contains(package)
      ? ["scheduler-v1-upgraded"] : Self.withNULFields.contains(package) ? ["field-changed"] : []
    #expect(observed.contents.warnings.map(\.category) == expected)
  }
}

extension Tag {
  @Tag static var fixtures: Self
}
