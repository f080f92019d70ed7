import Foundation
import Testing

@testable import DeckCore

/// The UTC days and times messages name. The expected texts are Python's
/// `datetime.fromtimestamp(s, datetime.UTC)` of each value, written here as data.
@Suite("CalendarDay: UTC days and times in messages")
struct CalendarDayTests {
  @Test(
    "a time as YYYY-MM-DD HH:MM:SS UTC",
    arguments: [
      (Int64(0), "1970-01-01 00:00:00 UTC"), (1_795_331_276, "2026-11-22 07:07:56 UTC"),
      (-1, "1969-12-31 23:59:59 UTC"), (-86_401, "1969-12-30 23:59:59 UTC"),
    ])
  func time(seconds: Int64, text: String) {
    #expect(CalendarDay.utcText(ofSeconds: seconds, withTime: true) == text)
    #expect(CalendarDay.utcText(ofSeconds: seconds) == String(text.prefix(10)))
  }

  @Test("a time beyond any calendar is named by its year, without a trap at either end")
  func outOfRange() {
    // anki-apkg-export's note times, in milliseconds where seconds belong.
    #expect(CalendarDay.utcText(ofSeconds: 1_482_680_798_652) == "a day in the year 48954")
    #expect(CalendarDay.utcText(ofSeconds: .max, withTime: true).hasPrefix("a day in the year "))
    #expect(CalendarDay.utcText(ofSeconds: .min, withTime: true).hasPrefix("a day in the year -"))
  }
}
