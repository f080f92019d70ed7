import DeckCore
import DeckIO
import Foundation
import Testing

@testable import DeckCSV

/// A spreadsheet's scheduling columns (`due`, `interval`, `ease`, `reviews`, `lapses`): what the
/// reader makes of them, what it refuses, and what the writer puts in them. What Anki makes of
/// both is judged in `Tests/deckportTests/CSVScheduleAnkiTests.swift`.
@Suite("CSV: a schedule carried through a spreadsheet")
struct CSVScheduleTests {
  static let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? TimeZone(secondsFromGMT: 32_400) ?? .current

  static func read(_ text: String, zone: TimeZone = tokyo) throws -> DeckCollection {
    let options = CSVOptions(hasHeaderRow: true, timeZone: zone)
    return try CSVReader(options: options).read(data: Data(text.utf8), name: "sheet.csv").0
  }

  /// The calendar day (in `zone`) of the Anki day a card is due on.
  /// `message` with the card id it names as `N`: the reader numbers a sheet's cards anew.
  static func withoutCardID(_ message: String) -> String {
    message.replacing(/card \d+ \(/, with: "card N (")
  }

  static func dueDay(_ card: Card, in collection: DeckCollection, zone: TimeZone = tokyo) -> String? {
    guard case .day(let start) = collection.due(of: card, timeZone: zone) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day], from: start)
    guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
    return "\(year)-\(month)-\(day)"
  }

  @Test("a row with a due date makes every card of its note a card under review, due that day in the sheet's zone")
  func reads() throws {
    let collection = try Self.read(
      """
      Front,Back,Due,Interval,Ease,Reviews,Lapses
      le chat,the cat,2027-01-15,12,2.3,5,1
      la maison,the house,,,,,
      manger,to eat,2026-11-20,4,250%,,
      """)
    #expect(collection.notes.count == 3)
    let cards = collection.cards
    #expect(cards.count == 3)
    let chat = try #require(cards.first { $0.noteID == collection.notes[0].id })
    #expect(chat.scheduling.type == .review && chat.scheduling.queue == .review)
    #expect(
      [chat.scheduling.interval, chat.scheduling.easeFactor, chat.scheduling.reviews, chat.scheduling.lapses]
        == [12, 2_300, 5, 1] as [Int])
    #expect(Self.dueDay(chat, in: collection) == "2027-1-15")
    let maison = try #require(cards.first { $0.noteID == collection.notes[1].id })
    #expect(maison.scheduling.type == .new && maison.scheduling.queue == .new)
    let manger = try #require(cards.first { $0.noteID == collection.notes[2].id })
    #expect(
      [manger.scheduling.interval, manger.scheduling.easeFactor, manger.scheduling.reviews, manger.scheduling.lapses]
        == [4, 2_500, 1, 0] as [Int])
    #expect(Self.dueDay(manger, in: collection) == "2026-11-20")
    // The collection's days start at 4 a.m. in the sheet's zone, on the earliest day it names
    // (or before, on the day of the file's time).
    let start = Date(timeIntervalSince1970: TimeInterval(collection.creationTime))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = Self.tokyo
    #expect(calendar.component(.hour, from: start) == 4)
    #expect(manger.scheduling.due >= 0)

    // The same sheet read in another zone names the same calendar days.
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    let there = try Self.read(
      "Front,Back,Due,Interval\nle chat,the cat,2027-01-15,12\n", zone: newYork)
    #expect(Self.dueDay(there.cards[0], in: there, zone: newYork) == "2027-1-15")
  }

  @Test("every card of a note gets the row's schedule")
  func everyCardOfTheNote() throws {
    let collection = try Self.read(
      "Front,Back,NoteType,Due,Interval\nle chat,the cat,Basic (and reversed card),2027-01-15,12\n")
    #expect(collection.cards.count == 2)
    #expect(collection.cards.allSatisfy { $0.scheduling.type == .review && $0.scheduling.interval == 12 })
    #expect(Set(collection.cards.map(\.scheduling.due)).count == 1)
  }

  @Test("a suspended column suspends the cards of a row's note, new or under review; needs no due column")
  func suspension() throws {
    let collection = try Self.read(
      """
      Front,Back,Due,Interval,Suspended
      le chat,the cat,2027-01-15,12,yes
      la maison,the house,,,TRUE
      manger,to eat,,,no
      boire,to drink,,,
      """)
    let queues = collection.notes.map { note in collection.cards.first { $0.noteID == note.id }?.scheduling.queue }
    #expect(queues == [.suspended, .suspended, .new, .new])
    #expect(collection.cards[0].scheduling.type == .review)
    #expect(collection.cards[1].scheduling.type == .new)

    // Written with a suspended column only: the suspensions are kept, the schedule is not.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("csv-suspended-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let path = scratch.appendingPathComponent("out.csv").path
    let options = CSVOptions(columns: try ColumnMapping(parsing: "front,back,suspended"), timeZone: Self.tokyo)
    let warnings = try CSVWriter(options: options).write(collection, to: path)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == "le chat,the cat,yes\nla maison,the house,yes\nmanger,to eat,\nboire,to drink,\n")
    #expect(
      warnings.first { $0.category == "csv-scheduling" }.map { Self.withoutCardID($0.message) }
        == "the scheduling of 1 of 4 cards is not kept (due dates, intervals, ease); the first is card N (note GUID 'omHyGxZp]Y', card 1 of its note): a row's suspended column holds whether its note's first card is suspended, and the sheet's reader gives it to every card of the note"
    )

    let alone = try Self.read("Front,Back,Suspended\nle chat,the cat,1\n")
    #expect(alone.cards[0].scheduling == CardScheduling(type: .new, queue: .suspended, due: 1))
    #expect(alone.creationTime == 0)
    let error = try #require(throws: DeckError.self) { try Self.read("Front,Back,Suspended\nle chat,the cat,maybe\n") }
    #expect(
      error.description
        == "sheet.csv:2:17: the suspended cell holds 'maybe'; write yes or no (or leave it empty for no)")
  }

  @Test("a sheet without scheduling columns is read as before: new cards, no creation time")
  func withoutColumns() throws {
    let collection = try Self.read("Front,Back\nle chat,the cat\n")
    #expect(collection.cards[0].scheduling == CardScheduling(due: 1))
    #expect(collection.creationTime == 0)
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var row: String
    var message: String
    var testDescription: String { row }
  }

  static let refusals: [Refusal] = [
    Refusal(
      row: "a,b,2026-02-30,3",
      message:
        "sheet.csv:2:5: the due date '2026-02-30' is not a calendar day written as YYYY-MM-DD (such as 2026-12-24)"),
    Refusal(
      row: "a,b,12/24/2026,3",
      message:
        "sheet.csv:2:5: the due date '12/24/2026' is not a calendar day written as YYYY-MM-DD (such as 2026-12-24)"),
    Refusal(
      row: "a,b,2026-12-01,",
      message:
        "sheet.csv:2:5: the card due on 2026-12-01 has no interval: give the days it was last given in the interval column"
    ),
    Refusal(
      row: "a,b,,5",
      message:
        "sheet.csv:2:6: the interval column holds '5' but the due column is empty: a card under review needs the day it is due (leave every scheduling cell empty for new cards)"
    ),
    Refusal(
      row: "a,b,2026-12-01,3.5",
      message: "sheet.csv:2:16: the interval '3.5' is not a whole number"),
    Refusal(
      row: "a,b,2026-12-01,3,fast",
      message: "sheet.csv:2:18: the ease 'fast' is not a number such as 2.5 or 250%"),
    Refusal(
      row: "a,b,2026-12-01,-1",
      message:
        "sheet.csv:2: Anki cannot hold the schedule of this row: an interval of -1 days (Anki's run from 0 to 36,500)"),
    Refusal(
      row: "a,b,2026-12-01,3,1.2",
      message: "sheet.csv:2: Anki cannot hold the schedule of this row: an ease of 1.2 (Anki's run from 1.3 to 10)"),
    Refusal(
      row: "a,b,0000-06-01,3",
      message:
        "sheet.csv:2:5: the due date '0000-06-01' is not a calendar day written as YYYY-MM-DD (such as 2026-12-24)"),
    Refusal(
      row: "a,b,2026-12-01,3,,2,3",
      message: "sheet.csv:2: Anki cannot hold the schedule of this row: 3 lapses after 2 reviews"),
  ]

  @Test("a cell that is not what its column holds stops the read at its line and column", arguments: refusals)
  func refused(_ refusal: Refusal) throws {
    let error = try #require(throws: DeckError.self) {
      _ = try Self.read("Front,Back,Due,Interval,Ease,Reviews,Lapses\n" + refusal.row + "\n")
    }
    #expect(error.kind == .corrupt)
    #expect(error.description == refusal.message)
  }

  @Test("a scheduling column without a due column, or named twice, is refused")
  func badColumnLists() {
    #expect(
      throws: ColumnMapping.Problem(
        description: "the interval column needs a due column: a card's schedule starts with the day it is due")
    ) { try ColumnMapping(parsing: "front,back,interval") }
    #expect(throws: ColumnMapping.Problem(description: "the due column is named twice")) {
      try ColumnMapping(parsing: "front,due,back,Due")
    }
    #expect(
      (try? ColumnMapping(parsing: "front,back,due,Interval,EASE,reviews,lapses"))?.schedulingColumns
        == [.due: 2, .interval: 3, .ease: 4, .reviews: 5, .lapses: 6])
  }

  @Test("eases are written as Anki's factor in thousandths reads")
  func easeText() {
    #expect(CSVScheduleCells.easeText(2_500) == "2.5")
    #expect(CSVScheduleCells.easeText(2_650) == "2.65")
    #expect(CSVScheduleCells.easeText(1_300) == "1.3")
    #expect(CSVScheduleCells.easeText(2_005) == "2.005")
    #expect(CSVScheduleCells.easeText(3_000) == "3")
    #expect(CSVScheduleCells.easeText(0) == "0")
    #expect(CSVScheduleCells.easeText(-2_500) == "-2500")
  }

  @Test(
    "written with scheduling columns, a note's first card under review gives its row's schedule; the rest is reported")
  func writes() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("csv-schedule-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let source = try Self.read(
      """
      Front,Back,NoteType,Due,Interval,Ease,Reviews,Lapses
      le chat,the cat,Basic (and reversed card),2027-01-15,12,2.3,5,1
      la maison,the house,Basic,,,,,
      """)
    var collection = source
    // The reversed card of the first note is suspended: the sheet cannot say so, as it holds the
    // first card's. The second note's only card is suspended: its row says so.
    let reversed = try #require(collection.cards.firstIndex { $0.templateOrdinal == 1 })
    collection.cards[reversed].scheduling.queue = .suspended
    let maison = try #require(collection.cards.firstIndex { $0.noteID == collection.notes[1].id })
    collection.cards[maison].scheduling.queue = .suspended
    let path = scratch.appendingPathComponent("out.csv").path
    let options = CSVOptions(
      hasHeaderRow: true,
      columns: try ColumnMapping(parsing: "front,back,due,interval,ease,reviews,lapses,suspended"),
      timeZone: Self.tokyo)
    let warnings = try CSVWriter(options: options).write(collection, to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      text
        == "front,back,due,interval,ease,reviews,lapses,suspended\nle chat,the cat,2027-01-15,12,2.3,5,1,\nla maison,the house,,,,,,yes\n"
    )
    let scheduling = warnings.filter { $0.category == "csv-scheduling" }
    #expect(scheduling.count == 1)
    #expect(
      scheduling.first.map { Self.withoutCardID($0.message) }
        == "the scheduling of 1 of 3 cards is not kept (the schedules of a note's other cards, which take its first card's); the first is card N (note GUID 'brw*YyqbdW', card 2 of its note): a row's due, interval, ease, reviews, lapses and suspended columns hold the schedule of its note's first card when it is under review, and whether it is suspended, and the sheet's reader gives it to every card of the note"
    )

    // Read back: the same day, interval, ease and counts.
    let back = try CSVReader(options: CSVOptions(hasHeaderRow: true, timeZone: Self.tokyo)).read(path: path).0
    let first = try #require(back.cards.first { $0.noteID == back.notes[0].id })
    #expect(Self.dueDay(first, in: back) == "2027-1-15")
    #expect(
      [first.scheduling.interval, first.scheduling.easeFactor, first.scheduling.reviews] == [12, 2_300, 5] as [Int])
    #expect(back.cards.map(\.scheduling.queue) == [.review, .suspended])
  }

  @Test("a card due on the first day of the year 1 is read and written back as that day, in any time zone")
  func dueInTheYearOne() throws {
    let scratch = try TemporaryDirectory()
    for zone in [Self.tokyo, TimeZone(identifier: "Pacific/Kiritimati"), TimeZone(identifier: "Pacific/Pago_Pago")] {
      let zone = try #require(zone)
      let collection = try Self.read("Front,Back,Due,Interval\nle chat,the cat,0001-01-01,3\n", zone: zone)
      #expect(Self.dueDay(collection.cards[0], in: collection, zone: zone) == "1-1-1")
      let path = scratch.path(for: "year-one.csv")
      let options = CSVOptions(
        hasHeaderRow: true, columns: try ColumnMapping(parsing: "front,back,due,interval"), timeZone: zone)
      _ = try CSVWriter(options: options).write(collection, to: path)
      #expect(
        try String(contentsOfFile: path, encoding: .utf8) == "front,back,due,interval\nle chat,the cat,0001-01-01,3\n")
    }
  }

  @Test(
    "a card due before the year 1 leaves its row's scheduling cells empty, reported, not written as a year of our era")
  func dueBeforeTheYearOne() throws {
    let scratch = try TemporaryDirectory()
    var collection = try Self.read(
      """
      Front,Back,Due,Interval
      le chat,the cat,2027-01-15,12
      """)
    // About 2,200 years before the collection's first day: the year 160 or so before our era,
    // within the ±1e11 seconds a due date may be, which the calendar names as the year 160.
    collection.cards[0].scheduling.due = -800_000
    guard case .day(let start) = collection.due(of: collection.cards[0], timeZone: Self.tokyo) else {
      Issue.record("the card is due by day")
      return
    }
    // Before 1 January of the year 1 (UTC).
    #expect(start.timeIntervalSince1970 < -62_135_596_800 && abs(start.timeIntervalSince1970) < 1e11)
    let path = scratch.path(for: "out.csv")
    let options = CSVOptions(
      hasHeaderRow: true, columns: try ColumnMapping(parsing: "front,back,due,interval"), timeZone: Self.tokyo)
    let warnings = try CSVWriter(options: options).write(collection, to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "front,back,due,interval\nle chat,the cat,,\n")
    #expect(
      warnings.contains { $0.category == "csv-scheduling" && $0.message.hasPrefix("the scheduling of 1 of 1 card") })
  }

  @Test("a card of the largest ordinal a file may hold is named in the scheduling warning without a trap")
  func largestOrdinalNamed() throws {
    var collection = try Self.read(
      """
      Front,Back,Due,Interval
      le chat,the cat,2027-01-15,12
      """)
    collection.cards[0].templateOrdinal = Int.max
    let scratch = try TemporaryDirectory()
    let options = CSVOptions(columns: try ColumnMapping(parsing: "front,back"), timeZone: Self.tokyo)
    let warnings = try CSVWriter(options: options).write(collection, to: scratch.path(for: "out.csv"))
    let message = try #require(warnings.first { $0.category == "csv-scheduling" }?.message)
    #expect(message.contains("card 9223372036854775808 of its note"), "\(message)")
  }
}
