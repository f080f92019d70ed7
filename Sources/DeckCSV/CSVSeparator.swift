import DeckCore

/// The byte that separates the fields of a row: a tab, a comma, a semicolon, or any other
/// single ASCII character that is not a quote or a line break.
///
/// Anki knows six separators by name (`#separator:tab`, `pipe`, `semicolon`, `colon`, `comma`,
/// `space`) and detects them in that order when a file does not say which it uses.
///
/// ```swift
/// CSVSeparator(name: "semicolon")   // .semicolon
/// CSVSeparator(name: ";")           // .semicolon
/// CSVSeparator(name: "^")           // a separator Anki cannot be told about
/// ```
public struct CSVSeparator: Sendable, Hashable, CustomStringConvertible {
  /// The separating byte.
  public let byte: UInt8

  /// A separator of the given byte, or nil for a byte no CSV file can separate fields with:
  /// a quote, a line break, `#` (a comment mark to Anki), or a byte outside ASCII.
  public init?(byte: UInt8) {
    guard byte < 0x80, byte != UInt8(ascii: "\""), byte != 0x0A, byte != 0x0D,
      byte != UInt8(ascii: "#")
    else { return nil }
    self.byte = byte
  }

  private init(known byte: UInt8) { self.byte = byte }

  /// A tab, the separator of Anki's own exports and of `.tsv` and `.txt` files.
  public static let tab = CSVSeparator(known: 0x09)
  /// `|`.
  public static let pipe = CSVSeparator(known: UInt8(ascii: "|"))
  /// `;`, common in spreadsheets saved with a European locale.
  public static let semicolon = CSVSeparator(known: UInt8(ascii: ";"))
  /// `:`.
  public static let colon = CSVSeparator(known: UInt8(ascii: ":"))
  /// `,`, the separator of `.csv` files.
  public static let comma = CSVSeparator(known: UInt8(ascii: ","))
  /// A space, what Anki falls back to when it finds none of the others.
  public static let space = CSVSeparator(known: UInt8(ascii: " "))

  /// The separators Anki knows, in the order its detection tries them (space is the fallback).
  public static let ankiSeparators: [CSVSeparator] = [.tab, .pipe, .semicolon, .colon, .comma, .space]

  /// The name Anki's `#separator:` line uses for this separator, or nil when Anki has none.
  public var ankiName: String? {
    switch byte {
    case 0x09: "tab"
    case UInt8(ascii: "|"): "pipe"
    case UInt8(ascii: ";"): "semicolon"
    case UInt8(ascii: ":"): "colon"
    case UInt8(ascii: ","): "comma"
    case UInt8(ascii: " "): "space"
    default: nil
    }
  }

  /// Whether Anki's importer can be told about this separator with `#separator:`.
  public var isKnownToAnki: Bool { ankiName != nil }

  /// The `#separator:` line a file in Anki's layout starts with (Anki's name, or the character).
  var headerLine: String { "#separator:\(ankiName ?? String(decoding: [byte], as: UTF8.self))" }

  /// The warning a file written with this separator gets when Anki's importer does not know it.
  func warningUnlessKnownToAnki(at location: SourceLocation) -> Diagnostic? {
    isKnownToAnki
      ? nil
      : Diagnostic(
        .csvSeparator, at: location,
        "the separator \(self) is not one Anki knows (tab, pipe, semicolon, colon, comma, space): Anki's importer will not read this file's columns"
      )
  }

  /// A separator from a name Anki knows (`tab`, `comma`, …, any case, surrounding spaces
  /// ignored) or a single ASCII character (`;`, `^`, a literal tab); nil otherwise.
  public init?(name: String) {
    let trimmed = name.trimmingASCIIWhitespace().lowercased()
    if let known = Self.ankiSeparators.first(where: { $0.ankiName == trimmed }) {
      self = known
      return
    }
    let bytes = Array(name.utf8)
    guard bytes.count == 1 else { return nil }
    self.init(byte: bytes[0])
  }

  /// The separator as a user would write it: its Anki name, or the character in quotes.
  public var description: String {
    ankiName ?? "'\(String(decoding: [byte], as: UTF8.self))'"
  }
}
