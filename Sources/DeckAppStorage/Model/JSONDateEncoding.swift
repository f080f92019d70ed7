import Foundation
import PlistCodec

/// How dates are written as JSON values, matching `JSONEncoder.DateEncodingStrategy`.
///
/// The raw values are the names deckport's SQLite schema stores (`deckport_record_types.json_dates`).
public enum JSONDateEncoding: String, Sendable, Hashable, CaseIterable {
  /// A number of seconds since 2001-01-01T00:00:00Z: `JSONEncoder`'s default (`.deferredToDate`).
  case secondsSince2001 = "seconds-since-2001"
  /// A number of seconds since 1970 (`.secondsSince1970`).
  case secondsSince1970 = "seconds-since-1970"
  /// A number of milliseconds since 1970 (`.millisecondsSince1970`).
  case millisecondsSince1970 = "milliseconds-since-1970"
  /// An ISO 8601 string in UTC without fractional seconds (`.iso8601`): what `JSONDecoder`'s
  /// `.iso8601` reads, which refuses a fraction.
  case iso8601
  /// An ISO 8601 string in UTC with the digits of a fraction of a second that give the same
  /// `Date` back (`2023-03-08T20:26:40.5Z`; a whole second has none): the encoding of a file
  /// whose ISO 8601 dates show fractions (an app reading them with `ISO8601DateFormatter`'s
  /// `.withFractionalSeconds`, JavaScript's `toISOString`).
  case iso8601Fractional = "iso8601-fractional"

  /// The JSON value for `date` in this encoding.
  func encode(_ date: Date) -> AppValue {
    switch self {
    case .secondsSince2001: return Self.number(date.timeIntervalSinceReferenceDate)
    case .secondsSince1970: return Self.number(date.timeIntervalSince1970)
    case .millisecondsSince1970: return Self.number(date.timeIntervalSince1970 * 1000)
    case .iso8601: return .string(Self.isoFormatter().string(from: date))
    case .iso8601Fractional:
      let text = XMLPlistDate.isoText(ofSeconds: date.timeIntervalSinceReferenceDate)
      return .string(text ?? Self.isoFormatter().string(from: date))
    }
  }

  /// The date `value` holds in this encoding, only when encoding that date again gives exactly
  /// `value` back (so typing a value never changes what is written).
  func decode(_ value: AppValue) -> Date? {
    guard let date = date(in: value), Self.sameNumber(encode(date), value) else { return nil }
    return date
  }

  /// The date `value` names in this encoding, even when encoding it again would write other text
  /// (`"2023-01-01T10:00:00.123Z"`, `"…+02:00"`, a number with more digits than a `Date` keeps):
  /// what a note's id or a store's date column takes. ISO 8601 text is a date and time with an
  /// optional fraction of a second and `Z` or an offset, a day the calendar has. Nil for any other
  /// value, and for a date outside ``isWithinRange(_:)``.
  func date(in value: AppValue) -> Date? {
    let date: Date
    switch (self, value) {
    case (.secondsSince2001, .integer(let number)): date = Date(timeIntervalSinceReferenceDate: Double(number))
    case (.secondsSince2001, .double(let number)): date = Date(timeIntervalSinceReferenceDate: number)
    case (.secondsSince1970, .integer(let number)): date = Date(timeIntervalSince1970: Double(number))
    case (.secondsSince1970, .double(let number)): date = Date(timeIntervalSince1970: number)
    case (.millisecondsSince1970, .integer(let number)): date = Date(timeIntervalSince1970: Double(number) / 1000)
    case (.millisecondsSince1970, .double(let number)): date = Date(timeIntervalSince1970: number / 1000)
    case (.iso8601, .string(let text)), (.iso8601Fractional, .string(let text)):
      guard let seconds = XMLPlistDate.seconds(text) else { return nil }
      date = Date(timeIntervalSinceReferenceDate: seconds)
    default: return nil
    }
    return Self.isWithinRange(date) ? date : nil
  }

  /// Whether `date` is one a note's id holds (milliseconds since 1970, below 9e15 either way:
  /// within about 285,000 years of 1970); a value beyond that (`1e300`) is no date.
  static func isWithinRange(_ date: Date) -> Bool {
    let milliseconds = date.timeIntervalSince1970 * 1000
    return milliseconds.isFinite && abs(milliseconds) < 9e15
  }

  /// The encoding a set of date values was most likely written in, by their range (see the
  /// table in docs/app-storage.md), or nil when they fit none or look written in several. Values
  /// that are no date in any encoding (``guess(forOne:)`` gives nil) do not count.
  /// ISO 8601 text is ``iso8601Fractional`` when any of it shows a fraction of a second.
  static func guess(from values: [AppValue]) -> JSONDateEncoding? {
    let guesses = Set(values.compactMap(guess(forOne:)))
    guard guesses.count == 1, let guess = guesses.first else { return nil }
    guard guess == .iso8601 else { return guess }
    let fractional = values.contains { value in
      guard case .string(let text) = value, Self.iso8601.date(in: value) != nil else { return false }
      return text.utf8.count > 19 && text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 19)] == UInt8(ascii: ".")
    }
    return fractional ? .iso8601Fractional : .iso8601
  }

  /// The encoding one date value looks written in, by its range; nil for what is a date in none
  /// (ISO 8601 text is ``iso8601`` here, with a fraction or without; null, what is neither a
  /// number nor a string, text that is no ISO 8601 date and time, a
  /// number that is no date in the encoding its range suggests: ``date(in:)``), and for 0, an
  /// app's placeholder for "never", which is the epoch of every numeric encoding and tells none.
  static func guess(forOne value: AppValue) -> JSONDateEncoding? {
    let guess: JSONDateEncoding
    switch value {
    case .string: guess = .iso8601
    case .integer(0): return nil
    case .double(let number) where number == 0: return nil
    case .integer(let number): guess = Self.guess(Double(number))
    case .double(let number): guess = Self.guess(number)
    default: return nil
    }
    return guess.date(in: value) == nil ? nil : guess
  }

  private static func guess(_ number: Double) -> JSONDateEncoding {
    if abs(number) > 1e11 { return .millisecondsSince1970 }
    if number >= 1.2e9 { return .secondsSince1970 }
    return .secondsSince2001
  }

  /// A number as `JSONEncoder` writes a date: without a fraction when it is whole.
  private static func number(_ value: Double) -> AppValue {
    if value.isFinite, value == value.rounded(), abs(value) < 9.0e15 { return .integer(Int64(value)) }
    return .double(value)
  }

  /// Whether two JSON numbers (or strings) denote the same value, integers and doubles alike.
  private static func sameNumber(_ a: AppValue, _ b: AppValue) -> Bool {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return x == y
    case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)): return Double(x) == y
    case (.double(let x), .double(let y)): return x == y
    default: return a == b
    }
  }

  private static func isoFormatter() -> ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter
  }
}
