import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

@Suite("Profiles")
struct ProfileTests {
  @Test(
    "each seed shape is detected; other shapes are generic",
    arguments: [
      (["id", "prompt", "answer"], "flashzilla"),
      (["prompt", "answer"], "flashzilla"),
      (["keyword", "story", "image"], "neomnemo"),
      (["keyword", "story"], "neomnemo"),
      (["keyword", "story", "image", "notes"], "generic"),
      (["word", "definition", "createdAt", "wordTypeRaw"], "flashcard-quiz"),
      (["WORD", "definition", "createdat"], "flashcard-quiz"),
      (["title", "text"], "idealic"),
      (["TITLE", "text"], "idealic"),
      (["title"], "generic"),
      (["prompt", "answer", "hint"], "generic"),
      (["text"], "generic"),
    ])
  func detection(keys: [String], expected: String) {
    let record = AppRecord(keys.map { ($0, AppValue.string("x")) })
    #expect(AppRecordProfile.detect(in: [record])?.id ?? "generic" == expected)
  }

  @Test("typing converts only what converts back exactly")
  func typing() {
    let records = AppRecords(
      name: "Cards",
      records: [
        AppRecord([
          ("id", .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")), ("prompt", .string("a")), ("answer", .string("b")),
        ]),
        AppRecord([
          ("id", .string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f")), ("prompt", .string("a")), ("answer", .string("b")),
        ]),
      ])
    let typed = AppRecordProfile.flashzilla.apply(to: records)
    #expect(typed.records[0]["id"] == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()))
    #expect(typed.records[1]["id"] == .string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
    #expect(typed.shape.field("id")?.type == .any)
    #expect(typed.profile == .flashzilla)
  }

  @Test(
    "dates: the encoding is guessed from the values' range, and typing is exact",
    arguments: [
      (AppValue.integer(700_000_000), JSONDateEncoding.secondsSince2001, 700_000_000.0),
      (AppValue.double(700_000_000.5), .secondsSince2001, 700_000_000.5),
      (AppValue.integer(1_678_307_200), .secondsSince1970, 700_000_000.0),
      (AppValue.integer(1_678_307_200_123), .millisecondsSince1970, 700_000_000.123),
      (AppValue.string("2023-03-08T20:26:40Z"), .iso8601, 700_000_000.0),
    ])
  func dates(raw: AppValue, encoding: JSONDateEncoding, seconds: Double) {
    let records = AppRecords(
      name: "Flashcards",
      records: [AppRecord([("word", .string("w")), ("definition", .string("d")), ("createdAt", raw)])])
    let typed = AppRecordProfile.flashcardQuiz.apply(to: records)
    #expect(typed.jsonDates == encoding)
    guard case .date(let date)? = typed.records[0]["createdAt"] else {
      Issue.record("not a date: \(String(describing: typed.records[0]["createdAt"]))")
      return
    }
    #expect(abs(date.timeIntervalSinceReferenceDate - seconds) < 0.0005)
    #expect(encoding.encode(date) == raw || encoding == .millisecondsSince1970)
  }

  @Test("Core Data column names without case get the profile's spelling")
  func respelling() {
    let records = AppRecords(
      name: "Flashcard",
      records: [
        AppRecord([
          ("createdat", .date(Date(timeIntervalSinceReferenceDate: 1))), ("word", .string("w")),
          ("definition", .string("d")), ("wordtyperaw", .string("noun")),
        ])
      ])
    let typed = AppRecordProfile.flashcardQuiz.apply(to: records)
    #expect(typed.records[0].keys == ["createdAt", "word", "definition", "wordTypeRaw"])
    #expect(typed.shape.keys == ["createdAt", "word", "definition", "wordTypeRaw"])
  }

  @Test("records that share their profile's identity are each read, and said")
  func repeatedIdentity() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.json")
    // The second id is the first in lower case: one UUID to Flashzilla.
    try Data(
      """
      [{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","prompt":"one","answer":"1"},
      {"id":"7C1EA5A6-0D9B-4B74-A530-13251F4943D8","prompt":"two","answer":"2"},
      {"id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","prompt":"three","answer":"3"},
      {"id":"7C1EA5A6-0D9B-4B74-A530-13251F4943D8","prompt":"four","answer":"4"},
      {"prompt":"five","answer":"5"},{"prompt":"six","answer":"6"}]
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let content = try AppStorageReader().read(path: path)
    #expect(content.records.records.count == 6)
    let warnings = content.warnings.filter { $0.category == "identity-repeated" }
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.message
        == "record 3 has the id 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' of record 1 (1 more record repeats an earlier one's); Flashzilla tells its records apart by id, and a migration matches records by it; each is kept as a record of its own"
    )
    // Records without the key (Flashzilla's seed shape) repeat nothing.
    let fixture = try AppStorageReader().read(path: AppFixtures.path("flashzilla-cards.json"))
    #expect(!fixture.warnings.contains { $0.category == "identity-repeated" })
  }

  @Test("dates of one file in two encodings are read in one, and said, unless the encoding is named")
  func mixedDateEncodings() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "words.json")
    try Data(
      """
      [{"word":"a","definition":"x","createdAt":1700000000,"wordTypeRaw":"noun"},
      {"word":"b","definition":"y","createdAt":1700000100,"wordTypeRaw":"noun"},
      {"word":"c","definition":"z","createdAt":720000000,"wordTypeRaw":"noun"}]
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let content = try AppStorageReader().read(path: path)
    let warnings = content.warnings.filter { $0.category == "dates-mixed" }
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.message
        == "the dates do not share one encoding: 1700000000 (record 1, createdAt) looks like seconds-since-1970; 720000000 (record 3, createdAt) looks like seconds-since-2001; all are read as seconds-since-2001, so some are far off; name the encoding with AppStorageOptions.jsonDates"
    )
    let named = try AppStorageReader().read(path: path, options: AppStorageOptions(jsonDates: .secondsSince1970))
    #expect(!named.warnings.contains { $0.category == "dates-mixed" })
    // 0, an app's "never", beside seconds since 1970 tells no encoding of its own.
    let placeholder = scratch.path(for: "never.json")
    try Data(
      """
      [{"word":"a","definition":"x","createdAt":1700000000,"wordTypeRaw":"noun"},
      {"word":"b","definition":"y","createdAt":0,"wordTypeRaw":"noun"}]
      """.utf8
    ).write(to: URL(fileURLWithPath: placeholder))
    let never = try AppStorageReader().read(path: placeholder)
    #expect(!never.warnings.contains { $0.category == "dates-mixed" })
    #expect(never.records.jsonDates == .secondsSince1970)
    #expect(never.records.records.first?["createdAt"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
    // Dates a file types itself (deckport's SQLite schema, Flashcard Quiz's records) say nothing.
    let fixture = try AppStorageReader().read(path: AppFixtures.path("flashcard-quiz.sqlite"))
    #expect(!fixture.warnings.contains { $0.category == "dates-mixed" })
  }
}
