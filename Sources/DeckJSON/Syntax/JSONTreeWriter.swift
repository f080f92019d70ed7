import DeckCore
import DeckIO
import Foundation

/// Writes a ``JSONTree`` as indented JSON text (two spaces, `"key": value`, UTF-8, no escaped
/// slashes), streaming each media file's base64 straight from its blob so no media file is ever
/// held in memory whole.
///
/// ``layout`` chooses another indentation, or compact text on one line (`{"a":1,"b":[2]}`); with
/// four spaces and no final newline the text is what Python's `json.dumps(indent=4,
/// ensure_ascii=False)` writes, the layout of CrowdAnki's `deck.json`. Without a sink, the text is
/// kept in memory (``text``).
///
/// Its pieces (``newline(_:)``, ``appendKey(_:indent:)``, ``appendString(_:)``,
/// ``appendNumber(_:)``) also let `DeckJSONWriter` write the many notes, cards and reviews
/// of a deck directly, in exactly the layout a tree would have, without building one.
package struct JSONTreeWriter {
  /// How the text is laid out.
  package enum Layout: Sendable, Equatable {
    /// One member or element a line, indented by this many spaces a level, `"key": value`.
    case indented(spaces: Int)
    /// Everything on one line, no spaces: `{"a":1}`.
    case compact
  }

  private let sink: FileSink?
  private var buffer: [UInt8] = []
  private static let flushThreshold = 1 << 16
  /// The layout; two-space indentation unless set.
  package var layout: Layout = .indented(spaces: 2)

  /// A writer into `sink`.
  package init(sink: FileSink) {
    self.sink = sink
    buffer.reserveCapacity(Self.flushThreshold * 2)
  }

  /// A writer that keeps the text in memory, in ``text``.
  package init(layout: Layout) {
    self.sink = nil
    self.layout = layout
  }

  /// The text written so far, when the writer has no sink.
  package var text: [UInt8] { sink == nil ? buffer : [] }

  /// Writes `tree` and a final newline, then flushes.
  package mutating func write(_ tree: JSONTree) throws {
    try write(tree, finalNewline: true)
  }

  /// Writes `tree`, then a newline if `finalNewline`, then flushes.
  package mutating func write(_ tree: JSONTree, finalNewline: Bool) throws {
    try write(tree, indent: 0)
    if finalNewline { buffer.append(0x0A) }
    try flush()
  }

  mutating func write(_ tree: JSONTree, indent: Int) throws {
    switch tree {
    case .null: append("null")
    case .bool(let value): append(value ? "true" : "false")
    case .number(let text): append(text)
    case .string(let text): appendString(text)
    case .base64(let blob): try appendBase64(blob)
    case .array(let items):
      guard !items.isEmpty else { return append("[]") }
      buffer.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        newline(indent + 1)
        try write(item, indent: indent + 1)
        if index < items.count - 1 { buffer.append(UInt8(ascii: ",")) }
      }
      newline(indent)
      buffer.append(UInt8(ascii: "]"))
    case .object(let entries):
      guard !entries.isEmpty else { return append("{}") }
      buffer.append(UInt8(ascii: "{"))
      for (index, entry) in entries.enumerated() {
        newline(indent + 1)
        appendString(entry.key)
        append(layout == .compact ? ":" : ": ")
        try write(entry.value, indent: indent + 1)
        if index < entries.count - 1 { buffer.append(UInt8(ascii: ",")) }
      }
      newline(indent)
      buffer.append(UInt8(ascii: "}"))
    }
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  mutating func newline(_ indent: Int) {
    guard case .indented(let spaces) = layout else { return }
    buffer.append(0x0A)
    buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * spaces))
  }

  mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

  mutating func append(byte: UInt8) { buffer.append(byte) }

  /// A number, as the tree's `.number` writes it.
  mutating func appendNumber(_ number: Int64) { append(String(number)) }

  /// A number, as the tree's `.number` writes it.
  mutating func appendNumber(_ number: Int) { append(String(number)) }

  /// A new line at `indent`, then `"key": ` (the start of an object member).
  mutating func appendKey(_ key: String, indent: Int) {
    newline(indent)
    appendString(key)
    buffer.append(UInt8(ascii: ":"))
    buffer.append(UInt8(ascii: " "))
  }

  /// Writes the buffer out once it holds enough.
  mutating func flushIfFull() throws {
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// A JSON string: quotes, backslashes and control characters escaped; everything else as UTF-8.
  mutating func appendString(_ text: String) {
    buffer.append(UInt8(ascii: "\""))
    // Most text needs no escape: copy it whole, and look byte by byte only when it does.
    let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    if plain {
      buffer.append(contentsOf: text.utf8)
      buffer.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: buffer.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: buffer.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0..<0x20:
        buffer.append(contentsOf: Array("\\u00".utf8))
        buffer.append(Self.hexDigits[Int(byte >> 4)])
        buffer.append(Self.hexDigits[Int(byte & 0xF)])
      default: buffer.append(byte)
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// The blob's bytes as one base64 string, encoded chunk by chunk straight into the buffer
  /// (the one or two bytes that do not fill a group of three wait for the next chunk).
  private mutating func appendBase64(_ blob: MediaBlob) throws {
    buffer.append(UInt8(ascii: "\""))
    var carry: (UInt8, UInt8) = (0, 0)
    var carried = 0
    try blob.forEachChunk { chunk in
      var index = 0
      // Complete a group begun in the previous chunk.
      while carried > 0 && carried < 3 && index < chunk.count {
        if carried == 1 { carry.1 = chunk[index] } else { Self.encodeGroup(carry.0, carry.1, chunk[index], into: &buffer) }
        carried = carried == 1 ? 2 : 0
        index += 1
      }
      let whole = (chunk.count - index) / 3 * 3
      var position = index
      if whole > 0 {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: whole / 3 * 4))
        buffer.withUnsafeMutableBufferPointer { output in
          Self.base64Digits.withUnsafeBufferPointer { digits in
            var out = start
            let input = chunk.baseAddress!.assumingMemoryBound(to: UInt8.self)
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
      if buffer.count >= Self.flushThreshold { try flush() }
    }
    switch carried {
    case 1:
      let value = UInt32(carry.0) << 16
      buffer.append(Self.base64Digits[Int(value >> 18 & 0x3F)])
      buffer.append(Self.base64Digits[Int(value >> 12 & 0x3F)])
      buffer.append(UInt8(ascii: "="))
      buffer.append(UInt8(ascii: "="))
    case 2:
      let value = UInt32(carry.0) << 16 | UInt32(carry.1) << 8
      buffer.append(Self.base64Digits[Int(value >> 18 & 0x3F)])
      buffer.append(Self.base64Digits[Int(value >> 12 & 0x3F)])
      buffer.append(Self.base64Digits[Int(value >> 6 & 0x3F)])
      buffer.append(UInt8(ascii: "="))
    default: break
    }
    buffer.append(UInt8(ascii: "\""))
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

  mutating func flush() throws {
    guard let sink, !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try sink.write($0) }
    buffer.removeAll(keepingCapacity: true)
  }
}
