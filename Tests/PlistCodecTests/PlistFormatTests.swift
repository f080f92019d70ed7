import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@Suite("Plist reading and writing")
struct PlistFormatTests {
  /// A value with every plist type, nested, with a non-ASCII key and key order that is not sorted.
  static let everything = PlistValue.dictionary(
    PlistDictionary([
      .init(key: "zeta", value: .string("last letter first")),
      .init(key: "Cards", value: .data(Data(#"[{"prompt":"Zwölf? 日本 🃏"}]"#.utf8))),
      .init(key: "ünïcødé-キー", value: .string("😀 <&> \r\n")),
      .init(key: "int", value: .integer(-42)),
      .init(key: "max", value: .integer(Int64.max)),
      .init(key: "unsigned", value: .unsignedInteger(UInt64.max)),
      .init(key: "zero", value: .integer(0)),
      .init(key: "one", value: .integer(1)),
      .init(key: "true", value: .bool(true)),
      .init(key: "false", value: .bool(false)),
      .init(key: "real", value: .real(0.1)),
      .init(key: "when", value: .date(700_000_000)),
      .init(key: "empty", value: .dictionary(PlistDictionary())),
      .init(
        key: "list",
        value: .array([
          .integer(1), .array([]), .dictionary(PlistDictionary([.init(key: "deep", value: .data(Data([0, 1, 2])))])),
        ])),
      .init(key: "long", value: .string(String(repeating: "x", count: 300))),
    ]))

  @Test("binary: written, read back equal, and Python's plistlib reads it")
  func binaryRoundTrip() throws {
    let data = BinaryPlistWriter.data(Self.everything)
    #expect(data.starts(with: Array("bplist00".utf8)))
    #expect(try BinaryPlistReader.read(data) == Self.everything)
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "everything.plist")
    try data.write(to: URL(fileURLWithPath: path))
    let summary = try PythonScript.run(
      "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print(list(d)[:3], d['unsigned'], d['true'] is True, d['one'] == 1 and d['one'] is not True, d['when'].isoformat(), d['list'][2]['deep'])",
      [path])
    #expect(
      summary
        == "['zeta', 'Cards', 'ünïcødé-キー'] 18446744073709551615 True True 2023-03-08T20:26:40 b'\\x00\\x01\\x02'\n")
  }

  @Test("binary: equal scalars are stored once, data that differs only in its middle twice")
  func uniquing() throws {
    let picture = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    var middleChanged = picture
    middleChanged[150_000] ^= 0xFF
    let value = PlistValue.array([.data(picture), .data(middleChanged), .data(picture), .string("a"), .string("a")])
    let data = BinaryPlistWriter.data(value)
    // The trailer's object count: the array, two data objects, one string.
    let count = data.suffix(24).prefix(8).reduce(0) { $0 << 8 | Int($1) }
    #expect(count == 4)
    #expect(try PlistDocument(data: data).root == value)
    let foundation = try PropertyListSerialization.propertyList(from: data, format: nil) as? [Any]
    #expect((foundation?[1] as? Data) == middleChanged)
    #expect((foundation?[2] as? Data) == picture)
  }

  @Test("XML: written in Apple's layout, read back equal, and Python's plistlib reads it")
  func xmlRoundTrip() throws {
    let data = try XMLPlistWriter.data(Self.everything)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC"))
    #expect(text.contains("\t<key>ünïcødé-キー</key>\n\t<string>😀 &lt;&amp;&gt; &#13;\n</string>"))
    #expect(text.contains("\t<key>empty</key>\n\t<dict/>"))
    #expect(try XMLPlistReader.read(data).0 == Self.everything)
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "everything.plist")
    try data.write(to: URL(fileURLWithPath: path))
    let summary = try PythonScript.run(
      "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print(d['ünïcødé-キー'] == '😀 <&> \\r\\n', d['unsigned'], d['real'])",
      [path])
    #expect(summary == "True 18446744073709551615 0.1\n")
  }

