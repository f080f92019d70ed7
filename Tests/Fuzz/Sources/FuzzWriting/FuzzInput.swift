import Foundation

/// The fuzzer's bytes read as a stream of choices and values. It never fails: once the bytes
/// run out every read answers zero (so the first choice of any list, the empty string), which
/// keeps every input meaningful and lets libFuzzer's mutations of one byte change one choice.
package struct FuzzInput {
  private let bytes: [UInt8]
  private var offset = 0

  package init(_ data: Data) { bytes = [UInt8](data) }

  /// Whether bytes remain.
  package var isEmpty: Bool { offset >= bytes.count }

  /// The next byte, or 0.
  package mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number in `0..<count` (`count` > 0), from one byte, or two for counts above 256.
  package mutating func index(_ count: Int) -> Int {
    guard count > 1 else { return 0 }
    let raw = count > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
    return raw % count
  }

  /// One of `choices` (not empty).
  package mutating func pick<T>(_ choices: [T]) -> T { choices[index(choices.count)] }

  /// Whether the next byte is odd.
  package mutating func bool() -> Bool { byte() & 1 == 1 }

  /// `count` raw bytes (fewer at the end of the input).
  package mutating func raw(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    guard offset < end else { return [] }
    defer { offset = end }
    return Array(bytes[offset..<end])
  }

  /// Values where arithmetic and conversions go wrong: the ends of every integer width, the
  /// float-exactness edge, Anki's millisecond and day scales, and small negatives.
  package static let interestingIntegers: [Int64] = [
    0, 1, -1, 2, -2, 7, 100, 250, 1300, 2500, 36_500, -100, -5, 255, 256, 65_535, 65_536,
    Int64(Int32.max), Int64(Int32.max) + 1, Int64(Int32.min), Int64(Int32.min) - 1,
    Int64(UInt32.max), Int64(UInt32.max) + 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1,
    1_700_000_000, 1_700_000_000_000, 1_700_000_000_000_000, 253_402_300_799, 253_402_300_800_000,
    Int64.max, Int64.max - 1, Int64.min, Int64.min + 1, Int64.max / 1000, Int64.max / 1000 + 1,
    Int64.max / 86_400, Int64.min / 1000 - 1, 9_223_372_036_854_775, 1 << 62, -(1 << 62),
  ]

  /// An integer: an interesting value, a small one, or any 64-bit value from the input.
  package mutating func integer() -> Int64 {
    switch byte() % 4 {
    case 0, 1: return pick(Self.interestingIntegers)
    case 2: return Int64(Int8(bitPattern: byte()))
    default:
      var value: UInt64 = 0
      for byte in raw(8) { value = value << 8 | UInt64(byte) }
      return Int64(bitPattern: value)
    }
  }

  /// An `Int` (64-bit on every platform deckport runs on).
  package mutating func int() -> Int { Int(truncatingIfNeeded: integer()) }

  /// Text that breaks writers: control characters, NUL, markup, Anki's template syntax, path
  /// tricks, separators of every format, Unicode that normalises or folds to something else, and
  /// pieces that make a pattern matcher slow when repeated.
  package static let hostileStrings: [String] = [
    "", " ", "\0", "a\0b", "\u{1B}[2J", "\u{1B}[31m", "\u{07}", "\u{202E}abc", "\u{2066}x\u{2069}", "\u{7F}",
    "\u{85}", "\r\n", "\n", "\r", "\t", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "😀", "e\u{301}", "é",
    "É", "ß", "SS", "İ", "Ǆ", "{{", "}}", "{{Front}}", "{{c1::x}}", "{{c1::a::b}}", "{{c0::x}}",
    "{{c99999999999999999999::x}}", "{{#Front}}{{/Front}}", "{{^x}}", "{{cloze:Text}}", "{{type:Front}}",
    "{{FrontSide}}", "{{Tags}}", "{{/x}}", "<", ">", "&", "&amp;", "&#0;", "&#xD800;", "&#99999999;", "<br>",
    "<b><i>", "</div>", "<img src=\"a.png\">", "<img src=\"../x.png\">", "<img src=\"/abs.png\">",
    "<img src=\"\">", "[sound:a.mp3]", "[sound:]", "[sound:../../etc/passwd]", "[$]x[/$]", "\\(x\\)",
    "a.png", "A.PNG", "a.PNG", "../x", "/abs", "x/y", "x\\y", ".", "..", "~", "C:\\x", "con", "nul.txt",
    "::", "A::B", "A::", "::B", "A::::B", "Default", "Basic", "Cloze", "Front", "Back", "Text", "\"", "'",
    ",", ";", "|", "#", "#separator:tab", "#html:true", "#notetype column:1", "tags:", "\"\"\"", "a,b\nc",
    "NaN", "-0", "1e309", "null", "true", "{}", "[]", "{\"a\":", "\\u0000", "%s%n", "$(x)", "`x`",
    "<![CDATA[", "]]>", "<?xml", "<!DOCTYPE", "&lt;plist&gt;", "Z_PK", "ZCARD", "sqlite_master", "'; DROP",
    "\u{0}\u{1}\u{2}\u{1F}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{FF21}", "\u{FB01}", "\u{212A}", "\u{2126}",
    "\u{212B}", "A\u{30A}",
    // Pieces that, repeated, cost a backtracking regular expression engine exponential or
    // polynomial time (quoted runs in a media tag, unclosed blocks, LaTeX and `_` references).
    "<img \"a\"'b'", "\"a>\"", "<style>", "<script>", "<!--", "<\u{E9}", "[latex]", "[$]", "'_", "url(_",
    "src=", "<img src=",
  ]

  /// A string: hostile text, bytes from the input (decoded leniently), a join of both, or a
  /// long repetition.
  package mutating func string() -> String {
    switch byte() % 6 {
    case 0, 1: return pick(Self.hostileStrings)
    case 2:
      let count = Int(byte())
      return String(decoding: raw(count), as: UTF8.self)
    case 3:
      return pick(Self.hostileStrings) + String(decoding: raw(Int(byte() % 16)), as: UTF8.self)
        + pick(Self.hostileStrings)
    case 4:
      let count = Int(byte() % 4) + 2
      return (0..<count).map { _ in pick(Self.hostileStrings) }.joined()
    default:
      let piece = pick(Self.hostileStrings)
      let times = pick([2, 100, 1000, 10_000, 70_000])
      return String(repeating: piece.isEmpty ? "x" : piece, count: times)
    }
  }
}
