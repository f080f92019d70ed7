import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// How JSON-stored dates under a profile's date key (Flashcard Quiz's `createdAt`) become note
/// ids: each value that names a date keeps it, whatever the others hold, and one that names none
/// is said.
@Suite("JSON dates read into note ids")
struct JSONDateReadingTests {
  /// A Flashcard Quiz file of three words whose second `createdAt` is `middle` (JSON text).
  private static func words(middle: String) -> String {
    """
    [{"word":"chat","definition":"cat","createdAt":"2023-01-01T10:00:00.123Z","wordTypeRaw":"noun"},
    {"word":"chien","definition":"dog","createdAt":\(middle),"wordTypeRaw":"noun"},
    {"word":"oiseau","definition":"bird","createdAt":"2023-01-01T10:00:00Z","wordTypeRaw":"noun"}]
    """
  }

  /// The deck made from `text` written as a file, and its warnings (reading and mapping).
  private static func deck(of text: String) throws -> (deck: DeckCollection, warnings: [Diagnostic]) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "words.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let content = try AppStorageReader().read(path: path)
    let (deck, warnings) = try AppRecordMapping.collection(from: content.records, file: path)
    return (deck, content.warnings + warnings)
  }

  /// The note id of the word `word` in `deck`.
  private static func noteID(of word: String, in deck: DeckCollection) -> Int64? {
    deck.notes.first { $0.fields.first == word }?.id
  }

  @Test(
    "a createdAt that names no date costs the others nothing, and is said naming its record and key",
    arguments: [
      "\"garbage\"", "true", "[1]", "1e300", "1e308", "9.3e18", "-9.3e18", "1e19", "9223372036854775807",
      "-9223372036854775808", "\"2023-01-01\"", "\"2023-02-30T10:00:00Z\"", "\"2023-01-01T24:00:00Z\"",
      "\"-0001-01-01T00:00:00Z\"", "\"+275760-09-13T00:00:00Z\"",
    ])
  func undatableValue(middle: String) throws {
    let (deck, warnings) = try Self.deck(of: Self.words(middle: middle))
    // ISO 8601 with milliseconds (JavaScript's toISOString) is a date like the whole second.
    #expect(Self.noteID(of: "chat", in: deck) == 1_672_567_200_123)
    #expect(Self.noteID(of: "oiseau", in: deck) == 1_672_567_200_000)
    let undated = warnings.filter { $0.category == "date-unreadable" }
    #expect(undated.count == 1)
    let message = try #require(undated.first?.message)
    #expect(
      message.hasPrefix(
        "1 record has a createdAt that names no date (read as iso8601-fractional, the encoding of the file's dates): record 2 (createdAt "
      ))
    #expect(
      message.hasSuffix(
        "; its note gets an id of its own, not from the date, and converting back writes that id's date as createdAt; if the dates are in another encoding, name it with AppStorageOptions.jsonDates"
      ))
    #expect(!warnings.contains { $0.category == "date-precision" })
  }

  @Test("ISO 8601 dates with an offset, a fraction or the year 0 are dates; null is no value")
  func validISOText() throws {
    for (middle, expected) in [
      ("\"2023-01-01T00:00:00+02:00\"", Int64(1_672_524_000_000)),
      ("\"2023-01-01T00:00:00.5-01:30\"", Int64(1_672_536_600_500)),
      ("\"0000-01-01T00:00:00Z\"", Int64(-62_167_219_200_000)),
    ] {
      let (deck, warnings) = try Self.deck(of: Self.words(middle: middle))
      #expect(Self.noteID(of: "chien", in: deck) == expected, "\(middle)")
      #expect(Self.noteID(of: "chat", in: deck) == 1_672_567_200_123)
      #expect(warnings.isEmpty, "\(middle): \(warnings)")
    }
    // A null date is a missing one: the note's id is counted, as for a card without the key.
    let (deck, warnings) = try Self.deck(of: Self.words(middle: "null"))
    #expect(Self.noteID(of: "chat", in: deck) == 1_672_567_200_123)
    #expect(warnings.isEmpty)
  }

  @Test("a deck made from a file of ISO 8601 dates goes back into it as the same text")
  func writtenBackAsTheFileHasThem() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "words.json")
    let text = Self.words(middle: "\"2023-01-01T00:00:00+02:00\"")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let content = try AppStorageReader().read(path: path)
    #expect(content.records.jsonDates == .iso8601Fractional)
    let (deck, _) = try AppRecordMapping.collection(from: content.records, file: path)
    let (records, _) = try AppRecordMapping.records(from: deck, profile: .named(.flashcardQuiz))
    let report = try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
    #expect(report.merge.unchanged == 3)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
  }

  @Test("JSONDateEncoding reads a date only where it is one, and types it only where it writes back the same")
  func encodingRules() {
    let iso = JSONDateEncoding.iso8601
    #expect(iso.decode(.string("2023-01-01T10:00:00Z")) != nil)
    #expect(iso.decode(.string("2023-01-01T10:00:00.123Z")) == nil)
    // With fractions, a fraction is written with the digits that give the date back: `.123` is
    // typed, `.500` (written `.5`) stays the text it is.
    let fractional = JSONDateEncoding.iso8601Fractional
    #expect(fractional.decode(.string("2023-01-01T10:00:00.123Z")) != nil)
    #expect(fractional.decode(.string("2023-01-01T10:00:00.500Z")) == nil)
    #expect(fractional.decode(.string("2023-01-01T10:00:00Z")) != nil)
    #expect(
      JSONDateEncoding.guess(from: [.string("2023-01-01T10:00:00Z"), .string("2023-01-01T10:00:00.5Z")]) == fractional)
    #expect(JSONDateEncoding.guess(forOne: .string("2023-01-01T10:00:00.5Z")) == .iso8601)
    let milliseconds = iso.date(in: .string("2023-01-01T10:00:00.123Z")).map { $0.timeIntervalSince1970 * 1000 }
    #expect(milliseconds.map { abs($0 - 1_672_567_200_123) < 0.001 } == true)
    #expect(iso.date(in: .string("2023-01-01T10:00:00")) == nil)
    #expect(JSONDateEncoding.millisecondsSince1970.date(in: .double(1e300)) == nil)
    #expect(JSONDateEncoding.guess(forOne: .double(1e300)) == nil)
    #expect(JSONDateEncoding.guess(forOne: .string("garbage")) == nil)
    #expect(JSONDateEncoding.guess(from: [.string("2023-01-01T10:00:00Z"), .bool(true), .double(1e300)]) == .iso8601)
  }
}
