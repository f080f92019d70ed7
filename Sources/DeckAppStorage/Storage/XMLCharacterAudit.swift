import Foundation

/// Finds the characters in an XML document's text that XML 1.0 cannot hold, by the
/// specification's `Char` production (tab, line feed, carriage return, U+0020 to U+D7FF,
/// U+E000 to U+FFFD, U+10000 and above), so that a plist writer's output is checked by other
/// code than the writer's own escaping.
///
/// deckport's XML plist reader takes such characters as they are (a file another program wrote
/// may hold them, and reading it should not fail), so reading the file back cannot tell them;
/// XML parsers (Python's `plistlib`, expat, libxml2) refuse the whole document at the first one.
///
/// The bytes are decoded where they lie, a scalar at a time (no copy of the document, no text
/// made of it), and only the count and the first finding are kept: what the writer's check needs.
///
/// ```swift
/// let audit = XMLCharacterAudit.audit(of: data)
/// if let first = audit.first { print(audit.count, first.line, first.column) }
/// ```
enum XMLCharacterAudit {
  /// A character XML 1.0 cannot hold, and where it is.
  struct Finding: Equatable {
    /// Its code point.
    var scalar: UInt32
    /// Its line, from 1.
    var line: Int
    /// Its column in the line, in Unicode scalars, from 1.
    var column: Int

    /// `U+0001 at line 13, column 14`.
    var description: String { String(format: "U+%04X", scalar) + " at line \(line), column \(column)" }
  }

  /// What the audit of one document found.
  struct Summary: Equatable {
    /// How many characters XML 1.0 cannot hold the document has.
    var count = 0
    /// The first of them, if any.
    var first: Finding?
  }

  /// The characters of the document in `data` (UTF-8, or UTF-16 after a byte order mark) that
  /// XML 1.0 cannot hold: how many, and the first. Bytes that are no character of the encoding
  /// count as U+FFFD, as a decoder replacing them reads them.
  static func audit(of data: Data) -> Summary {
    var tally = Tally()
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      let bigEndian = bytes.starts(with: [0xFE, 0xFF])
      if bigEndian || bytes.starts(with: [0xFF, 0xFE]) {
        // The units after the byte order mark; an odd last byte is no unit.
        let units = (0..<((bytes.count - 2) / 2)).lazy.map { index -> UInt16 in
          let first = UInt16(bytes[2 + 2 * index])
          let second = UInt16(bytes[3 + 2 * index])
          return bigEndian ? first << 8 | second : second << 8 | first
        }
        tally.decode(units.makeIterator(), as: UTF16.self)
      } else {
        tally.decode(bytes.makeIterator(), as: UTF8.self)
      }
    }
    return tally.summary
  }

  /// The count and first finding, with the line and column of the scalar being read.
  private struct Tally {
    var summary = Summary()
    private var line = 1
    private var column = 0

    mutating func decode<Codec: UnicodeCodec, Units: IteratorProtocol>(_ units: Units, as codec: Codec.Type)
    where Units.Element == Codec.CodeUnit {
      var units = units
      var decoder = Codec()
      while true {
        switch decoder.decode(&units) {
        case .scalarValue(let scalar): count(scalar.value)
        case .error: count(0xFFFD)
        case .emptyInput: return
        }
      }
    }

    private mutating func count(_ value: UInt32) {
      if value == 0x0A {
        line += 1
        column = 0
        return
      }
      column += 1
      guard !XMLCharacterAudit.isXMLCharacter(value) else { return }
      if summary.first == nil { summary.first = Finding(scalar: value, line: line, column: column) }
      summary.count += 1
    }
  }

  /// `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
  private static func isXMLCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }
}
