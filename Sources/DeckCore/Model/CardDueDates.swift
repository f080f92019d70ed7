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
  /// The date the collection was made, in the zone it was made in: the zone its
  /// `creationOffset` setting names, or, when it has none, the zone a package written from it
  /// names (``creationOffset(creationTime:timeZone:)``); nil only when no calendar names the
  /// date, and its days are whole days from its creation time.
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
    // A collection that does not record the zone it was made in is counted as a package
    // written from it counts (the writer records this guess), so that a sheet's dates and the
    // package's agree.
    let minutesWest =
      setting("creationOffset").flatMap({ (-24 * 60...24 * 60).contains($0) ? $0 : nil })
      ?? Self.creationOffset(creationTime: collection.creationTime, timeZone: timeZone)
    if let createdZone = TimeZone(secondsFromGMT: -minutesWest * 60) {
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
    let due = scheduling.homeDue
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

  /// Minutes west of UTC of the time zone in which `creationTime` is 04:00, the start of Anki's
  /// day, as Anki's `creationOffset` says it: `timeZone`'s offset at that moment when the time
  /// is 04:00 there (deckport's builders count due days from 04:00 in the zone they were given,
  /// by default this one, as Anki does from the start of the day it made a collection), else
  /// the zone within ±12 hours that has it. The offset a collection package is written with
  /// when the collection records none, and the one its due dates are counted in.
  ///
  /// Two zones a day apart have 04:00 at the same moment (UTC+13 and UTC−11): only the zone
  /// says which date the collection was made on, and Anki counts due days from that date, so a
  /// guess of UTC−11 for UTC+13 (New Zealand's summer, Tonga) made every review card due a day
  /// early.
  package static func creationOffset(creationTime: Int64, timeZone: TimeZone = .current) -> Int {
    let moment = Date(timeIntervalSince1970: TimeInterval(creationTime))
    let eastSeconds = timeZone.secondsFromGMT(for: moment)
    // Each term reduced first: a creation time from a file may be near Int64's limits.
    let localSecondOfDay = ((creationTime % 86_400) + Int64(eastSeconds % 86_400) + 2 * 86_400) % 86_400
    if localSecondOfDay == Int64(defaultRolloverHour * 3_600) { return -eastSeconds / 60 }
    let minuteOfDay = Int(((creationTime % 86_400) + 86_400) % 86_400 / 60)
    var west = minuteOfDay - defaultRolloverHour * 60
    if west >= 12 * 60 { west -= 24 * 60 }
    if west < -12 * 60 { west += 24 * 60 }
    return west
  }

  /// The creation time that counts a deck package's days as Anki's import of it counts them,
  /// for a package whose collection was made at `creationTime` in the zone `minutesWest` names
  /// (its `creationOffset` setting, which the model keeps only for a collection package).
  ///
  /// Anki counts such a package's days from the date the collection was made in that zone.
  /// Without the setting, the days are counted in the zone
  /// ``creationOffset(creationTime:timeZone:)`` guesses from the creation time alone, which names
  /// the same date for a collection Anki made anywhere from UTC−9:30 to UTC+12: `creationTime` is
  /// kept. For one made in UTC+13 or UTC+14 (the guess is UTC−11 or UTC−10, a day earlier), in
  /// UTC−10 or UTC−11 (a user in UTC+14 or UTC+13 would be given that zone's date, a day later),
  /// or at a time that is not 04:00 there, it is 04:00 UTC of that date, which every guess dates
  /// alike; the due day numbers then mean the dates they meant.
  package static func creationTime(_ creationTime: Int64, madeAt minutesWest: Int) -> Int64 {
    // Beyond about 30,000 years from 1970 no date means anything: kept as it is (`magnitude`,
    // as `abs` traps on Int64.min, which a file may hold).
    guard creationTime.magnitude < 1_000_000_000_000, (-24 * 60...24 * 60).contains(minutesWest) else {
      return creationTime
    }
    /// The day since 1970 on which `creationTime` falls `west` minutes west of UTC.
    func day(west: Int) -> Int64 {
      let local = creationTime - Int64(west) * 60
      return local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
    }
    let made = day(west: minutesWest)
    // The zone every guess names when it is within ±12 hours and no zone a day away has 04:00
    // at that moment.
    let guessed = creationOffset(creationTime: creationTime, timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    if guessed >= -12 * 60 && guessed < 10 * 60 && day(west: guessed) == made { return creationTime }
    return made * 86_400 + Int64(defaultRolloverHour * 3_600)
  }

  /// The hour Anki's days start at unless the user changed it.
  private static let defaultRolloverHour = 4
  /// Anki tells a learning card's moment from a day number by its size.
  private static let smallestLearningMoment: Int64 = 1_000_000_000
  /// Days within about 27,000 years: beyond them no date means anything.
  private static let dayRange: Int64 = 10_000_000
}
