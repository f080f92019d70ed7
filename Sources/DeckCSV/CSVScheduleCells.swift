import DeckCore
import Foundation

/// The scheduling columns of a spreadsheet (``ColumnMapping/SchedulingColumn``), read into a
/// card's schedule and written from one: a due day as `YYYY-MM-DD` in the sheet's time zone, an
/// interval in days, an ease as `2.5` (or `250%`), review and lapse counts, and whether the cards
/// are suspended.
enum CSVScheduleCells {
  /// The schedule a row's cells state, or nil when every scheduling cell is empty (new cards).
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at the cell's line and column when a cell is not what
  ///   its column holds, when a due date has no interval or another cell no due date, or when
  ///   Anki could not hold the schedule.
  static func schedule(
    in fields: [CSVTokenizer.Field], columns: [ColumnMapping.SchedulingColumn: Int], days: CalendarDays,
    location: SourceLocation, line: Int
  ) throws -> ReviewSchedule? {
    var cells: [ColumnMapping.SchedulingColumn: CSVTokenizer.Field] = [:]
    for (part, column) in columns where part != .suspended && column < fields.count {
      let field = fields[column]
      if !field.text.trimmingASCIIWhitespace().isEmpty { cells[part] = field }
    }
    func fail(_ part: ColumnMapping.SchedulingColumn?, _ message: String) -> DeckError {
      var place = location
      place.line = cells[part ?? .due]?.line ?? line
      place.column = part.flatMap { cells[$0]?.column }
      return DeckError(.corrupt, at: place, message)
    }
    guard let dueCell = cells[.due] else {
      guard let (part, cell) = cells.min(by: { $0.value.column < $1.value.column }) else { return nil }
      throw fail(
        part,
        "the \(part.rawValue) column holds '\(CSVExcerpt.shortened(cell.text))' but the due column is empty: a card under review needs the day it is due (leave every scheduling cell empty for new cards)"
      )
    }
    let dueText = dueCell.text.trimmingASCIIWhitespace()
    // Noon: a moment inside the Anki day of that date.
    guard let due = days.date(dueText, hour: 12) else {
      throw fail(
        .due,
        "the due date '\(CSVExcerpt.shortened(dueText))' is not a calendar day written as YYYY-MM-DD (such as 2026-12-24)"
      )
    }
    guard let intervalCell = cells[.interval] else {
      throw fail(
        .due, "the card due on \(dueText) has no interval: give the days it was last given in the interval column")
    }
    func whole(_ part: ColumnMapping.SchedulingColumn, _ cell: CSVTokenizer.Field?, default value: Int) throws -> Int {
      guard let cell else { return value }
      let text = cell.text.trimmingASCIIWhitespace()
      guard let number = Int(text) else {
        throw fail(part, "the \(part.rawValue) '\(CSVExcerpt.shortened(text))' is not a whole number")
      }
      return number
    }
    let schedule = ReviewSchedule(
      due: due, intervalDays: try whole(.interval, intervalCell, default: 0),
      ease: try ease(cells[.ease], fail: fail), reviews: try whole(.reviews, cells[.reviews], default: 1),
      lapses: try whole(.lapses, cells[.lapses], default: 0))
    if let problem = schedule.problem {
      throw fail(nil, "Anki cannot hold the schedule of this row: \(problem)")
    }
    return schedule
  }

  /// Whether a row's `suspended` cell (at `column`, if the sheet has one) says its cards are
  /// suspended: `yes`, `true` or `1` (any case) for yes; `no`, `false`, `0` or empty for no.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at the cell for any other text.
  static func isSuspended(in fields: [CSVTokenizer.Field], column: Int?, location: SourceLocation) throws -> Bool {
    guard let column, column < fields.count else { return false }
    let field = fields[column]
    switch field.text.trimmingASCIIWhitespace().lowercased() {
    case "yes", "true", "1": return true
    case "", "no", "false", "0": return false
    default:
      var place = location
      place.line = field.line
      place.column = field.column
      throw DeckError(
        .corrupt, at: place,
        "the suspended cell holds '\(CSVExcerpt.shortened(field.text))'; write yes or no (or leave it empty for no)")
    }
  }

  /// The ease a cell states: `2.5`, or `250%` as Anki shows it; 2.5 for no cell.
  private static func ease(
    _ cell: CSVTokenizer.Field?, fail: (ColumnMapping.SchedulingColumn?, String) -> DeckError
  ) throws -> Double {
    guard let cell else { return 2.5 }
    let text = cell.text.trimmingASCIIWhitespace()
    let isPercent = text.hasSuffix("%")
    let digits = isPercent ? String(text.dropLast()).trimmingASCIIWhitespace() : text
    guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(digits) else {
      throw fail(.ease, "the ease '\(CSVExcerpt.shortened(text))' is not a number such as 2.5 or 250%")
    }
    return isPercent ? number / 100 : number
  }

