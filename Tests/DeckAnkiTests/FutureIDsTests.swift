import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// Notes, cards and reviews with ids in the future get new ids in a collection package, with
/// their links kept; a deck package keeps them (Anki's import gives new ones itself). That
/// Anki's Check Database then repairs nothing is judged by the real backend on the genanki-go
/// package in `fixtures/real` (`Tests/anki/test_writer_judged_by_anki.py`).
@Suite("Anki packages: ids in the future")
struct FutureIDsTests {
  static let future: Int64 = 3_328_007_343_714_765_163  // a genanki-go note id

  /// The fixture with its first note, one of that note's cards (a reviewed one if it has one)
  /// and that card's first review given ids in the future (`future`, `future + 1`,
  /// `future + 2`), every link following.
  static func collection() throws -> DeckCollection {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    let note = try #require(collection.notes.first).id
    let cards = collection.cards.indices.filter { collection.cards[$0].noteID == note }
    let reviewed = cards.first { index in collection.reviews.contains { $0.cardID == collection.cards[index].id } }
    let cardIndex = try #require(reviewed ?? cards.first)
    let card = collection.cards[cardIndex].id
    collection.notes[0].id = future
    for index in cards { collection.cards[index].noteID = future }
    collection.cards[cardIndex].id = future + 1
    let reviews = collection.reviews.indices.filter { collection.reviews[$0].cardID == card }
    for index in reviews { collection.reviews[index].cardID = future + 1 }
    if let first = reviews.first { collection.reviews[first].id = future + 2 }
    return collection
  }

  static func written(_ collection: DeckCollection, kind: AnkiPackageKind) throws -> (DeckCollection, [Diagnostic]) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: kind == .colpkg ? "out.colpkg" : "out.apkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .latest, kind: kind))
      .write(collection, to: path, reportingAs: path)
    return (try AnkiPackageReader().read(path: path).collection, warnings)
  }

  @Test("a collection package renumbers them from now on, keeping each card's note and each review's card")
  func collectionPackage() throws {
    let collection = try Self.collection()
    let before = Date()
    let (back, warnings) = try Self.written(collection, kind: .colpkg)
    let after = Date()
    let futureIDs = warnings.filter { $0.category == "future-id" }
    #expect(futureIDs.count == 1)
    #expect(futureIDs.first?.location.item == "note \(Self.future)")
    let hasReview = collection.reviews.contains { $0.id == Self.future + 2 }
    #expect(
      futureIDs.first?.message.hasPrefix(
        hasReview ? "1 note, 1 card and 1 review-log entry have ids" : "1 note and 1 card have ids") == true,
      "\(futureIDs)")

    let limit = Int64(after.timeIntervalSince1970 * 1000) + 86_400_000
    #expect(back.notes.allSatisfy { $0.id <= limit })
    #expect(back.cards.allSatisfy { $0.id <= limit })
    #expect(back.reviews.allSatisfy { $0.id <= limit })
    let renumbered = try #require(back.notes.first { $0.guid == collection.notes[0].guid })
    #expect(renumbered.id >= Int64(before.timeIntervalSince1970 * 1000))
    // The links follow: the same cards belong to the note, the same reviews to its cards.
    let originalCards = collection.cards.filter { $0.noteID == Self.future }.map(\.templateOrdinal).sorted()
    #expect(back.cards.filter { $0.noteID == renumbered.id }.map(\.templateOrdinal).sorted() == originalCards)
    #expect(back.reviews.count == collection.reviews.count)
    let cardIDs = Set(back.cards.map(\.id))
    #expect(back.reviews.allSatisfy { cardIDs.contains($0.cardID) })
    // Nothing else changed.
    #expect(back.notes.filter { $0.guid != renumbered.guid }.map(\.id) == collection.notes.dropFirst().map(\.id))
  }

  @Test("a deck package keeps them as they are: Anki's import gives new ones")
  func deckPackage() throws {
    let collection = try Self.collection()
    let (back, warnings) = try Self.written(collection, kind: .apkg)
    #expect(!warnings.contains { $0.category == "future-id" })
    #expect(back.notes.contains { $0.id == Self.future })
    #expect(back.cards.contains { $0.id == Self.future + 1 })
  }
}
