import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@testable import DeckAppStorage

/// Values that a conversion could change without a word: numbers a Core Data Double or Float
/// attribute does not hold, fractions of a second in ISO 8601 text, numbers JSON has no text
/// for, millisecond dates going into a store, and creation dates of one millisecond.
@Suite("Value fidelity")
struct ValueFidelityTests {
  /// A column of a Core Data attribute of type `code` (500 Double, 600 Float).
  private static func column(_ key: String, code: Int64) -> CoreDataEntityLayout.Column {
    .init(
      key: key, column: "Z" + key.uppercased(), type: .double,
      attribute: .init(name: key, typeCode: code, isOptional: true, isTransient: false, allowsExternalStorage: false))
  }

  @Test("an integer a Double does not hold exactly is no Double, and the reason names it and what would be stored")
  func integerIntoDouble() throws {
    let double = Self.column("dbl", code: 500)
    #expect(
      CoreDataValueEncoding.convert(.integer(9_007_199_254_740_992), to: .double, dates: .secondsSince2001)
        == .double(9_007_199_254_740_992))
    #expect(CoreDataValueEncoding.convert(.integer(3), to: .double, dates: .secondsSince2001) == .double(3))
    for number in [Int64(9_007_199_254_740_993), .max, .min + 1] {
      #expect(CoreDataValueEncoding.convert(.integer(number), to: .double, dates: .secondsSince2001) == nil)
    }
    #expect(
      CoreDataValueEncoding.precisionProblem(.integer(9_007_199_254_740_993), column: double)
        == "9007199254740993 has no Double: the attribute dbl (Double) would hold 9007199254740992; write it as text or into an integer attribute"
    )
    #expect(
      CoreDataValueEncoding.precisionProblem(.integer(.max), column: double)?.hasPrefix(
        "9223372036854775807 has no Double: the attribute dbl (Double) would hold 9223372036854775808;") == true)
    #expect(CoreDataValueEncoding.precisionProblem(.integer(12), column: double) == nil)
    // A deck's note text is read the same way.
    #expect(NoteTextTyping.value("9007199254740993", as: .double) == nil)
    #expect(NoteTextTyping.value("9007199254740992", as: .double) == .double(9_007_199_254_740_992))
  }

  @Test("a Float attribute takes what a Float holds or shows, and refuses what it would change")
  func float() throws {
    let float = Self.column("flt", code: 600)
    // What Core Data stores (a Float widened), what shows the same digits, what is no number.
    for number in [0.5, 0.3499999940395355, 0.1, 1.686418056488037, 16_777_216, -0.0, .infinity, .nan] {
      #expect(CoreDataValueEncoding.rangeProblem(.double(number), column: float) == nil, "\(number)")
    }
    #expect(
      CoreDataValueEncoding.rangeProblem(.double(16_777_217), column: float)
        == "16777217 has no Float: the attribute flt (Float, 32 bits) would hold 16777216")
    #expect(
      CoreDataValueEncoding.rangeProblem(.double(1e300), column: float)
        == "1e+300 is outside the range of the attribute flt (Float, 32 bits: up to ±3.4028235e+38)")
    #expect(CoreDataValueEncoding.rangeProblem(.double(0.1 + 1e-12), column: float) != nil)
    // A Double attribute takes any double.
    #expect(CoreDataValueEncoding.rangeProblem(.double(1e300), column: Self.column("dbl", code: 500)) == nil)
  }

  @Test(
    "ISO 8601 text keeps the digits of a fraction of a second that give the same Date back",
    arguments: [
      (700_000_000.5, "2023-03-08T20:26:40.5Z"), (700_000_000, "2023-03-08T20:26:40Z"),
      (694_260_000.123456, "2023-01-01T10:00:00.123456Z"), (694_260_000.123, "2023-01-01T10:00:00.123Z"),
      (-0.25, "2000-12-31T23:59:59.75Z"), (1e-30, "2001-01-01T00:00:00.000000000000000000000000000001Z"),
    ])
  func isoFraction(seconds: Double, text: String) throws {
    let encoded = JSONDateEncoding.iso8601Fractional.encode(Date(timeIntervalSinceReferenceDate: seconds))
    #expect(encoded == .string(text))
    #expect(XMLPlistDate.seconds(text) == seconds)
    #expect(
      JSONDateEncoding.iso8601Fractional.decode(.string(text)).map(\.timeIntervalSinceReferenceDate) == seconds)
  }

  @Test("every date of a run of odd fractions comes back from its ISO 8601 text")
  func isoFractionRoundTrip() throws {
    var generator = SplitMix64(seed: 42)
    for _ in 0..<2000 {
      let seconds = Double(Int64(bitPattern: generator.next()) % 10_000_000_000) / Double(1 + generator.next() % 1000)
      let text = try #require(XMLPlistDate.isoText(ofSeconds: seconds))
      #expect(XMLPlistDate.seconds(text) == seconds, "\(seconds) \(text)")
    }
  }

  @Test("a note's ISO 8601 text keeps every digit of its fraction")
  func noteTextFraction() throws {
    #expect(
      AppValue.date(fromNoteText: "2023-01-01T10:00:00.123456Z")?.timeIntervalSinceReferenceDate == 694_260_000.123456)
    #expect(AppValue.date(fromNoteText: "2023-01-01T10:00:00Z")?.timeIntervalSinceReferenceDate == 694_260_000)
  }

  @Test("a number JSON has no text for is inf, -inf or nan in a note, and reads back as that number")
  func nonFiniteNoteText() throws {
    #expect(AppValue.double(.infinity).noteText == "inf")
    #expect(AppValue.double(-.infinity).noteText == "-inf")
    #expect(AppValue.double(.nan).noteText == "nan")
    #expect(NoteTextTyping.value("inf", as: .double) == .double(.infinity))
    #expect(NoteTextTyping.value("-inf", as: .double) == .double(-.infinity))
    // Text under a key of mixed types stays text.
    #expect(NoteTextTyping.value("inf", as: .any) == .string("inf"))
  }

  @Test(
    "a number JSON has no text for inside an array or object is inf, -inf or nan in its note text too, and reads back")
  func nestedNonFiniteNoteText() throws {
    let nested = AppValue.array([
      .double(1.5), .double(.infinity), .double(-.infinity), .double(.nan),
      .object(
        AppRecord([("best", .double(.infinity)), ("when", .date(Date(timeIntervalSinceReferenceDate: -.infinity)))])),
    ])
    #expect(nested.noteText == #"[1.5,inf,-inf,nan,{"best":inf,"when":-inf}]"#)
    #expect(AppValue.object(AppRecord([("x", .double(.nan))])).noteText == #"{"x":nan}"#)
    let back = NoteTextTyping.value(#"[1.5,inf,-inf,nan,{"best":inf,"n":-2}]"#, as: .array)
    #expect(
      back
        == .array([
          .double(1.5), .double(.infinity), .double(-.infinity), .double(.nan),
          .object(AppRecord([("best", .double(.infinity)), ("n", .integer(-2))])),
        ]))
    #expect(NoteTextTyping.value(#"{"best":-inf}"#, as: .object) == .object(AppRecord([("best", .double(-.infinity))])))
    // The words are values only where a value goes: in a string they stay text, and other words are no JSON.
    #expect(NoteTextTyping.value(#"["inf","nan"]"#, as: .array) == .array([.string("inf"), .string("nan")]))
    #expect(NoteTextTyping.value("[infinity]", as: .array) == nil)
    #expect(NoteTextTyping.value("[-info]", as: .array) == nil)
    #expect(NoteTextTyping.value("[null,nanx]", as: .array) == nil)
    // A file's JSON is still JSON: the words are no values there.
    #expect(throws: (any Error).self) { try AppValue(json: Data("[inf]".utf8)) }
  }

  @Test("a date whose fraction ISO 8601 text without fractions drops is said wherever records are written as JSON text")
  func droppedFractionsEverywhereJSON() throws {
    let scratch = try TemporaryDirectory()
    var records = AppRecords(
      name: "Cards",
      records: [
        AppRecord([("w", .string("whole")), ("when", .date(Date(timeIntervalSinceReferenceDate: 700_000_000)))]),
        AppRecord([
          ("w", .string("nested")), ("when", .date(Date(timeIntervalSinceReferenceDate: 700_000_000))),
          (
            "seen",
            .array([
              .date(Date(timeIntervalSinceReferenceDate: 700_000_001)),
              .object(AppRecord([("at", .date(Date(timeIntervalSinceReferenceDate: 700_000_001.25)))])),
            ])
          ),
        ]),
        AppRecord([("w", .string("top")), ("when", .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5)))]),
      ])
    records.jsonDates = .iso8601
    let message =
      "2023-03-08T20:26:41.25Z (and 1 other date) is written without its fraction of a second: %@'s ISO 8601 dates have none, as JSONEncoder's .iso8601 writes them (JSONDecoder's .iso8601 refuses a fraction); AppStorageOptions.jsonDates iso8601-fractional keeps it"
    // The dates come back as text (no profile types them), which a warning of its own says.
    func dropped(_ report: AppWriteReport) -> [String] {
      report.warnings.filter { $0.category == "date-fraction-dropped" }.map(\.description)
    }
    let json = scratch.path(for: "cards.json")
    let jsonReport = try AppStorageWriter().write(records, to: json)
    #expect(
      dropped(jsonReport) == [
        "\(json): record 2, key 'seen[1].at': warning: [date-fraction-dropped] "
          + message.replacingOccurrences(of: "%@", with: "the file")
      ])
    // JSON data under a new plist key, and a JSON string under an existing one.
    let data = scratch.path(for: "data.plist")
    let string = scratch.path(for: "string.plist")
    try PropertyListSerialization.data(fromPropertyList: ["Cards": "[]", "other": 1], format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: string))
    for (plist, existing) in [(data, ExistingFilePolicy.refuse), (string, .replace)] {
      let report = try AppStorageWriter().write(
        records, to: plist,
        options: AppWriteOptions(storage: AppStorageOptions(plistStyle: .json, jsonDates: .iso8601), existing: existing)
      )
      #expect(
        dropped(report) == [
          "\(plist): key 'Cards': record 2, key 'seen[1].at': warning: [date-fraction-dropped] "
            + message.replacingOccurrences(of: "%@", with: "the key")
        ])
    }
    #expect(
      try AppStorageReader().read(path: string).place == "key 'Cards' (a JSON string in an XML plist)")
    // A plist's own dates hold a fraction (binary) or refuse it (XML): no ISO 8601 text drops one.
    let native = try AppStorageWriter().write(
      records, to: scratch.path(for: "native.plist"),
      options: AppWriteOptions(storage: AppStorageOptions(plistStyle: .native)))
    #expect(dropped(native).isEmpty)
    records.jsonDates = .iso8601Fractional
    #expect(dropped(try AppStorageWriter().write(records, to: scratch.path(for: "fractional.json"))).isEmpty)
  }
}
