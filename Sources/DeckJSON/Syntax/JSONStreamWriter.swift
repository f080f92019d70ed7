import DeckCore
import DeckIO
import JSONCore

/// Writes JSON text into a file as it is made: ``JSONValue``s and the pieces of ``JSONWriter``
/// (indented two spaces a level, `"key": value`, UTF-8, no escaped slashes), emptied into the
/// sink whenever enough has gathered, and each media file's base64 streamed straight from the
/// workers that encode it, so no media file is ever held in memory whole.
///
/// ``DeckJSONWriter`` writes the many notes, cards and reviews of a deck through its pieces, in
/// exactly the layout a whole document value would have, without building one.
struct JSONStreamWriter {
  private let sink: FileSink
  /// The text not yet written to the sink.
  private(set) var json = JSONWriter(layout: .indented(spaces: 2))
  private static let flushThreshold = 1 << 16

  /// A writer into `sink`.
  init(sink: FileSink) {
    self.sink = sink
    json.bytes.reserveCapacity(Self.flushThreshold * 2)
  }

  /// Writes `value` and a final newline, then flushes.
  mutating func write(_ value: JSONValue) throws {
    json.write(value)
    json.append(byte: 0x0A)
    try flush()
  }

  /// Writes `value` with its nested lines one level deeper than `indent`.
  mutating func write(_ value: JSONValue, indent: Int) throws {
    json.write(value, indent: indent)
    try flushIfFull()
  }

  /// See ``JSONWriter/newline(_:)``.
  mutating func newline(_ indent: Int) { json.newline(indent) }

  /// See ``JSONWriter/append(_:)``.
  mutating func append(_ text: String) { json.append(text) }

  /// See ``JSONWriter/append(byte:)``.
  mutating func append(byte: UInt8) { json.append(byte: byte) }

  /// See ``JSONWriter/appendNumber(_:)``.
  mutating func appendNumber(_ number: Int64) { json.appendNumber(number) }

  /// See ``JSONWriter/appendNumber(_:)``.
  mutating func appendNumber(_ number: Int) { json.appendNumber(Int64(number)) }

  /// See ``JSONWriter/appendKey(_:indent:)``.
  mutating func appendKey(_ key: String, indent: Int) { json.appendKey(key, indent: indent) }

  /// See ``JSONWriter/appendString(_:)``.
  mutating func appendString(_ text: String) { json.appendString(text) }

  /// Writes the text out once enough has gathered.
  mutating func flushIfFull() throws {
    if json.bytes.count >= Self.flushThreshold { try flush() }
  }

  /// Writes out the text gathered so far.
  mutating func flush() throws {
    guard !json.bytes.isEmpty else { return }
    try json.bytes.withUnsafeBytes { try sink.write($0) }
    json.bytes.removeAll(keepingCapacity: true)
  }

  /// The text `source` gives, between quotes, copied straight into the sink: text that needs
  /// no escaping, such as a media file's base64 made by ``MediaWorkers``.
  mutating func appendUnescapedString(from source: any ZipMemberSource) throws {
    defer { source.close() }
    _ = try source.open()
    json.bytes.append(UInt8(ascii: "\""))
    try flush()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.flushThreshold, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { break }
      try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    json.bytes.append(UInt8(ascii: "\""))
  }
}
