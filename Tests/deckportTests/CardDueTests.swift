import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// `DeckCollection.due(of:timeZone:)`: the due dates deckport gives the cards of a collection the
/// real Anki backend scheduled (`fixtures/anki_due_dates.py`), against the due dates Anki's own
/// card info gives them, in three time zones, read from the collection package and from a deck
/// package; and the rules it follows, on collections made by hand.
@Suite("When a card is due, as a date")
struct CardDueTests {
  /// What `anki_due_dates.py` prints.
  struct AnkiDueDates: Decodable {
    struct Card: Decodable {
      var type: Int
      var queue: Int
      var due: Int64
      var odue: Int64
      var ivl: Int
      var factor: Int
      var reps: Int
      var lapses: Int
      var dueDate: Int64?
      var duePosition: Int64?
    }
    var now: Int64
    var today: Int64
    var crt: Int64
    var cards: [String: Card]
  }

  @Test(
    "each card is due when Anki's own card info says, in the collection package and the deck package",
    .enabled(if: PythonScript.hasAnkiBackend),
    arguments: ["UTC", "Asia/Tokyo", "America/New_York"])
  func judgedByAnki(zone: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = try PythonScript.runWithAnki("anki_due_dates.py", [scratch.path, zone])
    let anki = try JSONDecoder().decode(AnkiDueDates.self, from: Data(output.utf8))
    let timeZone = try #require(TimeZone(identifier: zone))
    var local = Calendar(identifier: .gregorian)
    local.timeZone = timeZone

    for package in ["collection.colpkg", "deck.apkg"] {
      let collection = try DeckLoader().load(path: scratch.path(for: package)).collection
      #expect(collection.cards.count == anki.cards.count)
      for card in collection.cards {
        let front = try #require(collection.notes.first { $0.id == card.noteID }?.fields.first)
        let truth = try #require(anki.cards[front], "\(front)")
        let due = collection.due(of: card, timeZone: timeZone)
        switch due {
        case .position(let position):
          #expect(truth.type == 0, "\(package) \(front)")
          #expect(position == truth.duePosition, "\(package) \(front)")
        case .moment(let moment):
          #expect(Int64(moment.timeIntervalSince1970) == truth.dueDate, "\(package) \(front)")
        case .day(let start):
          // Anki's due date for a card due by day is now plus the days until then: a moment
          // within the day deckport names, which starts at 4 a.m. in the user's zone.
          let dueDate = try #require(truth.dueDate, "\(package) \(front)")
          let seconds = Int64(start.timeIntervalSince1970)
          #expect((seconds...(seconds + 86_399)).contains(dueDate), "\(package) \(front): \(start)")
          #expect(local.component(.hour, from: start) == 4, "\(package) \(front): \(start)")
        }
        let expected: String
        switch front {
        case "new", "buried": expected = "position"
        // A learning step that ends after the next day begins (4 a.m. where the user is) puts
        // the card in the day-learning queue, due by day: run shortly before 4 a.m. in the zone,
        // the backend schedules it so (seen at 03:55 UTC).
        case "learning", "relearning": expected = truth.queue == 3 ? "day" : "moment"
        default: expected = "day"
        }
        #expect("\(due)".hasPrefix(expected), "\(package) \(front): \(due)")
      }
    }
  }

  @Test("review days count from the date the collection was made, in its zone, at its rollover hour")
  func dayRules() throws {
    // Made at 23:30 UTC on 2026-11-27, which was 2026-11-28 08:30 in Tokyo (creationOffset -540).
    let created: Int64 = 1_795_822_200
    let review = Card(
      id: 1, noteID: 1, templateOrdinal: 0, deckID: 1, modificationTime: 0,
      scheduling: CardScheduling(type: .review, queue: .review, due: 3, interval: 3))
    let utc = try #require(TimeZone(identifier: "UTC"))
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    func start(_ settings: [AnkiProperty], _ zone: TimeZone) -> Date? {
      let collection = DeckCollection(creationTime: created, cards: [review], settings: settings)
      guard case .day(let start) = collection.due(of: review, timeZone: zone) else { return nil }
      return start
    }
    // Without a recorded zone: from the date in the zone a package written from it records,
    // the one where its creation time is 04:00 (UTC+4:30, the 28th), as Anki dates that package.
    let madeAtFour = ISO8601DateFormatter().date(from: "2026-12-01T04:00:00Z")
    #expect(start([], utc) == madeAtFour)
    // Made in Tokyo on the 28th: day 3 is December 1st, from 4 a.m. (or the rollover hour) where
    // the user is.
    let madeInTokyo = [AnkiProperty(key: "creationOffset", jsonText: "-540")]
    let december1 = ISO8601DateFormatter()
    #expect(start(madeInTokyo, tokyo) == december1.date(from: "2026-11-30T19:00:00Z"))
    #expect(start(madeInTokyo, utc) == december1.date(from: "2026-12-01T04:00:00Z"))
    #expect(
      start(madeInTokyo + [AnkiProperty(key: "rollover", jsonText: "2")], utc)
        == december1.date(from: "2026-12-01T02:00:00Z"))
    // A creationOffset out of any zone's range (the smallest integer, found by FuzzBuilder: its
    // magnitude trapped) counts as a collection without one.
    for offset in ["-9223372036854775808", "9223372036854775807", "1441", "-1441"] {
      #expect(start([AnkiProperty(key: "creationOffset", jsonText: offset)], utc) == madeAtFour)
    }
    // A setting that is not an hour is Anki's default: text, or a number not written as an
    // integer (the backend's day starts at 4 for a rollover of 7.0 or "7", at 7 for 7). JSON's
    // white space around the number is no matter.
    for text in ["\"x\"", "2.0", "\"2\""] {
      #expect(
        start(madeInTokyo + [AnkiProperty(key: "rollover", jsonText: text)], utc)
          == december1.date(from: "2026-12-01T04:00:00Z"), "\(text)")
    }
    #expect(
      start(madeInTokyo + [AnkiProperty(key: "rollover", jsonText: " 2\n")], utc)
        == december1.date(from: "2026-12-01T02:00:00Z"))

    // A card in a filtered deck is due when it goes back; a suspended learning card by its number.
    var filtered = review
    filtered.scheduling.due = -100_000
    filtered.scheduling.originalDue = 3
    filtered.scheduling.originalDeckID = 7
    let collection = DeckCollection(creationTime: created, cards: [filtered])
    #expect(collection.due(of: filtered, timeZone: utc) == madeAtFour.map { .day($0) })
    var learning = review
    learning.scheduling = CardScheduling(type: .learning, queue: .suspended, due: 1_795_900_000)
    #expect(collection.due(of: learning, timeZone: utc) == .moment(Date(timeIntervalSince1970: 1_795_900_000)))
    learning.scheduling.due = 2
    #expect(collection.due(of: learning, timeZone: utc) == madeAtFour.map { .day($0.addingTimeInterval(-86_400)) })
    var buried = review
    buried.scheduling = CardScheduling(type: .new, queue: .buriedByUser, due: 12)
    #expect(collection.due(of: buried, timeZone: utc) == .position(12))
    // A day number no calendar holds gives a date, not a trap.
    var far = review
    far.scheduling.due = .max
    #expect(collection.due(of: far, timeZone: utc) != .position(0))
    let review1 = Review(
      id: 1_795_822_200_250, cardID: 1, ease: 3, interval: 1, lastInterval: 0, easeFactor: 2_500, duration: 0,
      kind: .review)
    #expect(review1.date == Date(timeIntervalSince1970: 1_795_822_200.25))
  }
}
