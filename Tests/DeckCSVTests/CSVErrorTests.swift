import DeckCSV
import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("CSV: bad input fails with the line, the column and the text there")
struct CSVErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    var bytes: [UInt8]
    var options: CSVOptions = CSVOptions()
    var kind: DeckError.Kind
    /// The whole message, after the file name.
    var message: String
    var testDescription: String { id }

    init(_ id: String, _ text: String, options: CSVOptions = CSVOptions(), _ kind: DeckError.Kind, _ message: String) {
      self.id = id
      self.bytes = Array(text.utf8)
      self.options = options
      self.kind = kind
      self.message = message
    }

    init(_ id: String, bytes: [UInt8], _ kind: DeckError.Kind, _ message: String) {
      self.id = id
      self.bytes = bytes
      self.kind = kind
      self.message = message
    }
  }

  static let basic = CSVOptions(noteType: "Basic")

  static let cases: [Case] = [
    Case(
      "unterminated quote", "#separator:tab\nfront\tback\n\"Plain, with \"\"quotes\"\" and a missing end\tx\n",
      .wrongFormat,
      ":3:1: unterminated quote: the quoted field that starts here has no closing quote before the end of the file (near '\"Plain, with \"quotes\" and a mis…')"
    ),
    Case(
      "unterminated quote in a later field", "a,\"b\nc,d\n", .wrongFormat,
      ":1:3: unterminated quote: the quoted field that starts here has no closing quote before the end of the file (near '\"b\\nc,d\\n')"
    ),
    Case(
      "more fields than #notetype:Basic has",
      "#separator:,\n#notetype:Basic\nq,a\nq2,a2,extra text that goes on and on\n",
      .corrupt,
      ":4:7: this row has more fields than note type 'Basic' has (2: Front, Back): column 3 is not one of them (near 'extra text that goes on and on'); say what each column holds with CSVOptions.columns, or choose the note type with CSVOptions.noteType"
    ),
    Case(
      "more fields than --note-type has", "q\ta\tt\tsurplus\n", options: basic, .corrupt,
      ":1:7: this row has more fields than note type 'Basic' has (2: Front, Back): column 4 is not one of them (near 'surplus'); say what each column holds with CSVOptions.columns, or choose the note type with CSVOptions.noteType"
    ),
    Case(
      "a column --columns does not name", "q,a,x\n",
      options: CSVOptions(columns: try? ColumnMapping(parsing: "front,back")), .corrupt,
      ":1:5: this row has more fields than note type 'Basic' has (2: Front, Back): column 3 is not one of them (near 'x'); say what each column holds with CSVOptions.columns, or choose the note type with CSVOptions.noteType"
    ),
    Case(
      "Latin-1 bytes",
      bytes: Array("#separator:,\nfront,".utf8) + [
        0x63, 0x61, 0x66, 0xE9, 0x20, 0x61, 0x75, 0x20, 0x6C, 0x61, 0x69, 0x74,
      ] + [0x0A],
      .wrongFormat,
      ":2:10: not UTF-8: byte 0xE9 is not part of a valid character; deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8 (near 'caf\u{FFFD} au lait')"
    ),
    Case(
      "bad bytes after doubled quotes in a quoted field",
      bytes: Array("a,\"x\"\"y\n\"\"z".utf8) + [0xFF] + Array("\",b\n".utf8),
      .wrongFormat,
      ":2:4: not UTF-8: byte 0xFF is not part of a valid character; deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8 (near '\"z\u{FFFD}')"
    ),
    Case(
      "bad bytes in a header line", bytes: Array("#tags:".utf8) + [0xC3, 0x28] + [0x0A, 0x61, 0x0A], .wrongFormat,
      ":1:7: not UTF-8: byte 0xC3 is not part of a valid character; deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8 (near '#tags:\u{FFFD}(')"
    ),
    Case(
      "a UTF-16 file", bytes: [0xFF, 0xFE, 0x61, 0x00, 0x2C, 0x00, 0x62, 0x00, 0x0A, 0x00], .wrongFormat,
      ":1:1: not UTF-8: the file starts with the byte order mark of UTF-16 (0xFF 0xFE); deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8"
    ),
    Case(
      "only header lines", "#separator:tab\n#html:true\n", .corrupt,
      ": has no rows to read (2 header lines); Anki refuses such a file as empty"),
    Case("empty file", "", .corrupt, ": has no rows to read (0 header lines); Anki refuses such a file as empty"),
    Case(
      "header row naming deck twice", "Front,deck,Deck\nq,a,b\n", options: CSVOptions(hasHeaderRow: true), .corrupt,
      ":1: the header row cannot be used: the deck column is named twice"),
  ]

  @Test(arguments: cases)
  func badInput(_ testCase: Case) throws {
    let reader = CSVReader(options: testCase.options)
    do {
      _ = try reader.read(data: Data(testCase.bytes), name: "bad.csv")
      Issue.record("read without an error")
    } catch let error as DeckError {
      #expect(error.kind == testCase.kind)
      #expect(error.description == "bad.csv" + testCase.message)
    }
  }

  @Test("column lists that cannot be used")
  func badColumnLists() {
    #expect(throws: ColumnMapping.Problem(description: "the tags column is named twice")) {
      try ColumnMapping(parsing: "front,tags,back,Tags")
    }
    #expect(throws: ColumnMapping.Problem(description: "no column is named; give names such as front,back,tags,deck")) {
      try ColumnMapping(parsing: " , ")
    }
  }
}
