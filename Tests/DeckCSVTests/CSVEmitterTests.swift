import DeckCSV
import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("CSV emitter: quoting exactly where Anki's export quotes")
struct CSVEmitterTests {
  static func written(_ rows: [[String]], separator: CSVSeparator, lines: [String] = []) throws -> String {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.csv")
    try FileSink.writing(to: path) { sink in
      var emitter = CSVEmitter(sink: sink, separator: separator)
      for line in lines { try emitter.writeLine(line) }
      for row in rows { try emitter.writeRow(row) }
      try emitter.flush()
    }
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var field: String
    var separator: CSVSeparator
    var encoded: String
    var testDescription: String { "\(field.debugDescription) with \(separator)" }
  }

  static let cases: [Case] = [
    Case(field: "plain", separator: .tab, encoded: "plain"),
    Case(field: "has\ttab", separator: .tab, encoded: "\"has\ttab\""),
    Case(field: "has,comma", separator: .tab, encoded: "has,comma"),
    Case(field: "has,comma", separator: .comma, encoded: "\"has,comma\""),
    Case(field: "has\ttab", separator: .comma, encoded: "has\ttab"),
    Case(field: #"say "hi""#, separator: .tab, encoded: #""say ""hi""""#),
    Case(field: "line\nbreak", separator: .tab, encoded: "\"line\nbreak\""),
    Case(field: "cr\rhere", separator: .tab, encoded: "\"cr\rhere\""),
    Case(field: "q(AA[xz#x8", separator: .tab, encoded: "\"q(AA[xz#x8\""),
    Case(field: "#start", separator: .comma, encoded: "\"#start\""),
    Case(field: "a;b", separator: .semicolon, encoded: "\"a;b\""),
    Case(field: " spaced ", separator: .comma, encoded: " spaced "),
    Case(field: "", separator: .comma, encoded: ""),
    Case(field: "<img src=\"x.png\">", separator: .tab, encoded: "\"<img src=\"\"x.png\"\">\""),
  ]

  @Test(arguments: cases)
  func quoting(_ testCase: Case) throws {
    let text = try Self.written([[testCase.field, "z"]], separator: testCase.separator)
    #expect(text == testCase.encoded + String(decoding: [testCase.separator.byte], as: UTF8.self) + "z\n")
  }

  @Test("a row of one empty field is written as \"\" so it is not an empty line; lines end with LF")
  func emptyRow() throws {
    #expect(
      try Self.written([[""], ["a", ""], ["", ""]], separator: .tab, lines: ["#html:true"])
        == "#html:true\n\"\"\na\t\n\t\n")
  }

  @Test("the notes_all sample's rows are written byte for byte as Anki wrote them")
  func ankiSampleBytes() throws {
    let rows = [
      [
        "zq.~M:S$@3", "Basic", "Parent::Child", "Hello <b>world</b> &amp; friends", #"<img src="pixel.png">"#, "",
        "a::b greeting",
      ],
      ["q(AA[xz#x8", "Basic", "Parent", "Plain, with \"quotes\"; and\ttab", "line1<br>line2\nline3", "", "marked"],
    ]
    let expected =
      "zq.~M:S$@3\tBasic\tParent::Child\tHello <b>world</b> &amp; friends\t\"<img src=\"\"pixel.png\"\">\"\t\ta::b greeting\n"
      + "\"q(AA[xz#x8\"\tBasic\tParent\t\"Plain, with \"\"quotes\"\"; and\ttab\"\t\"line1<br>line2\nline3\"\t\tmarked\n"
    #expect(try Self.written(rows, separator: .tab) == expected)
  }

  @Test("whatever is written reads back as the same rows (random fields, every separator)")
  func roundTrip() throws {
    var generator = SplitMix(seed: 42)
    let alphabet = Array("ab ,;\t|:\"#\n\r\r\né日🎉<>&'")
    for separator in CSVSeparator.ankiSeparators {
      let rows: [[String]] = (0..<200).map { _ in
        (0..<Int(generator.next() % 5 + 1)).map { _ in
          String((0..<Int(generator.next() % 12)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
      }
      let text = try Self.written(rows, separator: separator)
      var tokenizer = CSVTokenizer(data: Data(text.utf8), location: SourceLocation(file: "t.csv"))
      var readBack: [[String]] = []
      while let record = try tokenizer.nextRecord(separator: separator) { readBack.append(record.values) }
      #expect(readBack == rows, "separator \(separator)")
    }
  }
}

/// A small deterministic random number generator for test data.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
