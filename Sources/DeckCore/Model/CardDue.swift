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
  /// `creationOffset` setting) has its first day on the date it was made there.
  public func due(of card: Card, timeZone: TimeZone = .current) -> CardDue {
    let scheduling = card.scheduling
    let due =
      scheduling.originalDeckID != 0 && scheduling.originalDue != 0 ? scheduling.originalDue : scheduling.due
    switch scheduling.queue {
    case .new: return .position(due)
    case .learning, .preview: return .moment(Date(timeIntervalSince1970: TimeInterval(due)))
    case .review, .dayLearning: return .day(startOfDay(due, timeZone: timeZone))
    default:
      // Suspended or buried: the type says what the number is; a learning card's number is a
      // moment when it is as large as one (Anki's own test).
      switch scheduling.type {
      case .new: return .position(due)
      case .learning, .relearning:
        return due > Self.smallestLearningMoment
          ? .moment(Date(timeIntervalSince1970: TimeInterval(due))) : .day(startOfDay(due, timeZone: timeZone))
      default: return .day(startOfDay(due, timeZone: timeZone))
      }
    }
  }

  /// The moment Anki day `day` (a review card's ``CardScheduling/due``) starts in `timeZone`:
  /// see ``due(of:timeZone:)``.
  public func startOfDay(_ day: Int64, timeZone: TimeZone = .current) -> Date {
    let clampedDay = min(max(day, -Self.dayRange), Self.dayRange)
    let rollover = setting("rollover").flatMap { (0...23).contains($0) ? $0 : nil } ?? Self.defaultRolloverHour
    guard let minutesWest = setting("creationOffset").flatMap({ (-24 * 60...24 * 60).contains($0) ? $0 : nil }),
      let createdZone = TimeZone(secondsFromGMT: -minutesWest * 60)
    else {
      // Anki's rule for a collection that does not record its time zone: whole days from its
      // creation time.
      return Date(timeIntervalSince1970: TimeInterval(creationTime) + TimeInterval(clampedDay) * 86_400)
    }
    // Anki's rule since 2.1.28: day 0 starts on the date the collection was made (in the zone it
    // was made in) at the rollover hour, in the user's zone; day N, N dates later.
    var created = Calendar(identifier: .gregorian)
    created.timeZone = createdZone
    let date = created.dateComponents(
      [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(creationTime)))
    var local = Calendar(identifier: .gregorian)
    local.timeZone = timeZone
    let components = DateComponents(
      year: date.year, month: date.month, day: (date.day ?? 1) + Int(clampedDay), hour: rollover)
    return local.date(from: components)
      ?? Date(timeIntervalSince1970: TimeInterval(creationTime) + TimeInterval(clampedDay) * 86_400)
  }

  /// The collection setting `key` as a whole number, if it is one.
  private func setting(_ key: String) -> Int? {
    settings.first { $0.key == key }.flatMap { Int($0.jsonText) }
  }

  /// The hour Anki's days start at unless the user changed it.
  private static let defaultRolloverHour = 4
  /// Anki tells a learning card's moment from a day number by its size.
  private static let smallestLearningMoment: Int64 = 1_000_000_000
  /// Days within about 27,000 years: beyond them no date means anything.
  private static let dayRange: Int64 = 10_000_000
}
