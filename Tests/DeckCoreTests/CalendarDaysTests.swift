import Foundation
import Testing

@testable import DeckCore

/// The UTC days and times messages name. The expected texts are Python's
/// `datetime.fromtimestamp(s, datetime.UTC)` of each value, written here as data.
@Suite("CalendarDays: UTC days and times in messages")
struct CalendarDaysTests {
  @Test(
    "a time as YYYY-MM-DD HH:MM:SS UTC",
    arguments: [
      (Int64(0), "1970-01-01 00:00:00 UTC"), (1_795_331_276, "2026-11-22 07:07:56 UTC"),
      (-1, "1969-12-31 23:59:59 UTC"), (-86_401, "1969-12-30 23:59:59 UTC"),
    ])
  func time(seconds: Int64, text: String) {
    #expect(CalendarDays.utcText(ofSeconds: seconds, withTime: true) == text)
    #expect(CalendarDays.utcText(ofSeconds: seconds) == String(text.prefix(10)))
  }

  @Test("a time beyond any calendar is named by its year, without a trap at either end")
  func outOfRange() {
    // anki-apkg-export's note times, in milliseconds where seconds belong.
    #expect(CalendarDays.utcText(ofSeconds: 1_482_680_798_652) == "a day in the year 48954")
    #expect(CalendarDays.utcText(ofSeconds: .max, withTime: true).hasPrefix("a day in the year "))
    #expect(CalendarDays.utcText(ofSeconds: .min, withTime: true).hasPrefix("a day in the year -"))
  }
}

@Suite("CalendarDays: a sheet's days in its time zone")
struct CalendarDaysInZoneTests {
  static let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .current

  @Test("a moment is written as the day it falls on in the zone, and read back as that day")
  func roundTrip() {
    let days = CalendarDays(timeZone: Self.tokyo)
    // 2026-11-22 20:00 UTC is already the 23rd in Tokyo (UTC+9).
    #expect(days.text(of: Date(timeIntervalSince1970: 1_795_377_600)) == "2026-11-23")
    let noon = days.date("2026-11-23", hour: 12)
    #expect(noon == Date(timeIntervalSince1970: 1_795_402_800))
    #expect(noon.flatMap(days.text(of:)) == "2026-11-23")
  }

  @Test("a day before the year 1 has no YYYY-MM-DD, and a day the calendar lacks is no date")
  func outside() {
    let days = CalendarDays(timeZone: Self.tokyo)
    // About 2,000 years before the year 1.
    #expect(days.text(of: Date(timeIntervalSince1970: -125_000_000_000)) == nil)
    // A month into the year 1 (Foundation's Gregorian calendar is Julian before 1582).
    #expect(days.text(of: Date(timeIntervalSince1970: -62_135_596_800 + 30 * 86_400))?.hasPrefix("0001-") == true)
    for text in ["2026-02-30", "2026-13-01", "26-11-23", "2026-1-23", "2026-11-2x", ""] {
      #expect(days.date(text, hour: 12) == nil, "\(text)")
    }
  }
}
