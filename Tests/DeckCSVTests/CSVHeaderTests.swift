import DeckCSV
import DeckCore
import Foundation
import Testing

@Suite("CSV header directives, read as Anki reads them")
struct CSVHeaderTests {
  static func header(_ text: String) throws -> (CSVHeader, [String]) {
    var tokenizer = CSVTokenizer(data: Data(text.utf8), location: SourceLocation(file: "h.txt"))
    let (header, warnings) = CSVHeader.parse(try tokenizer.readHeaderLines(), location: SourceLocation(file: "h.txt"))
    return (header, warnings.map(\.description))
  }

  @Test("every directive Anki knows")
  func everyDirective() throws {
    let (header, warnings) = try Self.header(
      """
      #separator:Pipe
      #html:TRUE
      #tags:global1  global2
      #columns:Front|Back|Tags
      #notetype:Basic (and reversed card)
      #deck:New::Deck
      #notetype column:2
      #deck column:3
      #tags column:4
      #guid column:1
      #if matches:update current
      #match scope:notetype + deck
      # a comment without a colon
      data
      """)
    #expect(warnings == [])
    #expect(header.separator == .pipe)
    #expect(header.isHTML == true)
    #expect(header.globalTags == ["global1", "global2"])
    #expect(header.columnLabels == ["Front", "Back", "Tags"])
    #expect(header.noteType == "Basic (and reversed card)")
    #expect(header.deck == "New::Deck")
    #expect([header.noteTypeColumn, header.deckColumn, header.tagsColumn, header.guidColumn] == [2, 3, 4, 1])
    #expect(header.ifMatches == "update current")
    #expect(header.matchScope == "notetype + deck")
    #expect(header.lineCount == 13)
  }

  struct SeparatorCase: Sendable, CustomTestStringConvertible {
    var line: String
    var separator: CSVSeparator?
    var testDescription: String { line.debugDescription }
  }

  // Checked against the real backend (anki 26.9.3): names in any case, the literal characters,
  // stray delimiters after the value, surrounding spaces.
  static let separators: [SeparatorCase] = [
    .init(line: "#separator:tab", separator: .tab), .init(line: "#separator:Comma ", separator: .comma),
    .init(line: "#separator: tab", separator: .tab), .init(line: "#separator:tab,,", separator: .tab),
    .init(line: "#separator:tab x", separator: .tab), .init(line: "#separator:semicolon;", separator: .semicolon),
    .init(line: "#separator:;;", separator: .semicolon), .init(line: "#separator:,", separator: .comma),
    .init(line: "#separator:|", separator: .pipe), .init(line: "#separator::", separator: .colon),
    .init(line: "#separator: ", separator: .space), .init(line: "#separator:\t", separator: .tab),
    .init(line: "#SEPARATOR :space", separator: .space), .init(line: "#separator:foo", separator: nil),
    .init(line: "#separator:^", separator: nil),
  ]

  @Test(arguments: separators)
  func separator(_ testCase: SeparatorCase) throws {
    #expect(try Self.header(testCase.line + "\nx\n").0.separator == testCase.separator)
  }

  @Test("values of html and the column keys end at the first character that is not a letter or digit after the first")
  func cutValues() throws {
    #expect(try Self.header("#html:true,,\n").0.isHTML == true)
    #expect(try Self.header("#html:False\n").0.isHTML == false)
    #expect(try Self.header("#html: true\n").0.isHTML == nil)
    #expect(try Self.header("#html:truex\n").0.isHTML == nil)
    #expect(try Self.header("#tags column:1,\n").0.tagsColumn == 1)
    #expect(try Self.header("#tags column: 3\n").0.tagsColumn == 3)
    #expect(try Self.header("#deck column:1 x\n").0.deckColumn == 1)
    #expect(try Self.header("#tags column:1x\n").0.tagsColumn == nil)
  }

  @Test("#columns is split with the separator in force on its line (tab before any #separator)")
  func columnsUseSeparatorSoFar() throws {
    #expect(try Self.header("#columns:one\ttwo\n").0.columnLabels == ["one", "two"])
    #expect(try Self.header("#separator:|\n#columns:one|two\n").0.columnLabels == ["one", "two"])
    #expect(try Self.header("#columns:one|two\n#separator:|\n").0.columnLabels == ["one|two"])
    #expect(try Self.header("#separator:,\n#columns:\"a,b\",c\n").0.columnLabels == ["a,b", "c"])
  }

  @Test("the legacy tags: first line, and a byte order mark before it")
  func legacyTags() throws {
    #expect(try Self.header("\u{FEFF}tags:foo bar\nx\n").0.globalTags == ["foo", "bar"])
    #expect(try Self.header("\u{FEFF}#separator:tab\nx\n").0.separator == .tab)
    #expect(try Self.header("\n#tags:foo\n").0.globalTags == [])
  }

  @Test("directives Anki ignores are reported, each naming its line")
  func ignoredDirectives() throws {
    let (header, warnings) = try Self.header("#seperator:tab\n#html:maybe\n#tags column:zero\n#separator:foo\nx\n")
    #expect(header.separator == nil && header.isHTML == nil && header.tagsColumn == nil)
    #expect(
      warnings == [
        "h.txt:1: warning: [csv-directive] '#seperator:' is not a directive Anki knows (separator, html, tags, columns, notetype, deck, notetype column, deck column, tags column, guid column, if matches, match scope); ignored, as Anki ignores it",
        "h.txt:2: warning: [csv-directive] '#html:maybe' is neither true nor false; ignored, as Anki ignores it",
        "h.txt:3: warning: [csv-directive] '#tags column:zero' is not a column number (1 is the first column); ignored, as Anki ignores it",
        "h.txt:4: warning: [csv-directive] '#separator:foo' names no separator Anki knows (tab, pipe, semicolon, colon, comma, space, or one of | ; : , as the character); ignored, as Anki ignores it",
      ])
  }
}
