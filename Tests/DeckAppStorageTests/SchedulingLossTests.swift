import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// Records keep no scheduling: a deck made from them has only active, unflagged new cards. So
/// every card that is more than that is named, studied or not (a suspended, buried or flagged
/// new card came back active and unflagged without a word).
@Suite("Scheduling the records cannot keep")
struct SchedulingLossTests {
  /// A Basic deck of five notes, one card each: a plain new card, then a suspended, a
  /// user-buried and a flagged new card, and a card under review.
  private static func deck() throws -> DeckCollection {
    let basic = try #require(StockNoteType.noteType(named: "Basic"))
    let states: [CardScheduling] = [
      CardScheduling(),
      CardScheduling(queue: .suspended),
      CardScheduling(queue: .buriedByUser),
      CardScheduling(flags: 1),
      CardScheduling(type: .review, queue: .review, due: 10, interval: 5, easeFactor: 2500, reviews: 3),
    ]
    let notes = states.indices.map { index in
      Note(id: Int64(100 + index), guid: "g\(index)", noteTypeID: basic.id, fields: ["q\(index)", "a\(index)"])
    }
    let cards = states.enumerated().map { index, scheduling in
      Card(id: Int64(200 + index), noteID: Int64(100 + index), templateOrdinal: 0, deckID: 1, scheduling: scheduling)
    }
    return DeckCollection(decks: [Deck(id: 1, name: "Default")], noteTypes: [basic], notes: notes, cards: cards)
  }

  @Test(
    "suspended, buried and flagged new cards are named with what each loses, beside the studied ones",
    arguments: [AppProfileChoice.generic, .named(.flashzilla)])
  func newCardStates(profile: AppProfileChoice) throws {
    let (records, warnings) = try AppRecordMapping.records(from: try Self.deck(), profile: profile)
    #expect(records.records.count == 5)
    let dropped = warnings.filter { $0.category == .schedulingDropped }
    #expect(dropped.count == 1)
    let message = try #require(dropped.first?.message)
    #expect(message.contains("1 card has been studied"), "\(message)")
    #expect(message.contains("3 new cards are suspended, buried, flagged"), "\(message)")
    #expect(message.contains("card 201 of note 101: suspended"), "\(message)")
    #expect(message.contains("card 202 of note 102: buried by the user"), "\(message)")
    #expect(message.contains("card 203 of note 103: flag 1"), "\(message)")
    // The plain new card is not named.
    #expect(!message.contains("card 200 "), "\(message)")
  }

  @Test("new cards alone, not studied and with no review log, are still named")
  func newCardsAlone() throws {
    var deck = try Self.deck()
    deck.cards.removeLast()
    deck.notes.removeLast()
    let (_, warnings) = try AppRecordMapping.records(from: deck)
    let message = try #require(warnings.first { $0.category == .schedulingDropped }?.message)
    #expect(!message.contains("studied"), "\(message)")
    #expect(!message.contains("review log"), "\(message)")
    #expect(message.contains("3 new cards are"), "\(message)")
  }

  @Test("a filtered deck, and the counts a reset kept, are named too; a plain new card is not")
  func otherNewCardStates() throws {
    var deck = try Self.deck()
    deck.cards = [deck.cards[0], deck.cards[1]]
    deck.notes = [deck.notes[0], deck.notes[1]]
    deck.cards[1].scheduling = CardScheduling(reviews: 4, lapses: 1, originalDue: 3, originalDeckID: 1)
    let (_, warnings) = try AppRecordMapping.records(from: deck)
    let message = try #require(warnings.first { $0.category == .schedulingDropped }?.message)
    #expect(
      message.contains("1 new card is suspended, buried, flagged or otherwise more than a plain new card"),
      "\(message)")
    #expect(
      message.contains("card 201 of note 101: in a filtered deck and 4 reviews and 1 lapse counted"), "\(message)")

    deck.cards.removeLast()
    deck.notes.removeLast()
    let (_, plain) = try AppRecordMapping.records(from: deck)
    #expect(!plain.contains { $0.category == .schedulingDropped })
  }

  @Test(
    "new cards whose positions are in another order than their notes are counted; in their notes' order they are not")
  func newCardOrder() throws {
    var deck = try Self.deck()
    deck.cards = Array(deck.cards.prefix(3))
    deck.notes = Array(deck.notes.prefix(3))
    for index in deck.cards.indices { deck.cards[index].scheduling = CardScheduling(due: Int64(index + 1)) }
    let (_, inOrder) = try AppRecordMapping.records(from: deck)
    #expect(!inOrder.contains { $0.category == .schedulingDropped }, "\(inOrder)")

    // The last note's card first, as Anki's "Reposition" leaves it.
    deck.cards[2].scheduling.due = 0
    let (_, reordered) = try AppRecordMapping.records(from: deck)
    let message = try #require(reordered.first { $0.category == .schedulingDropped }?.message)
    #expect(message.contains("the order of 3 new cards is not kept"), "\(message)")
    #expect(!message.contains("studied"), "\(message)")

    // Only the notes written count: without the first note, the other two are in order.
    let (_, part) = try AppRecordMapping.records(
      from: DeckCollection(
        decks: deck.decks, noteTypes: deck.noteTypes, notes: [deck.notes[2], deck.notes[1]], cards: deck.cards))
    #expect(!part.contains { $0.category == .schedulingDropped }, "\(part)")
  }

  /// The real Anki's package, converted by the CLI: the warning's count of new cards that are
  /// more than plain is the one the backend's own view of the package (its truth file) gives.
  @Test("a real package's suspended, buried and flagged new cards are named when written as app storage")
  func realPackage() throws {
    let package = Fixtures.path("anki/latest_sched.apkg")
    let truth = try AnkiTruth.load(forPackage: package)
    let changed = truth.cards.filter { card in
      card.type == 0 && (card.queue != 0 || card.flags != 0 || card.odeck != nil || card.reps != 0 || card.lapses != 0)
    }
    #expect(changed.count == 4)
    let scratch = try TemporaryDirectory()
    for (name, arguments) in [
      ("generic.json", ["--to", "app-json"]), ("flashzilla.json", ["--to", "app-json", "--profile", "flashzilla"]),
      ("cards.sqlite", ["--to", "sqlite"]), ("cards.plist", ["--to", "plist"]),
    ] {
      let run = try CommandRun.deckport(["convert", package, scratch.path(for: name), "--verbose"] + arguments)
      #expect(run.status == 0, "\(name): \(run.standardError)")
      let line = try #require(
        run.standardError.split(separator: "\n").first { $0.contains("[scheduling-dropped]") }, "\(name)")
      #expect(line.contains("\(changed.count) new cards are suspended, buried, flagged"), "\(name): \(line)")
      for state in ["suspended", "buried by the user", "flag 1", "flag 3"] {
        #expect(line.contains(": \(state)"), "\(name): \(state) in \(line)")
      }
      let strict = try CommandRun.deckport(
        ["convert", package, scratch.path(for: "strict-" + name), "--strict", "--verbose"] + arguments)
      #expect(strict.status != 0)
      #expect(strict.standardError.contains("[scheduling-dropped]"), "\(name): \(strict.standardError)")
      #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "strict-" + name)))
    }
  }
}
