import DeckCore
import DeckIO
import JSONCore

/// Writes JSON text into a file as it is made: ``JSONValue``s and the pieces of ``JSONWriter``
/// (indented two spaces a level, `"key": value`, UTF-8, no escaped slashes), emptied into the
/// sink whenever enough has gathered, and each media file's base64 streamed straight from its
/// blob, so no media file is ever held in memory whole.
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

  /// The blob's bytes as one base64 string, encoded chunk by chunk straight into the buffer
  /// (the one or two bytes that do not fill a group of three wait for the next chunk).
  mutating func appendBase64(_ blob: MediaBlob) throws {
    json.bytes.append(UInt8(ascii: "\""))
    var carry: (UInt8, UInt8) = (0, 0)
    var carried = 0
    try blob.forEachChunk { chunk in
      var index = 0
      // Complete a group begun in the previous chunk.
      while carried > 0 && carried < 3 && index < chunk.count {
        if carried == 1 {
          carry.1 = chunk[index]
        } else {
          Self.encodeGroup(carry.0, carry.1, chunk[index], into: &json.bytes)
        }
        carried = carried == 1 ? 2 : 0
        index += 1
      }
      let whole = (chunk.count - index) / 3 * 3
      var position = index
      if whole > 0, let input = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) {
        let start = json.bytes.count
        json.bytes.append(contentsOf: repeatElement(0, count: whole / 3 * 4))
        json.bytes.withUnsafeMutableBufferPointer { output in
          Self.base64Digits.withUnsafeBufferPointer { digits in
            var out = start
            while position < index + whole {
              let value = UInt32(input[position]) << 16 | UInt32(input[position + 1]) << 8 | UInt32(input[position + 2])
              output[out] = digits[Int(value >> 18 & 0x3F)]
              output[out + 1] = digits[Int(value >> 12 & 0x3F)]
              output[out + 2] = digits[Int(value >> 6 & 0x3F)]
              output[out + 3] = digits[Int(value & 0x3F)]
              out += 4
              position += 3
            }
          }
        }
      }
      // Keep what is left (at most two bytes) for the next chunk.
      while position < chunk.count {
        if carried == 0 { carry.0 = chunk[position] } else { carry.1 = chunk[position] }
        carried += 1
        position += 1
      }
      try flushIfFull()
    }
    switch carried {
    case 1:
      let value = UInt32(carry.0) << 16
      json.bytes.append(Self.base64Digits[Int(value >> 18 & 0x3F)])
      json.bytes.append(Self.base64Digits[Int(value >> 12 & 0x3F)])
      json.bytes.append(UInt8(ascii: "="))
      json.bytes.append(UInt8(ascii: "="))
    case 2:
      let value = UInt32(carry.0) << 16 | UInt32(carry.1) << 8
      json.bytes.append(Self.base64Digits[Int(value >> 18 & 0x3F)])
      json.bytes.append(Self.base64Digits[Int(value >> 12 & 0x3F)])
      json.bytes.append(Self.base64Digits[Int(value >> 6 & 0x3F)])
      json.bytes.append(UInt8(ascii: "="))
    default: break
    }
    json.bytes.append(UInt8(ascii: "\""))
  }

  private static let base64Digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  @inline(__always)
  private static func encodeGroup(_ a: UInt8, _ b: UInt8, _ c: UInt8, into buffer: inout [UInt8]) {
    let value = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    buffer.append(base64Digits[Int(value >> 18 & 0x3F)])
    buffer.append(base64Digits[Int(value >> 12 & 0x3F)])
    buffer.append(base64Digits[Int(value >> 6 & 0x3F)])
    buffer.append(base64Digits[Int(value & 0x3F)])
  }
}
