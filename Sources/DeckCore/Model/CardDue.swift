import Foundation

/// When a card comes up next, in the terms an app schedules with rather than Anki's stored
/// number.
///
/// Anki keeps a card's due date in one column, ``CardScheduling/due``, whose meaning depends on
/// the card: a new card's position, a learning card's moment in seconds since 1970, or a review
/// card's day counted from the collection's creation (a count that means another date in every
/// collection: copying it into an app's own scheduler as a number moves the card by years).
/// ``DeckCollection/due(of:timeZone:)`` tells them apart and gives dates.
public enum CardDue: Sendable, Hashable {
  /// A new card: its position among the new cards, which Anki introduces in this order (1 first).
  case position(Int64)
  /// A card in learning or relearning, due at this moment (usually within the day).
  case moment(Date)
  /// A card due on a day (under review, or in learning across days): the Anki day that starts at
  /// this moment, the collection's "next day starts at" hour (4 a.m. unless the user changed it)
  /// in the time zone asked for. A day before today means the card is overdue.
  case day(Date)
}

extension DeckCollection {
  /// When `card` comes up next, as Anki shows it in the card's info: its position if it is new,
  /// the moment if it is in learning, the day if it is due by day. A card in a filtered deck is
  /// given the due date it goes back to; a suspended or buried card, the one it had.
  ///
  /// Days are counted as Anki counts them: from the collection's creation, at the hour its days
  /// roll over (its `rollover` setting, 4 when the collection carries none), in `timeZone` (the
  /// user's); a collection package that records the time zone it was made in (its
  /// `creationOffset` setting) has its first day on the date it was made there, and any other
  /// collection on the date of its creation time in the zone a package written from it records
  /// (the zone in which that time is 04:00, `timeZone` when it is 04:00 there), as Anki dates
  /// such a package's days.
  public func due(of card: Card, timeZone: TimeZone = .current) -> CardDue {
    CardDueDates(of: self, in: timeZone).due(of: card)
  }

  /// The moment Anki day `day` (a review card's ``CardScheduling/due``) starts in `timeZone`:
  /// see ``due(of:timeZone:)``.
  public func startOfDay(_ day: Int64, timeZone: TimeZone = .current) -> Date {
    CardDueDates(of: self, in: timeZone).startOfDay(day)
  }
}
