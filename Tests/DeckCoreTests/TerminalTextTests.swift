import DeckCore
import Foundation
import Testing

@Suite("Text shown on a terminal: control and bidirectional characters escaped, the rest unchanged")
struct TerminalTextTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    var text: String
    var shown: String
    var testDescription: String { id }
  }

  static let cases: [Case] = [
    Case(id: "clear screen", text: "Verbs\u{1B}[2J", shown: #"Verbs\e[2J"#),
    Case(id: "colour", text: "\u{1B}[31mred\u{1B}[0m", shown: #"\e[31mred\e[0m"#),
    Case(id: "bell", text: "ding\u{07}", shown: #"ding\u{07}"#),
    Case(id: "NUL", text: "a\u{0}b", shown: #"a\u{00}b"#),
    Case(id: "tab", text: "a\tb", shown: #"a\tb"#),
    Case(id: "line feed", text: "line1\nline2", shown: #"line1\nline2"#),
    Case(id: "carriage return", text: "over\rwrite", shown: #"over\rwrite"#),
    Case(id: "DEL", text: "x\u{7F}", shown: #"x\u{7F}"#),
    Case(id: "C1 CSI", text: "\u{9B}2J", shown: #"\u{9B}2J"#),
    Case(id: "C1 NEL and APC", text: "\u{85}\u{9F}\u{80}", shown: #"\u{85}\u{9F}\u{80}"#),
    Case(id: "right-to-left override", text: "abc\u{202E}fdp.exe", shown: #"abc\u{202E}fdp.exe"#),
    Case(
      id: "embeddings and overrides", text: "\u{202A}\u{202B}\u{202C}\u{202D}",
      shown: #"\u{202A}\u{202B}\u{202C}\u{202D}"#),
    Case(id: "isolates", text: "\u{2066}\u{2067}\u{2068}\u{2069}", shown: #"\u{2066}\u{2067}\u{2068}\u{2069}"#),
    Case(id: "marks", text: "\u{200E}\u{200F}\u{061C}", shown: #"\u{200E}\u{200F}\u{61C}"#),
    Case(id: "line and paragraph separators", text: "a\u{2028}b\u{2029}", shown: #"a\u{2028}b\u{2029}"#),
    Case(id: "backslash left as it is", text: #"C:\decks\frac"#, shown: #"C:\decks\frac"#),
    Case(id: "accents", text: "naïve Ünïcödé café", shown: "naïve Ünïcödé café"),
    Case(id: "CJK", text: "日本語::語彙", shown: "日本語::語彙"),
    Case(id: "emoji with joiner and variation", text: "🎉 👩‍💻 ❤️", shown: "🎉 👩‍💻 ❤️"),
    Case(id: "combining marks", text: "cafe\u{301} n\u{303}", shown: "cafe\u{301} n\u{303}"),
    Case(id: "Arabic and Hebrew letters", text: "مرحبا שלום", shown: "مرحبا שלום"),
    Case(id: "empty", text: "", shown: ""),
  ]

  @Test(arguments: cases)
  func escaped(_ testCase: Case) {
    let shown = TerminalText.escaped(testCase.text)
    #expect(shown.unicodeScalars.elementsEqual(testCase.shown.unicodeScalars), "\(shown.debugDescription)")
    #expect(!shown.unicodeScalars.contains(where: TerminalText.isEscaped))
    #expect(TerminalText.escaped(shown) == shown, "escaping twice changes nothing")
  }

  @Test("every code point the rule names is escaped, and none of the printable ASCII or Latin-1")
  func rule() throws {
    let named =
      Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)
      + [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
    for value in named {
      let scalar = try #require(Unicode.Scalar(UInt32(value)))
      #expect(TerminalText.isEscaped(scalar), "U+\(String(value, radix: 16))")
    }
    for value in Array(0x20...0x7E) + Array(0xA0...0x17F) {
      let scalar = try #require(Unicode.Scalar(UInt32(value)))
      #expect(!TerminalText.isEscaped(scalar), "U+\(String(value, radix: 16))")
    }
  }

  @Test("more characters can be shown as well, in the same notation")
  func alsoEscaping() {
    let shown = TerminalText.escaped("cafe\u{301}\u{1B}") { $0.properties.generalCategory == .nonspacingMark }
    #expect(shown == #"cafe\u{301}\e"#)
  }

  @Test("JSON text keeps every string exact, with nothing a terminal acts on")
  func json() throws {
    let names = ["V\u{1B}[2Jerbs\u{07}", "abc\u{202E}def", "x\u{7F}\u{9B}\u{2066}", "a\tb\nc", "日本 🎉 مرحبا"]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted]
    let json = TerminalText.escapedJSON(String(decoding: try encoder.encode(names), as: UTF8.self))
    let forbidden = json.unicodeScalars.filter { TerminalText.isEscaped($0) && $0 != "\n" && $0 != " " }
    #expect(forbidden.isEmpty, "\(json.debugDescription)")
    let decoded = try JSONDecoder().decode([String].self, from: Data(json.utf8))
    #expect(decoded.map { Array($0.unicodeScalars) } == names.map { Array($0.unicodeScalars) })
    #expect(json.contains(#"\u202e"#))
  }
}
