import Foundation

/// A card under review as a scheduler outside Anki states it: the day it is next due, its
/// interval, ease and counts. One set of rules turns it into Anki's scheduling, for an app's
/// review states (`DeckBuilder`) and a spreadsheet's scheduling columns (`CSVReader`) alike.
package struct ReviewSchedule: Sendable, Equatable {
  /// When the card is next due: Anki schedules reviews by day, the day this moment falls in.
  package var due: Date
  /// The interval the card was last given, in days.
  package var intervalDays: Int
  /// How much the interval grows on a good answer (2.5 for a card Anki starts).
  package var ease: Double
  /// How many times the card was reviewed.
  package var reviews: Int
  /// How many times it was forgotten after it had been learned.
  package var lapses: Int

  package init(due: Date, intervalDays: Int, ease: Double, reviews: Int, lapses: Int) {
    self.due = due
    self.intervalDays = intervalDays
    self.ease = ease
    self.reviews = reviews
    self.lapses = lapses
  }

  /// The intervals Anki holds, in days: 0 too, which Anki's "Set due date" gives a new card
  /// when FSRS is on (a card under review that was never reviewed).
  package static let intervalRange = 0...36_500
  /// The eases Anki holds.
  package static let easeRange = 1.3...10.0

  /// Why Anki could not hold this schedule (an interval of 0 to 36,500 days, an ease of 1.3 to
  /// 10, no more lapses than reviews, a due date within ±1e11 seconds of 1970), or nil. No
  /// review is needed: Anki's "Set due date" makes a new card a card under review without one.
  package var problem: String? {
    if !Self.intervalRange.contains(intervalDays) {
      return "an interval of \(intervalDays) days (Anki's run from 0 to 36,500)"
    }
    if !Self.easeRange.contains(ease) { return "an ease of \(ease) (Anki's run from 1.3 to 10)" }
    if reviews < 0 { return "\(reviews) reviews" }
    if !(0...reviews).contains(lapses) { return "\(lapses) lapses after \(reviews) reviews" }
    if !due.timeIntervalSince1970.isFinite || abs(due.timeIntervalSince1970) > 1e11 {
      return "a due date out of range"
    }
    return nil
  }

  /// Anki's scheduling of a card under review with this schedule: due on the day ``due`` falls
  /// in, counted in whole days from `creation` (the start of the collection's first day, its
  /// ``DeckCollection/creationTime``), suspended or not. Only for a schedule without a
  /// ``problem``.
  package func scheduling(creation: Date, suspended: Bool) -> CardScheduling {
    CardScheduling(
      type: .review, queue: suspended ? .suspended : .review, due: Self.wholeDays(from: creation, to: due),
      interval: intervalDays, easeFactor: Int((ease * 1_000).rounded()), reviews: reviews, lapses: lapses)
  }

  /// The start of the Anki day `date` falls in: 4 a.m. in `timeZone`, when Anki's day rolls over
  /// unless the user changed it. A collection whose creation time is such a start counts its
  /// days from that day (``wholeDays(from:to:)``).
  package static func ankiDayStart(of date: Date, timeZone: TimeZone = .current) -> Date {
    guard abs(date.timeIntervalSince1970) < 1e11 else { return Date(timeIntervalSince1970: 0) }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let rollover = calendar.startOfDay(for: date).addingTimeInterval(4 * 3_600)
    return date >= rollover ? rollover : rollover.addingTimeInterval(-86_400)
  }

  /// The whole days from `start` to `end` (0 when either is out of range).
  package static func wholeDays(from start: Date, to end: Date) -> Int64 {
    let days = ((end.timeIntervalSince1970 - start.timeIntervalSince1970) / 86_400).rounded(.down)
    return abs(days) < 1e9 ? Int64(days) : 0
  }
}
