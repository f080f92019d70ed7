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
/// ```swift
/// if let first = XMLCharacterAudit.findings(in: data).first { print(first.line, first.column) }
/// ```
enum XMLCharacterAudit {
  /// A character XML 1.0 cannot hold, and where it is.
  struct Finding: Equatable {
    /// Its code point.
    var scalar: UInt32
    /// Its line, from 1.
    var line: Int
    /// Its column in the line, in characters, from 1.
    var column: Int

    /// `U+0001 at line 13, column 14`.
    var description: String { String(format: "U+%04X", scalar) + " at line \(line), column \(column)" }
  }

  /// Every character of the document in `data` (UTF-8, or UTF-16 after a byte order mark) that
  /// XML 1.0 cannot hold, in order.
  static func findings(in data: Data) -> [Finding] {
    var findings: [Finding] = []
    var line = 1
    var column = 0
    for scalar in text(of: data).unicodeScalars {
      if scalar == "\n" {
        line += 1
        column = 0
        continue
      }
      column += 1
      if !isXMLCharacter(scalar.value) { findings.append(Finding(scalar: scalar.value, line: line, column: column)) }
    }
    return findings
  }

  /// `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
  private static func isXMLCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }

  private static func text(of data: Data) -> String {
    let bytes = [UInt8](data)
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      let bigEndian = bytes[0] == 0xFE
      let units = stride(from: 2, to: bytes.count - 1, by: 2).map { position in
        let (first, second) = (UInt16(bytes[position]), UInt16(bytes[position + 1]))
        return bigEndian ? first << 8 | second : second << 8 | first
      }
      return String(decoding: units, as: UTF16.self)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
