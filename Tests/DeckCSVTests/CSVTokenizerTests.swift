import DeckCSV
import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("CSV tokenizer: bytes to records, as Anki's importer splits them")
struct CSVTokenizerTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    var bytes: [UInt8]
    var separator: CSVSeparator = .comma
    var rows: [[String]]
    var testDescription: String { id }

    init(_ id: String, _ text: String, _ separator: CSVSeparator = .comma, _ rows: [[String]]) {
      self.id = id
      self.bytes = Array(text.utf8)
      self.separator = separator
      self.rows = rows
    }

    init(_ id: String, bytes: [UInt8], _ separator: CSVSeparator = .comma, _ rows: [[String]]) {
      self.id = id
      self.bytes = bytes
      self.separator = separator
      self.rows = rows
    }
  }

  static func records(_ bytes: [UInt8], separator: CSVSeparator, header: Bool = false) throws
    -> (header: [CSVTokenizer.HeaderLine], records: [CSVTokenizer.Record])
  {
    var tokenizer = CSVTokenizer(data: Data(bytes), location: SourceLocation(file: "t.csv"))
    let headerLines = header ? try tokenizer.readHeaderLines() : []
    var records: [CSVTokenizer.Record] = []
    while let record = try tokenizer.nextRecord(separator: separator) { records.append(record) }
    return (headerLines, records)
  }

  static let cases: [Case] = [
    Case("plain fields", "a,b,c\nd,e,f\n", .comma, [["a", "b", "c"], ["d", "e", "f"]]),
    Case("no line break at the end", "a,b\nc,d", .comma, [["a", "b"], ["c", "d"]]),
    Case("separator in quotes", #""a,b",c"#, .comma, [["a,b", "c"]]),
    Case("doubled quotes", #""say ""hi""",x"#, .comma, [[#"say "hi""#, "x"]]),
    Case("line break in quotes", "\"line1\nline2\",x\ny,z\n", .comma, [["line1\nline2", "x"], ["y", "z"]]),
    Case("CRLF in quotes is kept", "\"a\r\nb\",c\r\n", .comma, [["a\r\nb", "c"]]),
    Case("CRLF line ends", "a,b\r\nc,d\r\n", .comma, [["a", "b"], ["c", "d"]]),
    Case("lone CR ends a record", "a,b\rc,d\r\ne,f\n", .comma, [["a", "b"], ["c", "d"], ["e", "f"]]),
    Case("empty lines are skipped", "a,b\n\n\r\n\nc,d\n", .comma, [["a", "b"], ["c", "d"]]),
    Case(
      "a # line where a record starts is a comment", "#note\na,b\n#c,d\ne,#f\n", .comma, [["a", "b"], ["e", "#f"]]),
    Case("a # line inside a quoted field is text", "\"x\n#y\",z\n", .comma, [["x\n#y", "z"]]),
    Case("text after a closing quote is appended", #""ab"cd,x"#, .comma, [["abcd", "x"]]),
    Case("a quote inside an unquoted field is text", #"a"b,c"d""#, .comma, [[#"a"b"#, #"c"d""#]]),
    Case("trailing separator gives an empty field", "a,b,\n", .comma, [["a", "b", ""]]),
    Case("an empty quoted field is a record", "\"\"\n", .comma, [[""]]),
    Case("rows of different lengths", "a\nb,c,d\n", .comma, [["a"], ["b", "c", "d"]]),
    Case("tab separator keeps commas", "a,b\tc;d\n", .tab, [["a,b", "c;d"]]),
    Case("custom separator", "a^b^c\n", CSVSeparator(name: "^") ?? .comma, [["a", "b", "c"]]),
    Case("spaces are kept", " a , b \n", .comma, [[" a ", " b "]]),
    Case("byte order mark", bytes: [0xEF, 0xBB, 0xBF] + Array("a,b\n".utf8), .comma, [["a", "b"]]),
    Case("non-ASCII text", "café,日本語,🎉\n", .comma, [["café", "日本語", "🎉"]]),
  ]

  @Test(arguments: cases)
  func splits(_ testCase: Case) throws {
    let records = try Self.records(testCase.bytes, separator: testCase.separator).records
    #expect(records.map(\.values) == testCase.rows)
  }

  @Test("fields know their line and column (in characters), across quoted line breaks")
  func positions() throws {
    let text = "é,\"x\ny\",z\nlast,\"q\"\n"
    let records = try Self.records(Array(text.utf8), separator: .comma).records
    #expect(records.map(\.line) == [1, 3])
    #expect(records[0].fields.map { [$0.line, $0.column] } == [[1, 1], [1, 3], [2, 4]])
    #expect(records[1].fields.map { [$0.line, $0.column] } == [[3, 1], [3, 6]])
  }

  @Test("header lines: the legacy tags line first, then # lines, up to the first other line")
  func headerLines() throws {
    let text = "tags:a b\n#separator:tab\n#html:true\r\nx\ty\n#not header\nz\tw\n"
    let (header, records) = try Self.records(Array(text.utf8), separator: .tab, header: true)
    #expect(header.map(\.text) == ["tags:a b", "#separator:tab", "#html:true"])
    #expect(header.map(\.number) == [1, 2, 3])
    #expect(records.map(\.values) == [["x", "y"], ["z", "w"]])
    #expect(records.map(\.line) == [4, 6])
  }

  @Test("a tags: line is a header line only when it is the first")
  func tagsLineOnlyFirst() throws {
    let (header, records) = try Self.records(Array("#a:b\ntags:x\n".utf8), separator: .comma, header: true)
    #expect(header.map(\.text) == ["#a:b"])
    #expect(records.map(\.values) == [["tags:x"]])
  }

  @Test("a field longer than the read buffer, and many records, come through whole")
  func longFields() throws {
    let long = String(repeating: "ab\"c,\n", count: 40_000)
    let quoted = "\"" + long.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    var text = quoted + ",tail\n"
    for index in 0..<5_000 { text += "row\(index),\(index)\n" }
    let records = try Self.records(Array(text.utf8), separator: .comma).records
    #expect(records.count == 5_001)
    #expect(records[0].values == [long, "tail"])
    #expect(records[5_000].values == ["row4999", "4999"])
    #expect(records[5_000].line == 40_000 + 5_001)
  }

  @Test("the detection sample does not consume bytes")
  func peekKeepsBytes() throws {
    var tokenizer = CSVTokenizer(data: Data("\u{FEFF}a;b\n".utf8), location: SourceLocation(file: "t.csv"))
    #expect(try tokenizer.peekBytes(maximum: 8192) == Array("a;b\n".utf8))
    #expect(try tokenizer.nextRecord(separator: .semicolon)?.values == ["a", "b"])
    #expect(try tokenizer.nextRecord(separator: .semicolon) == nil)
  }
}
