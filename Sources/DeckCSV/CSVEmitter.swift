import DeckCore
import DeckIO

/// Writes rows as CSV bytes, quoting exactly where Anki's own export quotes: a field that holds
/// the separator, `"`, `\r`, `\n` or `#` (anywhere; Anki's writer treats `#` as a comment mark)
/// is put in double quotes, with each `"` doubled. A row that is one empty field is written as
/// `""`, so it is not read back as an empty line. Lines end with `\n`; no byte order mark.
///
/// Bytes are collected in a buffer and handed to the sink in large chunks.
///
/// ```swift
/// try FileSink.writing(to: path) { sink in
///   var emitter = CSVEmitter(sink: sink, separator: .tab)
///   try emitter.writeLine("#separator:tab")
///   try emitter.writeRow(["a#b", "plain"])   // "a#b"<TAB>plain
///   try emitter.flush()
/// }
/// ```
package struct CSVEmitter {
  private let sink: FileSink
  /// The separator between fields.
  package let separator: CSVSeparator
  private var buffer: [UInt8] = []
  private static let flushThreshold = 1 << 16

  /// Creates an emitter writing to `sink`.
  package init(sink: FileSink, separator: CSVSeparator) {
    self.sink = sink
    self.separator = separator
    buffer.reserveCapacity(Self.flushThreshold + 4096)
  }

  /// Whether Anki's writer would quote `field` with this separator.
  package func needsQuotes(_ field: String) -> Bool {
    let separator = self.separator.byte
    return field.containsUTF8Byte {
      $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "#")
    }
  }

  /// Appends one row, fields quoted where needed, and a line feed.
  package mutating func writeRow(_ fields: [String]) throws {
    if fields.count == 1, fields[0].isEmpty {
      buffer += [UInt8(ascii: "\""), UInt8(ascii: "\"")]
    } else {
      for (index, field) in fields.enumerated() {
        if index > 0 { buffer.append(separator.byte) }
        append(field)
      }
    }
    buffer.append(0x0A)
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  /// Appends `text` as it is (a header line) and a line feed.
  package mutating func writeLine(_ text: String) throws {
    buffer += text.utf8
    buffer.append(0x0A)
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  /// Hands the buffered bytes to the sink.
  package mutating func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try sink.write($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The bytes of one field, quoted if needed.
  package func encoded(_ field: String) -> [UInt8] {
    var copy = self
    copy.buffer = []
    copy.append(field)
    return copy.buffer
  }

  private mutating func append(_ field: String) {
    guard needsQuotes(field) else {
      buffer += field.utf8
      return
    }
    buffer.append(UInt8(ascii: "\""))
    for byte in field.utf8 {
      if byte == UInt8(ascii: "\"") { buffer.append(byte) }
      buffer.append(byte)
    }
    buffer.append(UInt8(ascii: "\""))
  }
}
