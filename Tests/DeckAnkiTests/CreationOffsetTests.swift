import DeckCore
import Foundation
import Testing

@testable import DeckAnki

/// The `creationOffset` a written collection gets: the zone its due days were counted in. The
/// backend judges the result in nine zones (`Tests/anki/test_due_dates_in_every_time_zone.py`).
@Suite("creationOffset of a written collection")
struct CreationOffsetTests {
  @Test(
    "04:00 in the zone gives the zone's own offset, east of UTC+12 too",
    arguments: [
      "Pacific/Kiritimati", "Pacific/Tongatapu", "Pacific/Auckland", "Europe/Berlin", "UTC", "Pacific/Pago_Pago",
    ])
  func zoneOffset(identifier: String) throws {
    let zone = try #require(TimeZone(identifier: identifier))
    let creation = ReviewSchedule.ankiDayStart(of: Date(timeIntervalSince1970: 1_790_000_000), timeZone: zone)
    let seconds = Int64(creation.timeIntervalSince1970)
    #expect(
      CardDueDates.creationOffset(creationTime: seconds, timeZone: zone) == -zone.secondsFromGMT(for: creation) / 60)
  }

  @Test("a time that is not 04:00 in the zone gets the zone within ±12 hours that has it; extreme times do not trap")
  func otherTimes() throws {
    let utc = try #require(TimeZone(identifier: "UTC"))
    // 04:00 in UTC+13 is 15:00 UTC, which is 04:00 in UTC-11 too: the guess takes UTC-11.
    #expect(CardDueDates.creationOffset(creationTime: 15 * 3_600, timeZone: utc) == 660)
    for time in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
      let offset = CardDueDates.creationOffset(creationTime: time, timeZone: utc)
      #expect((-12 * 60...12 * 60).contains(offset))
    }
  }

  @Test(
    "a collection package from a deck package records today as the day buried cards were last released, when cards are buried"
  )
  func lastUnburiedDay() {
    let created: Int64 = 1_795_320_000
    let now = Date(timeIntervalSince1970: TimeInterval(created + 5 * 86_400 + 3_600))
    var buried = Card(id: 1, noteID: 1, templateOrdinal: 0, deckID: 1)
    buried.scheduling.queue = .buriedByUser
    var collection = DeckCollection(creationTime: created, cards: [buried])
    #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == 5)
    // Cards buried with their sibling count too; none buried, or a setting of its own: none.
    collection.cards[0].scheduling.queue = .buriedBySibling
    #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == 5)
    collection.cards[0].scheduling.queue = .new
    #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == nil)
    collection.cards[0].scheduling.queue = .buriedByUser
    // A collection's own settings, with or without the day, are written as they are.
    collection.settings = [AnkiProperty(key: "rollover", jsonText: "4")]
    #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == nil)
    collection.settings = [AnkiProperty(key: "lastUnburied", jsonText: "3")]
    #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == nil)
    // A creation time from a file far from today gives none, and does not trap.
    collection.settings = []
    for extreme in [Int64.max, Int64.min, created + 10 * 86_400] {
      collection.creationTime = extreme
      #expect(CollectionWriter.lastUnburiedDay(of: collection, now: now) == nil)
    }
  }

  @Test("a deck package's creation time from any crt and creationOffset a file holds: extreme ones kept, none traps")
  func packageCreationTimeFromExtremes() {
    for extreme in [Int64.min, Int64.min + 1, -1_000_000_000_000, 1_000_000_000_000, Int64.max] {
      for minutesWest in [Int.min, -24 * 60, 0, 24 * 60, Int.max] {
        #expect(CardDueDates.creationTime(extreme, madeAt: minutesWest) == extreme)
      }
    }
    // An ordinary time in a zone beyond a day is kept too.
    #expect(CardDueDates.creationTime(1_795_320_000, madeAt: 24 * 60 + 1) == 1_795_320_000)
  }
}
