/// A line and column in CSV text, moved forward one byte at a time.
///
/// Lines break at `\r\n`, `\n` and `\r` (a `\n` right after `\r` is the same break); columns
/// count characters, so only the first byte of a UTF-8 sequence moves the column.
struct CSVTextPosition {
  /// The 1-based line.
  var line: Int
  /// The 1-based column, in characters.
  var column: Int
  /// Whether the last byte was `\r`, so that a following `\n` ends no further line.
  private var lastWasCR = false

  /// A position at `line` and `column`, not right after a `\r`.
  init(line: Int = 1, column: Int = 1) {
    self.line = line
    self.column = column
  }

  /// Moves past `byte`.
  @inline(__always)
  mutating func advance(past byte: UInt8) {
    if byte == CSVTextPosition.lineFeed {
      if !lastWasCR {
        line += 1
        column = 1
      }
    } else if byte == CSVTextPosition.carriageReturn {
      line += 1
      column = 1
    } else if byte & 0xC0 != 0x80 {
      column += 1
    }
    lastWasCR = byte == CSVTextPosition.carriageReturn
  }

  /// The line feed byte, `\n`.
  static let lineFeed: UInt8 = 0x0A
  /// The carriage return byte, `\r`.
  static let carriageReturn: UInt8 = 0x0D
}
