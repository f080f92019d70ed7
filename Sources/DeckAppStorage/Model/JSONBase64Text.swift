import DeckIO
import Foundation
import JSONCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a long JSON string holds as base64, decoded from the file's text chunk by chunk into
/// ``SpilledBytes``, so that a JSON file of pictures is never held as strings and then again as
/// data.
package enum JSONBase64Text {
  /// The text decoded at a time: a multiple of four characters.
  private static let chunkCharacters = 1 << 16

  /// The bytes `unread` encodes when its text is canonical base64 (`A–Z a–z 0–9 + /`, `=`
  /// padding, no white space, unused bits zero: what `Data.base64EncodedString()` writes), with
  /// its slashes written as they are or as `\/` (as `JSONEncoder` writes them); nil for any other
  /// text, which the caller then reads as a string.
  package static func data(in unread: JSONUnreadString) -> Data? {
    try? SpilledBytes.bytes(size: Int64(unread.rawText.count / 4 * 3)) { emit in try decode(unread, into: emit) }
  }

  /// Whether `unread`'s text is the canonical base64 (as ``data(in:)`` reads it) of `bytes`,
  /// compared a chunk at a time, nothing decoded kept.
  package static func isEncoding(of bytes: Data, in unread: JSONUnreadString) -> Bool {
    bytes.withUnsafeBytes { expected in
      var offset = 0
      do {
        try decode(unread) { chunk in
          guard offset + chunk.count <= expected.count, let base = expected.baseAddress,
            let bytes = chunk.baseAddress, memcmp(base + offset, bytes, chunk.count) == 0
          else { throw NotBase64() }
          offset += chunk.count
        }
      } catch {
        return false
      }
      return offset == expected.count
    }
  }

  private struct NotBase64: Error {}

  /// Hands the bytes `unread` encodes to `emit` a chunk at a time.
  ///
  /// - Throws: ``NotBase64`` as soon as the text is not canonical base64 (or escapes anything
  ///   but a slash), and what `emit` throws.
  private static func decode(_ unread: JSONUnreadString, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
    let raw = unread.rawText
    var text = [UInt8](repeating: 0, count: chunkCharacters)
    var decoded = [UInt8](repeating: 0, count: chunkCharacters / 4 * 3 + 4)
    var filled = 0
    /// Decodes the whole groups of `text` (all of it when `isLast`, which must then be whole
    /// groups) and hands the bytes on; the characters of a group begun stay at the front.
    func decodeText(isLast: Bool) throws {
      let usable = filled - filled % 4
      guard !isLast || usable == filled else { throw NotBase64() }
      guard usable > 0 else { return }
      let produced = text.withUnsafeBytes { characters in
        decoded.withUnsafeMutableBytes { output in
          Base64Decoder.decode(
            UnsafeRawBufferPointer(rebasing: characters[0..<usable]), isLast: isLast, canonical: true, into: output)
        }
      }
      guard let produced else { throw NotBase64() }
      try decoded.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
      let left = filled - usable
      for place in 0..<left { text[place] = text[usable + place] }
      filled = left
    }
    var index = 0
    while index < raw.count {
      let copied = text.withUnsafeMutableBytes { characters in
        unescapingSlashes(raw, from: index, into: characters, at: filled)
      }
      index = copied.index
      filled = copied.filled
      if filled < text.count, index < raw.count {
        // Stopped at a backslash: only `\/` is base64.
        guard index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "/") else { throw NotBase64() }
        text[filled] = UInt8(ascii: "/")
        filled += 1
        index += 2
      }
      if filled == text.count, index < raw.count { try decodeText(isLast: false) }
    }
    try decodeText(isLast: true)
  }

  /// Copies `raw` from `index` into `text` from `filled` until `text` is full, `raw` ends, or a
  /// backslash comes (left for the caller); eight bytes at a time while none of them is one.
  private static func unescapingSlashes(
    _ raw: UnsafeRawBufferPointer, from index: Int, into text: UnsafeMutableRawBufferPointer, at filled: Int
  ) -> (index: Int, filled: Int) {
    guard let source = raw.baseAddress, let target = text.baseAddress else { return (index, filled) }
    var index = index
    var filled = filled
    let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
    while index + 8 <= raw.count, filled + 8 <= text.count {
      let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let match = word ^ backslashes
      // A zero byte in `match` is a backslash in `word`.
      guard (match &- 0x0101_0101_0101_0101) & ~match & 0x8080_8080_8080_8080 == 0 else { break }
      target.storeBytes(of: word, toByteOffset: filled, as: UInt64.self)
      index += 8
      filled += 8
    }
    while index < raw.count, filled < text.count {
      let byte = source.load(fromByteOffset: index, as: UInt8.self)
      if byte == 0x5C { break }
      target.storeBytes(of: byte, toByteOffset: filled, as: UInt8.self)
      index += 1
      filled += 1
    }
    return (index, filled)
  }
}
