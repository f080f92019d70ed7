import Foundation
import JSONCore

/// The due dates of one collection's cards in one time zone (``DeckCollection/due(of:timeZone:)``),
/// with what every card's date needs worked out once: the collection's rollover hour, the date
/// it was made, and the calendar of the zone. A writer of many cards makes one. Two that are
/// equal count days alike: each day number starts at the same moment in both.
package struct CardDueDates: Equatable {
  /// The hour Anki's days start at in the collection.
  private let rollover: Int
  /// The collection's creation time, in seconds since 1970.
  private let creationTime: Int64
  /// The date the collection was made, in the zone it was made in, when it records that zone
  /// (its `creationOffset` setting); nil when it does not, and its days are whole days from its
  /// creation time.
  private let creationDate: DateComponents?
  /// The Gregorian calendar of the zone asked for.
  private let local: Calendar

  package init(of collection: DeckCollection, in timeZone: TimeZone) {
    func setting(_ key: String) -> Int? {
      collection.settings.first { $0.key == key }.flatMap {
        try? JSONParser.parse($0.jsonText.utf8, options: .anki).writtenInteger
      }
      .flatMap { Int(exactly: $0) }
    }
    rollover = setting("rollover").flatMap { (0...23).contains($0) ? $0 : nil } ?? Self.defaultRolloverHour
    creationTime = collection.creationTime
    if let minutesWest = setting("creationOffset").flatMap({ (-24 * 60...24 * 60).contains($0) ? $0 : nil }),
      let createdZone = TimeZone(secondsFromGMT: -minutesWest * 60)
    {
      var created = Calendar(identifier: .gregorian)
      created.timeZone = createdZone
      creationDate = created.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(creationTime)))
    } else {
      creationDate = nil
    }
    var local = Calendar(identifier: .gregorian)
    local.timeZone = timeZone
    self.local = local
  }

  /// When `card` comes up next: see ``DeckCollection/due(of:timeZone:)``.
  package func due(of card: Card) -> CardDue {
    let scheduling = card.scheduling
    let due =
      scheduling.originalDeckID != 0 && scheduling.originalDue != 0 ? scheduling.originalDue : scheduling.due
    switch scheduling.queue {
    case .new: return .position(due)
    case .learning, .preview: return .moment(Date(timeIntervalSince1970: TimeInterval(due)))
    case .review, .dayLearning: return .day(startOfDay(due))
    default:
      // Suspended or buried: the type says what the number is; a learning card's number is a
      // moment when it is as large as one (Anki's own test).
      switch scheduling.type {
      case .new: return .position(due)
      case .learning, .relearning:
        return due > Self.smallestLearningMoment
          ? .moment(Date(timeIntervalSince1970: TimeInterval(due))) : .day(startOfDay(due))
      default: return .day(startOfDay(due))
      }
    }
  }

  /// The moment Anki day `day` starts: see ``DeckCollection/startOfDay(_:timeZone:)``.
  package func startOfDay(_ day: Int64) -> Date {
    let clampedDay = min(max(day, -Self.dayRange), Self.dayRange)
    let wholeDays = Date(timeIntervalSince1970: TimeInterval(creationTime) + TimeInterval(clampedDay) * 86_400)
    // Anki's rule for a collection that does not record its time zone: whole days from its
    // creation time.
    guard let creationDate else { return wholeDays }
    // Anki's rule since 2.1.28: day 0 starts on the date the collection was made (in the zone it
    // was made in) at the rollover hour, in the user's zone; day N, N dates later.
    let components = DateComponents(
      year: creationDate.year, month: creationDate.month, day: (creationDate.day ?? 1) + Int(clampedDay),
      hour: rollover)
    return local.date(from: components) ?? wholeDays
  }

  /// The hour Anki's days start at unless the user changed it.
  private static let defaultRolloverHour = 4
  /// Anki tells a learning card's moment from a day number by its size.
  private static let smallestLearningMoment: Int64 = 1_000_000_000
  /// Days within about 27,000 years: beyond them no date means anything.
  private static let dayRange: Int64 = 10_000_000
}
