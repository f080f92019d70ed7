import Foundation

/// A day of the Gregorian calendar written as `YYYY-MM-DD` (ISO 8601's calendar date), the way
/// deckport writes and reads days: a spreadsheet's due dates, the dates its messages name.
package enum CalendarDay {
  /// Whether the day `date` falls on in `timeZone` has a `YYYY-MM-DD`: it is in the year 1 or
  /// later. (A day before the year 1 would be written without its era, `0160-…` for the year 160
  /// before it, and read back as a day of our era.)
  package static func isWritable(_ date: Date, in timeZone: TimeZone) -> Bool {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.component(.era, from: date) == 1
  }

  /// The day `date` falls on in `timeZone`, as `YYYY-MM-DD` (see ``isWritable(_:in:)``).
  package static func text(of date: Date, in timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    func padded(_ number: Int?, _ width: Int) -> String {
      let digits = String(number ?? 0)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
  }

  /// The UTC day of `seconds` since 1970 as `YYYY-MM-DD`, followed by ` HH:MM:SS UTC` when
  /// `withTime` is set; a time more than about 3,000 years from 1970 is named by its year alone
  /// (`a day in the year 48954`), a count of mean Gregorian years.
  package static func utcText(ofSeconds seconds: Int64, withTime: Bool = false) -> String {
    // A range, not `abs`, which traps on Int64.min (a modification time read from any file).
    guard (-100_000_000_000..<100_000_000_000).contains(seconds) else {
      return "a day in the year \(1970 + seconds / 31_556_952)"
    }
    let utc = TimeZone(secondsFromGMT: 0) ?? .current
    let day = text(of: Date(timeIntervalSince1970: TimeInterval(seconds)), in: utc)
    guard withTime else { return day }
    let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
    func twoDigits(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return
      "\(day) \(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay % 3_600 / 60)):\(twoDigits(secondOfDay % 60)) UTC"
  }

  /// The moment `hour` o'clock starts on the day `text` names as `YYYY-MM-DD` in `timeZone`, or
  /// nil when it names no day of the calendar (a wrong shape, February 30th).
  package static func date(_ text: String, in timeZone: TimeZone, hour: Int) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let components = DateComponents(year: year, month: month, day: day, hour: hour)
    // A date the calendar would roll over (February 30th) names no day.
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }
}
