import DeckCore
import DeckIO
import Foundation

/// Writes a ``JSONTree`` as indented JSON text (two spaces, `"key": value`, UTF-8, no escaped
/// slashes), streaming each media file's base64 straight from its blob so no media file is ever
/// held in memory whole.
///
/// Its pieces (``newline(_:)``, ``appendKey(_:indent:)``, ``appendString(_:)``,
/// ``appendNumber(_:)``) also let ``DeckJSONWriter`` write the many notes, cards and reviews
/// of a deck directly, in exactly the layout a tree would have, without building one.
struct JSONTreeWriter {
  private let sink: FileSink
  private var buffer: [UInt8] = []
  private static let flushThreshold = 1 << 16

  init(sink: FileSink) {
    self.sink = sink
    buffer.reserveCapacity(Self.flushThreshold * 2)
  }

  /// Writes `tree` and a final newline, then flushes.
  mutating func write(_ tree: JSONTree) throws {
    try write(tree, indent: 0)
    buffer.append(0x0A)
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
        append(": ")
        try write(entry.value, indent: indent + 1)
        if index < entries.count - 1 { buffer.append(UInt8(ascii: ",")) }
      }
      newline(indent)
      buffer.append(UInt8(ascii: "}"))
    }
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  mutating func newline(_ indent: Int) {
    buffer.append(0x0A)
    buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
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

  /// The blob's bytes as one base64 string, encoded chunk by chunk (each a multiple of 3 bytes
  /// but the last, so the pieces join into one valid encoding).
  private mutating func appendBase64(_ blob: MediaBlob) throws {
    buffer.append(UInt8(ascii: "\""))
    var pending = Data()
    try blob.forEachChunk { chunk in
      pending.append(contentsOf: chunk)
      let whole = pending.count - pending.count % 3
      guard whole >= 3 * 16384 else { return }
      buffer.append(contentsOf: pending.prefix(whole).base64EncodedData())
      pending.removeFirst(whole)
      if buffer.count >= Self.flushThreshold { try flush() }
    }
    buffer.append(contentsOf: pending.base64EncodedData())
    buffer.append(UInt8(ascii: "\""))
  }

  mutating func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try sink.write($0) }
    buffer.removeAll(keepingCapacity: true)
  }
}
