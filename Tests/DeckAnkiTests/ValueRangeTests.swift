import DeckCore
import Testing

@testable import DeckAnki

@Suite("Writing Anki packages: each column outside Anki's range is fitted on its own")
struct ValueRangeTests {
  static let card = Card(
    id: 1, noteID: 1, templateOrdinal: 0, deckID: 1,
    scheduling: CardScheduling(type: .review, queue: .review, due: 10, interval: 5, easeFactor: 2500))
  static let review = Review(
    id: 1, cardID: 1, ease: 3, interval: 5, lastInterval: 1, easeFactor: 2500, duration: 1000, kind: .review)

  /// Each card column set beyond its range, alone, and the value it must be written as.
  static let cardCases: [(String, @Sendable (inout Card) -> Void, @Sendable (Card) -> Int64, Int64)] = [
    ("ord", { $0.templateOrdinal = 70_000 }, { Int64($0.templateOrdinal) }, 65_535),
    ("type", { $0.scheduling.type = CardType(rawValue: 300) }, { Int64($0.scheduling.type.rawValue) }, 3),
    ("queue", { $0.scheduling.queue = CardQueue(rawValue: -200) }, { Int64($0.scheduling.queue.rawValue) }, -3),
    ("due", { $0.scheduling.due = Int64.max }, { $0.scheduling.due }, Int64(Int32.max)),
    ("ivl", { $0.scheduling.interval = -5 }, { Int64($0.scheduling.interval) }, 0),
    ("factor", { $0.scheduling.easeFactor = 70_000 }, { Int64($0.scheduling.easeFactor) }, 65_535),
    ("reps", { $0.scheduling.reviews = -1 }, { Int64($0.scheduling.reviews) }, 0),
    ("lapses", { $0.scheduling.lapses = -1 }, { Int64($0.scheduling.lapses) }, 0),
    ("left", { $0.scheduling.remainingSteps = -1 }, { Int64($0.scheduling.remainingSteps) }, 0),
    ("odue", { $0.scheduling.originalDue = Int64.min }, { $0.scheduling.originalDue }, Int64(Int32.min)),
    ("flags", { $0.scheduling.flags = 300 }, { Int64($0.scheduling.flags) }, 255),
  ]

  static let reviewCases: [(String, @Sendable (inout Review) -> Void, @Sendable (Review) -> Int64, Int64)] = [
    ("ease", { $0.ease = 300 }, { Int64($0.ease) }, 255),
    ("ivl", { $0.interval = Int64.max }, { $0.interval }, Int64(Int32.max)),
    ("lastIvl", { $0.lastInterval = Int64.min }, { $0.lastInterval }, Int64(Int32.min)),
    ("factor", { $0.easeFactor = -1 }, { Int64($0.easeFactor) }, 0),
    ("time", { $0.duration = -1 }, { Int64($0.duration) }, 0),
    ("type", { $0.kind = ReviewKind(rawValue: 256) }, { Int64($0.kind.rawValue) }, 5),
  ]

  @Test("a card with one column out of range has that column fitted and reported")
  func cards() {
    for (column, change, read, expected) in Self.cardCases {
      var card = Self.card
      change(&card)
      var log = DiagnosticLog()
      let fitted = AnkiValueRanges.fitted(
        DeckCollection(creationTime: 0, cards: [card, Self.card]), location: SourceLocation(file: "x"), log: &log)
      #expect(read(fitted.cards[0]) == expected, "\(column)")
      #expect(fitted.cards[1] == Self.card, "\(column)")
      #expect(log.finished().map(\.message).first?.hasPrefix(column + " ") == true, "\(column)")
    }
  }

  @Test("a review with one column out of range has that column fitted and reported")
  func reviews() {
    for (column, change, read, expected) in Self.reviewCases {
      var review = Self.review
      change(&review)
      var log = DiagnosticLog()
      let fitted = AnkiValueRanges.fitted(
        DeckCollection(creationTime: 0, reviews: [review, Self.review]), location: SourceLocation(file: "x"), log: &log)
      #expect(read(fitted.reviews[0]) == expected, "\(column)")
      #expect(fitted.reviews[1] == Self.review, "\(column)")
      #expect(log.finished().map(\.message).first?.contains(column + " ") == true, "\(column)")
    }
  }
}
