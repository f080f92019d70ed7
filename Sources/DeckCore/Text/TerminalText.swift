/// Text from an input made safe to show on a terminal: every character that could move the
/// cursor, clear the screen, change colours, ring the bell, break the line or reverse the order
/// in which text is displayed is written visibly instead.
///
/// Names in a deck (decks, note types, fields, templates, tags, media files), excerpts of fields,
/// file paths and anything else a file from the internet may hold go through ``escaped(_:)``
/// before they reach a terminal:
///
/// ```swift
/// TerminalText.escaped("Verbs\u{1B}[2J")      // Verbs\e[2J
/// TerminalText.escaped("a\tb\nc")             // a\tb\nc
/// TerminalText.escaped("abc\u{202E}def")      // abc\u{202E}def
/// TerminalText.escaped("Ünïcödé 日本語 🎉 عربي") // unchanged
/// ```
///
/// What is escaped (``isEscaped(_:)``): the C0 control characters U+0000–U+001F, DEL (U+007F),
/// the C1 control characters U+0080–U+009F, the bidirectional marks, embeddings, overrides and
/// isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and the line and paragraph
/// separators U+2028 and U+2029 (a name must not break a line). Everything else, accents, CJK,
/// emoji, combining marks and Arabic or Hebrew letters included, is left as it is.
///
/// How (``notation(for:)``): tab, line feed and carriage return as `\t`, `\n` and `\r`, escape as
/// `\e` (so `ESC[2J` reads `\e[2J`), every other one as `\u{…}` with at least two upper-case hex
/// digits (`\u{07}`, `\u{9B}`, `\u{202E}`).
///
/// A backslash is left as it is, on purpose: it cannot drive a terminal, doubling it would garble
/// Windows paths and LaTeX in names (`\frac`), and leaving it keeps escaping idempotent, so text
/// escaped by the library (``DeckError``'s and ``Diagnostic``'s descriptions) and again by the
/// command's output comes out the same. The price is that a name that really holds the six
/// characters `\e[2J` looks like one that holds an escape; the text is for reading, and
/// `deckport inspect --json` gives every name exactly.
public enum TerminalText {
  /// `text` with every character ``isEscaped(_:)`` finds written as ``notation(for:)``; `text`
  /// itself when it holds none.
  public static func escaped(_ text: String) -> String {
    escaped(text, alsoEscaping: { _ in false })
  }

  /// `text` with every character ``isEscaped(_:)`` finds, and every one `alsoEscaping` picks,
  /// written as ``notation(for:)``; for messages that must also show invisible characters (such
  /// as a media name's combining marks).
  public static func escaped(_ text: String, alsoEscaping extra: (Unicode.Scalar) -> Bool) -> String {
    guard text.unicodeScalars.contains(where: { isEscaped($0) || extra($0) }) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isEscaped(scalar) || extra(scalar) {
        result += notation(for: scalar)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether `scalar` is one a terminal acts on rather than shows: a C0 or C1 control character,
  /// DEL, a bidirectional formatting character, or a line or paragraph separator.
  public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    case 0x2028, 0x2029: true
    default: false
    }
  }

  /// How `scalar` is written when escaped: `\t`, `\n`, `\r`, `\e`, or `\u{…}` with at least two
  /// upper-case hex digits.
  public static func notation(for scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\t": return "\\t"
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\u{1B}": return "\\e"
    default:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    }
  }
}

extension TerminalText {
  /// Many lines of text (a CSV or TSV file shown on a terminal) made safe as ``escaped(_:)``
  /// makes a name, except that tabs and line feeds, which only lay text out, are left as they
  /// are: `a\tb\nc` stays two lines, `\u{1B}[2J` is shown as `\e[2J`.
  public static func escapedKeepingLayout(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isEscaped($0) && $0 != "\t" && $0 != "\n" }) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isEscaped(scalar) && scalar != "\t" && scalar != "\n" {
        result += notation(for: scalar)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