  @Test("XML dates hold whole seconds: a fraction is refused, not cut")
  func xmlDateFraction() {
    #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "d", value: .date(700_000_000.5))])))
    }
  }

  @Test(
    "XML dates are days of the proleptic Gregorian calendar, before 1582 too",
    arguments: [
      ("1000-06-01T13:59:58Z", -31_575_434_402.0),
      ("0001-01-01T00:00:00Z", -63_113_904_000.0),
      ("1582-10-04T23:59:59Z", -13_198_464_001.0),
      ("2001-01-01T00:00:00Z", 0.0),
      ("2001-01-01T01:00:00+01:00", 0.0),
      ("2000-12-31T23:30:00-00:30", 0.0),
      ("2001-01-01T00:00:00.25Z", 0.25),
      ("9999-12-31T23:59:59Z", 252_423_993_599.0),
    ])
  func xmlDateCalendar(text: String, seconds: Double) throws {
    let document = "<plist version=\"1.0\"><dict><key>d</key><date>\(text)</date></dict></plist>"
    let (value, _) = try XMLPlistReader.read(Data(document.utf8))
    guard case .dictionary(let dictionary) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(dictionary["d"] == .date(seconds))
    if !text.contains("+"), !text.contains("-00:30"), seconds == seconds.rounded() {
      let written = try XMLPlistWriter.data(value)
      #expect(String(decoding: written, as: UTF8.self).contains("<date>\(text)</date>"))
    }
  }

  @Test(
    "an XML date of a day the calendar lacks, or past the year 9999, is refused",
    arguments: [
      "2001-02-29T00:00:00Z", "2001-13-01T00:00:00Z", "2001-01-01T24:00:00Z", "2001-01-01T00:00:00",
      "01-01-01T00:00:00Z",
    ])
  func xmlDateRefused(text: String) {
    let document = "<plist version=\"1.0\"><dict><key>d</key><date>\(text)</date></dict></plist>"
    #expect(throws: PlistFormatError.self) { try XMLPlistReader.read(Data(document.utf8)) }
  }

  @Test(
    "a date past the years 1 to 9999, infinite or not a number is refused by the XML writer, naming why",
    arguments: [
      (
        -63_113_904_001.0,
        "the date -63113904001.0 (seconds since 2001) is outside the years 1 to 9999, the only ones an XML plist date can name"
      ),
      (
        252_423_993_600.0,
        "the date 252423993600.0 (seconds since 2001) is outside the years 1 to 9999, the only ones an XML plist date can name"
      ),
      (
        .infinity,
        "the date is infinite (inf seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
      ),
      (
        -.infinity,
        "the date is infinite (-inf seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
      ),
      (
        .nan,
        "the date is not a number (NaN seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
      ),
      (
        -.nan,
        "the date is not a number (NaN seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
      ),
    ])
  func xmlDateOutOfYears(seconds: Double, message: String) {
    let error = #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "d", value: .date(seconds))])))
    }
    #expect(error?.message == message)
    #expect(error?.path == [.key("d")])
  }

  @Test("a date the XML writer refuses is named by its path from the top value: record and key")
  func xmlDateRefusedAtPath() {
    let record = PlistValue.dictionary(PlistDictionary([.init(key: "prompt", value: .string("a"))]))
    let bad = PlistValue.dictionary(
      PlistDictionary([
        .init(key: "prompt", value: .string("b")), .init(key: "seen", value: .array([.date(0), .date(.nan)])),
      ]))
    let error = #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "Cards", value: .array([record, bad]))])))
    }
    #expect(error?.path == [.key("Cards"), .index(1), .key("seen"), .index(1)])
    #expect(error?.pathText() == "Cards[1].seen[1]")
    #expect(error?.pathText(droppingFirst: 1) == "[1].seen[1]")
  }

  @Test("a date of -0.0 seconds is the instant 0.0 names: written as 2001-01-01T00:00:00Z, read back as 0.0")
  func xmlDateMinusZero() throws {
    let data = try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "d", value: .date(-0.0))])))
    #expect(String(decoding: data, as: UTF8.self).contains("<date>2001-01-01T00:00:00Z</date>"))
    let (value, _) = try XMLPlistReader.read(data)
    guard case .dictionary(let root) = value, case .date(let seconds) = root["d"] else {
      Issue.record("no date under d")
      return
    }
    #expect(seconds.bitPattern == (0.0).bitPattern)
  }

  @Test("plists written by Foundation (PropertyListEncoder and PropertyListSerialization) read the same")
  func foundationWritten() throws {
    struct Card: Codable {
      var id: UUID
      var prompt: String
      var answer: String
    }
    struct Domain: Codable {
      // swift-format-ignore: AlwaysUseLowerCamelCase
      var Cards: Data  // the key Flashzilla stores under
      var launchCount: Int
      var flag: Bool
      var ratio: Double
    }
    let card = Card(
      id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(), prompt: "Zwölf?", answer: "12")
    let json = try JSONEncoder().encode([card])
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      let data = try encoder.encode(Domain(Cards: json, launchCount: 1, flag: true, ratio: 2.5))
      let document = try PlistDocument(data: data)
      #expect(document.format == (format == .binary ? .binary : .xml))
      guard case .dictionary(let root) = document.root else {
        Issue.record("not a dictionary")
        continue
      }
      #expect(root["Cards"] == .data(json))
      #expect(root["launchCount"] == .integer(1))
      #expect(root["flag"] == .bool(true))
      #expect(root["ratio"] == .real(2.5))

      let serialized = try PropertyListSerialization.data(
        fromPropertyList: ["when": Date(timeIntervalSinceReferenceDate: 700_000_000), "n": 7, "b": false, "s": "ü"],
        format: format, options: 0)
      guard case .dictionary(let other) = try PlistDocument(data: serialized).root else {
        Issue.record("not a dictionary")
        continue
      }
      #expect(other["when"] == .date(700_000_000))
      #expect(other["n"] == .integer(7))
      #expect(other["b"] == .bool(false))
      #expect(other["s"] == .string("ü"))
    }
  }

  @Test("what deckport writes, Foundation reads with the same values")
  func foundationReads() throws {
    for data in [BinaryPlistWriter.data(Self.everything), try XMLPlistWriter.data(Self.everything)] {
      let object = try PropertyListSerialization.propertyList(from: data, format: nil)
      let dictionary = try #require(object as? [String: Any])
      #expect(dictionary["int"] as? Int == -42)
      #expect(dictionary["real"] as? Double == 0.1)
      #expect(dictionary["when"] as? Date == Date(timeIntervalSinceReferenceDate: 700_000_000))
      #expect(dictionary["ünïcødé-キー"] as? String == "😀 <&> \r\n")
      #expect((dictionary["true"]).map { type(of: $0) == Bool.self } == true)
    }
  }

  @Test("an XML plist: replacing one key keeps every other byte")
  func xmlSplice() throws {
    let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("app/flashzilla-xml.plist")))
    let document = try PlistDocument(data: original)
    let edited = try document.replacing(key: "Cards", with: .data(Data("[]".utf8)))
    let text = String(decoding: edited, as: UTF8.self)
    let before = String(decoding: original, as: UTF8.self)
    let cardsRange = try #require(before.range(of: "<key>Cards</key>"))
    // Everything before the key is untouched, the key now holds "[]", and the rest follows unchanged.
    #expect(text.hasPrefix(String(before[..<cardsRange.upperBound])))
    #expect(text.contains("<key>Cards</key>\n\t<data>\n\tW10=\n\t</data>\n</dict>\n</plist>\n"))
    guard case .dictionary(let old) = document.root, case .dictionary(let new) = try PlistDocument(data: edited).root
    else {
      Issue.record("not dictionaries")
      return
    }
    #expect(old.keys == new.keys)
    for entry in old.entries where entry.key != "Cards" { #expect(new[entry.key] == entry.value) }

    let added = try document.replacing(key: "NewKey", with: .integer(5))
    let addedText = String(decoding: added, as: UTF8.self)
    #expect(addedText.hasPrefix(String(before.dropLast("</dict>\n</plist>\n".count))))
    #expect(addedText.hasSuffix("\t<key>NewKey</key>\n\t<integer>5</integer>\n</dict>\n</plist>\n"))
  }

  @Test("damaged binary plists give errors, never crashes", arguments: [8, 20, 40, 200, 600])
  func truncated(length: Int) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("app/flashzilla-binary.plist")))
    #expect(throws: PlistFormatError.self) { try BinaryPlistReader.read(data.prefix(length)) }
    var flipped = Array(data)
    flipped[flipped.count - 9] ^= 0xFF  // the offset-table position in the trailer
    #expect(throws: PlistFormatError.self) { try BinaryPlistReader.read(Data(flipped)) }
  }

  @Test("a binary plist whose array contains itself is refused")
  func cycle() {
    // Header, then object 0: an array of one reference (to object 0); offset table; trailer.
    var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
    let table = bytes.count
    bytes += [0x08]
    bytes +=
      [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [
        0, 0, 0, 0, 0, 0, 0, UInt8(table),
      ]
    #expect(throws: PlistFormatError.self) { try BinaryPlistReader.read(Data(bytes)) }
  }

  @Test(
    "text XML 1.0 cannot hold is refused, in a value or a key, naming the character and its place",
    arguments: [
      ("nul\u{0}x", "U+0000 (character 4)"), ("ctl\u{1}x", "U+0001 (character 4)"),
      ("vt\u{B}x", "U+000B (character 3)"), ("ff\u{C}x", "U+000C (character 3)"),
      ("us\u{1F}x", "U+001F (character 3)"), ("nonchar\u{FFFE}x", "U+FFFE (character 8)"),
      ("nonchar\u{FFFF}x", "U+FFFF (character 8)"),
    ])
  func xmlCharactersRefused(text: String, named: String) throws {
    let record = PlistValue.dictionary(PlistDictionary([.init(key: "s", value: .string(text))]))
    let error = #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try XMLPlistWriter.data(
        .dictionary(PlistDictionary([.init(key: "Cards", value: .array([.string("a"), record]))])))
    }
    #expect(
      error?.message
        == "the text holds \(named), which XML 1.0 cannot hold, raw or as a character reference, so an XML plist cannot (a binary plist can)"
    )
    #expect(error?.path == [.key("Cards"), .index(1), .key("s")])
    let keyed = PlistValue.dictionary(PlistDictionary([.init(key: text, value: .integer(1))]))
    let keyError = #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "Cards", value: .array([keyed]))])))
    }
    #expect(keyError?.message.hasPrefix("the key holds \(named), which XML 1.0 cannot hold") == true)
    #expect(keyError?.path == [.key("Cards"), .index(0), .key(text)])
    // The binary format holds any text.
    let binary = BinaryPlistWriter.data(.dictionary(PlistDictionary([.init(key: text, value: .string(text))])))
    #expect(
      try PlistDocument(data: binary).root == .dictionary(PlistDictionary([.init(key: text, value: .string(text))])))
  }

  @Test("tab, line feed and carriage return are XML characters; a new top-level key XML cannot hold is refused")
  func xmlCharactersKept() throws {
    let data = try XMLPlistWriter.data(.dictionary(PlistDictionary([.init(key: "k", value: .string("a\tb\nc\rd"))])))
    #expect(String(decoding: data, as: UTF8.self).contains("<string>a\tb\nc&#13;d</string>"))
    let document = try PlistDocument(data: data)
    #expect(throws: XMLPlistWriter.Unrepresentable.self) {
      try document.replacing(key: "new\u{7}", with: .string("x"))
    }
    #expect(try document.replacing(key: "new", with: .string("x")).count > data.count)
  }
}
