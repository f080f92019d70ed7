import DeckCSV
import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// A schedule carried through a spreadsheet (user complaint 12 in `shared/docs/peers.md`: "no
/// way to carry a schedule through CSV"), judged by the real Anki backend both ways: a sheet's
/// due dates, intervals, eases and counts arrive in Anki as it schedules them
/// (`fixtures/anki_import_sequence.py`), and the sheet written from a deck Anki scheduled names
/// the days Anki's own card info gives (`fixtures/anki_due_dates.py`).
@Suite("CSV scheduling columns, judged by the real Anki backend", .enabled(if: PythonScript.hasAnkiBackend))
struct CSVScheduleAnkiTests {
  static let columns = "guid,front,back,due,interval,ease,reviews,lapses,suspended"

  /// The calendar day, in `zone`, of the Anki day (from 4 a.m.) `moment` falls in, as `YYYY-MM-DD`.
  static func ankiDay(of moment: Date, in zone: TimeZone, plus days: Int = 0) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let day = calendar.date(byAdding: .day, value: days, to: moment.addingTimeInterval(-4 * 3_600)) ?? moment
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    return String(format: "%04ld-%02ld-%02ld", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  @Test(
    "a sheet's schedule arrives in Anki: each card due on the day the sheet names, with its interval, ease and counts")
  func sheetIntoAnki() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let now = Date()
    let zone = TimeZone.current
    let sheet = """
      \(Self.columns)
      g-soon,ir,to go,\(Self.ankiDay(of: now, in: zone, plus: 10)),12,2.3,5,1,
      g-overdue,ser,to be,\(Self.ankiDay(of: now, in: zone, plus: -3)),4,250%,,,no
      g-today,estar,to be,\(Self.ankiDay(of: now, in: zone)),30,2.7,9,0,
      g-new,hacer,to do,,,,,,
      g-suspended,tener,to have,\(Self.ankiDay(of: now, in: zone, plus: 1)),20,2.5,3,0,yes
      g-suspended-new,poder,can,,,,,,yes
      """
    let input = scratch.path(for: "progress.csv")
    try Data(sheet.utf8).write(to: URL(filePath: input))
    let package = scratch.path(for: "progress.apkg")
    var options = ConversionOptions(to: .apkg)
    options.formats[CSVOptions.self] = CSVOptions(hasHeaderRow: true)
    let report = try await DeckConverter().convert(URL(filePath: input), to: URL(filePath: package), options: options)
    #expect(report.warnings.isEmpty, "\(report.warnings)")

    let anki = try DeckBuilderAnkiTests.judge([package])
    #expect(anki.imports == [.init(new: 6, updated: 0, duplicate: 0)])
    func card(_ guid: String) throws -> AnkiTruth.Card {
      try #require(anki.view.cards.first { $0.noteGuid == guid }, "\(guid)")
    }
    let soon = try card("g-soon")
    #expect(
      [soon.type, soon.queue, soon.ivl, soon.factor, soon.reps, soon.lapses] == [2, 2, 12, 2_300, 5, 1] as [Int])
    #expect(soon.due == anki.today + 10)
    let overdue = try card("g-overdue")
    #expect(
      [overdue.type, overdue.queue, overdue.ivl, overdue.factor, overdue.reps, overdue.lapses]
        == [2, 2, 4, 2_500, 1, 0] as [Int])
    #expect(overdue.due == anki.today - 3)
    let today = try card("g-today")
    #expect([today.ivl, today.factor, today.reps] == [30, 2_700, 9] as [Int])
    #expect(today.due == anki.today)
    let new = try card("g-new")
    #expect([new.type, new.queue] == [0, 0] as [Int])
    let suspended = try card("g-suspended")
    #expect([suspended.type, suspended.queue, suspended.ivl, suspended.reps] == [2, -1, 20, 3] as [Int])
    #expect(suspended.due == anki.today + 1)
    let suspendedNew = try card("g-suspended-new")
    #expect([suspendedNew.type, suspendedNew.queue] == [0, -1] as [Int])
  }

  @Test(
    "a sheet written from a deck Anki scheduled names the day Anki's card info gives each card under review, and its interval, ease and counts",
    arguments: ["UTC", "Asia/Tokyo", "America/New_York"])
  func sheetFromAnki(zone: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = try PythonScript.runWithAnki("anki_due_dates.py", [scratch.path, zone])
    let anki = try JSONDecoder().decode(CardDueTests.AnkiDueDates.self, from: Data(output.utf8))
    let timeZone = try #require(TimeZone(identifier: zone))

    for package in ["collection.colpkg", "deck.apkg"] {
      let loaded = try DeckLoader().load(path: scratch.path(for: package))
      let path = scratch.path(for: "\(package).csv")
      let options = CSVOptions(
        hasHeaderRow: true,
        columns: try ColumnMapping(parsing: "front,back,due,interval,ease,reviews,lapses,suspended"),
        timeZone: timeZone)
      let warnings = try CSVWriter(options: options).write(loaded.collection, to: path)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let rows = text.split(separator: "\n").dropFirst()
        .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
      #expect(rows.count == anki.cards.count)
      var written = 0
      for row in rows {
        let front = row[0]
        let truth = try #require(anki.cards[front], "\(package) \(front)")
        // Anki's card info gives a card due by day a moment within that day.
        #expect(row[7] == (truth.queue == -1 ? "yes" : ""), "\(package) \(front)")
        guard truth.type == 2, let dueDate = truth.dueDate else {
          let cells = row[2...6]
          #expect(cells.allSatisfy { $0.isEmpty }, "\(package) \(front): \(row)")
          continue
        }
        written += 1
        let expectedDay = Self.ankiDay(of: Date(timeIntervalSince1970: TimeInterval(dueDate)), in: timeZone)
        #expect(row[2] == expectedDay, "\(package) \(front)")
        #expect(Int(row[3]) == truth.ivl, "\(package) \(front)")
        #expect(Double(row[4]).map { Int(($0 * 1_000).rounded()) } == truth.factor, "\(package) \(front)")
        #expect(Int(row[5]) == truth.reps, "\(package) \(front)")
        #expect(Int(row[6]) == truth.lapses, "\(package) \(front)")
      }
      // review, today, suspended and filtered are under review.
      #expect(written == 4, "\(package)")
      // What the sheet cannot say (learning, buried, in a filtered deck, relearning) is reported.
      let scheduling = warnings.filter { $0.category == "csv-scheduling" }.map(\.message)
      #expect(scheduling.count == 1, "\(scheduling)")
      #expect(scheduling.first?.hasPrefix("the scheduling of 4 of 8 cards is not kept") == true, "\(scheduling)")
      // Anki keeps each card's original position and last review time beside its schedule.
      #expect(
        scheduling.first?.hasSuffix("of 8 cards (an original position, the last review's time, FSRS memory state)")
          == true)
    }
  }
}
