import Foundation

/// The days of the Gregorian calendar in one time zone, written as `YYYY-MM-DD` (ISO 8601's
/// calendar date), the way deckport writes and reads days: a spreadsheet's due dates, the dates
/// its messages name. One value serves a whole sheet: it holds the calendar that every day is
/// worked out with.
package struct CalendarDays {
  private let calendar: Calendar

  /// The days as they fall in `timeZone`.
  package init(timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The day `date` falls on, as `YYYY-MM-DD`; nil when it is before the year 1, which would be
  /// written without its era (`0160-…` for the year 160 before it) and read back as a day of our
  /// era.
  package func text(of date: Date) -> String? {
    let parts = calendar.dateComponents([.era, .year, .month, .day], from: date)
    guard parts.era == 1 else { return nil }
    return Self.text(year: parts.year, month: parts.month, day: parts.day)
  }

  /// The moment `hour` o'clock starts on the day `text` names as `YYYY-MM-DD`, or nil when it
  /// names no day of the calendar (a wrong shape, February 30th).
  package func date(_ text: String, hour: Int) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    let components = DateComponents(year: year, month: month, day: day, hour: hour)
    // A date the calendar would roll over (February 30th) names no day.
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }

  /// The UTC day of `seconds` since 1970 as `YYYY-MM-DD`, followed by ` HH:MM:SS UTC` when
  /// `withTime` is set; a time more than about 3,000 years from 1970 is named by its year alone
  /// (`a day in the year 48954`), a count of mean Gregorian years.
  package static func utcText(ofSeconds seconds: Int64, withTime: Bool = false) -> String {
    // A range, not `abs`, which traps on Int64.min (a modification time read from any file).
    guard (-100_000_000_000..<100_000_000_000).contains(seconds) else {
      return "a day in the year \(1970 + seconds / 31_556_952)"
    }
    let utc = CalendarDays(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    let parts = utc.calendar.dateComponents(
      [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    let day = text(year: parts.year, month: parts.month, day: parts.day)
    guard withTime else { return day }
    let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
    func twoDigits(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return
      "\(day) \(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay % 3_600 / 60)):\(twoDigits(secondOfDay % 60)) UTC"
  }

  /// `YYYY-MM-DD` of a day's parts, each padded with zeros.
  private static func text(year: Int?, month: Int?, day: Int?) -> String {
    func padded(_ number: Int?, _ width: Int) -> String {
      let digits = String(number ?? 0)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
  }
}
