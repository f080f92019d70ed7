import Foundation
import JSONCore
import PlistCodec

extension AppValue {
  /// The text a note field gives this value when records become notes (before the text is
  /// escaped as HTML): numbers as JSON writes them (`nan`, `inf` and `-inf` for those it has no
  /// text for), booleans as `true` and `false`, UUIDs in
  /// upper case, dates in ISO 8601 (with milliseconds when the date has a fraction of a second),
  /// arrays and objects as compact JSON (``noteJSONText``: a non-finite number in them the word
  /// `nan`, `inf` or `-inf` too), nothing for null; nil for data, which becomes a media file the
  /// field refers to.
  var noteText: String? {
    switch self {
    case .null: ""
    case .string(let text): text
    case .integer(let number): String(number)
    case .double(let number): number.isFinite ? JSONWriter.text(of: number) : Self.nonFiniteText(of: number)
    case .bool(let flag): flag ? "true" : "false"
    case .uuid(let uuid): uuid.uuidString
    case .date(let date): Self.noteText(of: date)
    case .data: nil
    case .array, .object: noteJSONText
    }
  }

  /// The value of an array's or object's note text (``noteText``): JSON, in which the words
  /// `nan`, `inf` and `-inf` stand for the numbers JSON has no text for.
  ///
  /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
  init(noteJSON text: String) throws(JSONSyntaxError) {
    var options = Self.jsonOptions
    options.readsNonFiniteWords = true
    self.init(untagged: try JSONParser.parse(Data(text.utf8), options: options))
  }

  /// The text of a number JSON has none for (JSON's writer gives it `null`): `nan`, `inf` or
  /// `-inf`, as deckport's SQLite file tags it; ``double(fromNoteText:)`` reads it back.
  static func nonFiniteText(of number: Double) -> String {
    number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf")
  }

  /// The number a note's text `nan`, `inf` or `-inf` (``noteText``'s form of a number that is
  /// not finite) gives; nil for any other text.
  static func double(fromNoteText text: String) -> Double? {
    switch text {
    case "nan": .nan
    case "inf": .infinity
    case "-inf": -.infinity
    default: nil
    }
  }

  /// The date a note's text gives in ``noteText``'s form: ISO 8601 in UTC, with or without
  /// fractional seconds, every digit of the fraction kept (`…10:00:00.123456Z` is 694260000.123456
  /// seconds since 2001; Foundation's formatter keeps about a millisecond, 694260000.1229999);
  /// nil for other text.
  static func date(fromNoteText text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions =
      text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { return nil }
    // The formatter's calendar is Julian before 1582 and ``noteText`` writes with it, so the
    // exact reading (proleptic Gregorian) is taken only where both name the same millisecond.
    guard let seconds = XMLPlistDate.seconds(text), abs(seconds - date.timeIntervalSinceReferenceDate) < 0.001 else {
      return date
    }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  private static func noteText(of date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions =
      date.timeIntervalSinceReferenceDate.rounded() == date.timeIntervalSinceReferenceDate
      ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }
}