  /// What writing many cards' scheduling cells needs, worked out once for a sheet: the
  /// collection's due dates, the days of the sheet's time zone, and the text of each due day
  /// met so far (a deck's cards fall on few days, and Foundation takes a microsecond to name one).
  final class Writing {
    private let dueDates: CardDueDates
    private let days: CalendarDays
    private var dayTexts: [Date: String?] = [:]

    init(_ collection: DeckCollection, timeZone: TimeZone) {
      dueDates = CardDueDates(of: collection, in: timeZone)
      days = CalendarDays(timeZone: timeZone)
    }

    /// The day `card` is due on, as its row's due cell states it, when a row can state its
    /// schedule: a card under review (Anki's ``CardType/review``), due by day, on a day with a
    /// `YYYY-MM-DD` (``CalendarDays/text(of:)``), with a schedule Anki holds; nil for any other
    /// card, whose row then leaves the scheduling cells empty (but ``suspendedText(of:)``).
    func writableDue(of card: Card) -> String? {
      let scheduling = card.scheduling
      guard scheduling.type == .review, case .day(let start) = dueDates.due(of: card), let dueText = text(of: start)
      else {
        return nil
      }
      let schedule = ReviewSchedule(
        due: start, intervalDays: scheduling.interval, ease: Double(scheduling.easeFactor) / 1_000,
        reviews: scheduling.reviews, lapses: scheduling.lapses)
      return schedule.problem == nil ? dueText : nil
    }

    /// The scheduling the sheet's reader gives every card of the note whose first card is
    /// `first` (its row states `first`'s schedule, ``cells(of:)``, when `keepsReview`, and
    /// whether it is suspended, ``suspendedText(of:)``, when `keepsSuspension`): `first`'s
    /// schedule when its row states one (due the same day), else a new card's. Anki's import
    /// numbers a new card anew, so a new card's `due` here means nothing.
    func readBack(ofNoteWithFirstCard first: Card, keepsReview: Bool, keepsSuspension: Bool) -> CardScheduling {
      let suspended = keepsSuspension && CSVScheduleCells.suspendedText(of: first) == "yes"
      guard keepsReview, writableDue(of: first) != nil else {
        return CardScheduling(queue: suspended ? .suspended : .new)
      }
      let scheduling = first.scheduling
      let schedule = ReviewSchedule(
        due: Date(timeIntervalSince1970: 0), intervalDays: scheduling.interval,
        ease: Double(scheduling.easeFactor) / 1_000, reviews: scheduling.reviews, lapses: scheduling.lapses)
      var readBack = schedule.scheduling(creation: Date(timeIntervalSince1970: 0), suspended: suspended)
      // The due cell names the day the card goes back to when a filtered deck borrows it.
      readBack.due = scheduling.homeDue
      return readBack
    }

    /// `YYYY-MM-DD` of the day `start` falls on, if it has one, named once per day.
    private func text(of start: Date) -> String? {
      if let known = dayTexts[start] { return known }
      let text = days.text(of: start)
      dayTexts[start] = text
      return text
    }

    /// The cells that state `card`'s schedule, by column, when a row can state it
    /// (``writableDue(of:)``); nil otherwise.
    func cells(of card: Card) -> [ColumnMapping.SchedulingColumn: String]? {
      guard let dueText = writableDue(of: card) else { return nil }
      let scheduling = card.scheduling
      return [
        .due: dueText, .interval: String(scheduling.interval), .ease: CSVScheduleCells.easeText(scheduling.easeFactor),
        .reviews: String(scheduling.reviews), .lapses: String(scheduling.lapses),
      ]
    }
  }

  /// The `suspended` cell of `card`'s row: `yes` when it is suspended, else empty.
  static func suspendedText(of card: Card) -> String {
    card.scheduling.queue == .suspended ? "yes" : ""
  }

  /// An ease factor in thousandths (Anki's `factor`) as a decimal number: 2500 as `2.5`, 2650 as
  /// `2.65`, 1300 as `1.3` (a factor under 1 as its digits: no ease Anki holds is).
  static func easeText(_ factor: Int) -> String {
    guard factor > 0 else { return String(factor) }
    var text = "\(factor / 1_000)"
    var fraction = factor % 1_000
    guard fraction != 0 else { return text }
    text += "."
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let padded = String(fraction)
    return text + String(repeating: "0", count: digits - padded.count) + padded
  }
}
