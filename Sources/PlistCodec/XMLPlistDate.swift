/// The text of an XML plist's `<date>`: `YYYY-MM-DDTHH:MM:SSZ`, a UTC time in the proleptic
/// Gregorian calendar, as Core Foundation and Python's `plistlib` write and read it.
///
/// Foundation's `ISO8601DateFormatter` switches to the Julian calendar before 15 October 1582,
/// so a date of the year 1000 came back six days off (and the year 1 two days off) without a
/// word; this conversion is plain arithmetic on days. App records' ISO 8601 JSON dates are read
/// with it too (`JSONDateEncoding`).
package enum XMLPlistDate {
  /// Seconds from 1970 to 2001, the reference date plists count from.
  private static let secondsFrom1970To2001: Int64 = 978_307_200
  /// The seconds since 1970 of the first and last second of the years 1 to 9999, the years
  /// the text's four digits can name.
  private static let writableRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

  /// The text for `seconds` since 2001 (whole), or nil when it falls outside the years 1 to 9999.
  static func text(ofSeconds seconds: Double) -> String? {
    let sinceEpoch = seconds + Double(secondsFrom1970To2001)
    guard seconds.isFinite, sinceEpoch >= Double(writableRange.lowerBound),
      sinceEpoch <= Double(writableRange.upperBound)
    else { return nil }
    let total = Int64(sinceEpoch)
    let days = floorDivision(total, 86_400)
    let secondOfDay = total - days * 86_400
    let (year, month, day) = civilDate(ofDay: days)
    func padded(_ number: Int64, _ width: Int) -> String {
      let digits = String(number)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return
      "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3_600, 2)):\(padded(secondOfDay % 3_600 / 60, 2)):\(padded(secondOfDay % 60, 2))Z"
  }

  /// ISO 8601 text for `seconds` since 2001 in UTC that ``seconds(_:)`` reads back as exactly
  /// `seconds`: the whole second, then as few digits of its fraction as that takes
  /// (`700000000.5` is `2023-03-08T20:26:40.5Z`, `694260000.123456` `…10:00:00.123456Z`; a whole
  /// second has none, as `JSONEncoder`'s `.iso8601` writes it). Nil outside the years 1 to 9999.
  package static func isoText(ofSeconds seconds: Double) -> String? {
    let whole = seconds.rounded(.down)
    guard let text = text(ofSeconds: whole) else { return nil }
    let fraction = seconds - whole  // exact: both are doubles of the same binade or below
    guard fraction > 0 else { return text }
    let stem = text.dropLast()  // the Z
    // The shortest fixed-point rounding that reads back; a fraction too small for 17 places
    // (within a second of 2001 only) takes Swift's shortest text of it written out in full.
    for places in 1...17 {
      let digits = String(format: "%.\(places)f", fraction)
      guard digits.hasPrefix("0.") else { break }
      let candidate = "\(stem)\(digits.dropFirst())Z"
      if Self.seconds(candidate) == seconds { return candidate }
    }
    let candidate = "\(stem).\(positionalDigits(of: fraction))Z"
    return Self.seconds(candidate) == seconds ? candidate : nil
  }

  /// The digits after the point of `fraction` (between 0 and 1) in Swift's shortest text,
  /// written out without an exponent (`1e-30` gives 29 zeros and a 1).
  private static func positionalDigits(of fraction: Double) -> String {
    let shortest = "\(fraction)"
    guard let exponentIndex = shortest.firstIndex(of: "e"),
      let exponent = Int(shortest[shortest.index(after: exponentIndex)...])
    else { return String(shortest.drop(while: { $0 != "." }).dropFirst()) }
    let significand = shortest[..<exponentIndex].filter { $0 != "." }
    return String(repeating: "0", count: max(0, -exponent - 1)) + significand
  }

  /// The seconds since 2001 that `text` names: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a
  /// second, then `Z` or an offset `±HH:MM`; nil for any other text or a day the calendar lacks.
  package static func seconds(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20 else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else {
        return nil
      }
      return bytes[range].reduce(0) { $0 * 10 + Int64($1 - 0x30) }
    }
    func byte(_ index: Int, is character: Character) -> Bool {
      index < bytes.count && bytes[index] == character.asciiValue
    }
    guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
      let day = number(8..<10), byte(10, is: "T"), let hour = number(11..<13), byte(13, is: ":"),
      let minute = number(14..<16), byte(16, is: ":"), let second = number(17..<19),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
      second < 60
    else { return nil }
    var index = 19
    var fraction = 0.0
    if byte(index, is: ".") {
      let start = index + 1
      index = start
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else {
        return nil
      }
      fraction = value
    }
    var offset: Int64 = 0
    if byte(index, is: "Z"), index + 1 == bytes.count {
      offset = 0
    } else if byte(index, is: "+") || byte(index, is: "-"), index + 6 == bytes.count,
      let offsetHours = number(index + 1..<index + 3), byte(index + 3, is: ":"),
      let offsetMinutes = number(index + 4..<index + 6), offsetHours < 24, offsetMinutes < 60
    {
      offset = (offsetHours * 3_600 + offsetMinutes * 60) * (byte(index, is: "-") ? -1 : 1)
    } else {
      return nil
    }
    let total = Self.day(ofYear: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
    return Double(total - secondsFrom1970To2001) + fraction
  }

  /// Year, month and day of the proleptic Gregorian calendar of `days` since 1970-01-01.
  private static func civilDate(ofDay days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    // Counted in eras of 400 years (146,097 days) from 0000-03-01, so that the leap day ends
    // each counted year.
    let shifted = days + 719_468
    let era = floorDivision(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Days since 1970-01-01 of a day of the proleptic Gregorian calendar.
  private static func day(ofYear year: Int64, month: Int64, day: Int64) -> Int64 {
    let yearFromMarch = month <= 2 ? year - 1 : year
    let era = floorDivision(yearFromMarch, 400)
    let yearOfEra = yearFromMarch - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }
}
