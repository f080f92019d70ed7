/// Streaming base64 encoding (RFC 4648: `A–Z a–z 0–9 + /`, padded with `=`, no line breaks):
/// bytes go in chunk by chunk, of any sizes, and the text comes out in pieces, the same text as
/// one call over all the bytes would make.
///
/// ```swift
/// var encoder = Base64Encoder()
/// try encoder.encode(chunk) { output.append(contentsOf: $0) }
/// try encoder.finish { output.append(contentsOf: $0) }
/// ```
///
/// Each group of three bytes is two lookups in a table of the 4,096 pairs of digits. The one
/// or two bytes at the end of a chunk that do not fill a group wait for the next chunk. After
/// ``finish(into:)`` the encoder starts a new text.
package struct Base64Encoder {
  /// The bytes carried over to the next chunk (at most two), and how many there are.
  private var carried: (UInt8, UInt8) = (0, 0)
  private var carriedCount = 0
  /// Where the text of a chunk is made before it is handed on.
  private var output: [UInt8] = []

  /// The largest piece of text handed to a sink at once.
  private static let pieceBytes = 1 << 16

  /// A new encoder.
  package init() {}

  /// Encodes `bytes` after those given before, handing the text made to `sink`.
  package mutating func encode(
    _ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard !bytes.isEmpty else { return }
    var rest = bytes[...]
    // Complete the group begun in the previous chunk.
    while carriedCount > 0, let byte = rest.first {
      rest = rest.dropFirst()
      if carriedCount == 1 {
        carried.1 = byte
        carriedCount = 2
      } else {
        output.removeAll(keepingCapacity: true)
        Self.appendGroup(carried.0, carried.1, byte, to: &output)
        carriedCount = 0
        try output.withUnsafeBytes { try sink($0) }
      }
    }
    // Whole groups, a piece at a time.
    let groupsPerPiece = Self.pieceBytes / 4
    while rest.count >= 3 {
      let groups = min(rest.count / 3, groupsPerPiece)
      let input = UnsafeRawBufferPointer(rebasing: rest.prefix(groups * 3))
      output.removeAll(keepingCapacity: true)
      output.append(contentsOf: repeatElement(0, count: groups * 4))
      output.withUnsafeMutableBytes { text in Self.encodeGroups(input, into: text) }
      try output.withUnsafeBytes { try sink($0) }
      rest = rest.dropFirst(groups * 3)
    }
    for byte in rest {
      if carriedCount == 0 { carried.0 = byte } else { carried.1 = byte }
      carriedCount += 1
    }
  }

  /// Ends the text: the bytes left over, padded, go to `sink`.
  package mutating func finish(into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    defer { carriedCount = 0 }
    guard carriedCount > 0 else { return }
    let value = UInt32(carried.0) << 16 | (carriedCount == 2 ? UInt32(carried.1) << 8 : 0)
    let digits = Self.digits
    var text: [UInt8] = [digits[Int(value >> 18)], digits[Int(value >> 12 & 0x3F)], 0x3D, 0x3D]
    if carriedCount == 2 { text[2] = digits[Int(value >> 6 & 0x3F)] }
    try text.withUnsafeBytes { try sink($0) }
  }

  /// The 64 digits, by value.
  private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The two digits of each 12-bit value, as they lie in memory (first digit first).
  private static let digitPairs: [UInt16] = (0..<4096).map { value in
    let pair = [digits[value >> 6], digits[value & 0x3F]]
    return pair.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
  }

  /// Encodes the whole groups of `input` (its count a multiple of 3) into `text` (4 bytes a group).
  private static func encodeGroups(_ input: UnsafeRawBufferPointer, into text: UnsafeMutableRawBufferPointer) {
    digitPairs.withUnsafeBufferPointer { pairs in
      var inputOffset = 0
      var textOffset = 0
      while inputOffset + 3 <= input.count {
        let value =
          Int(input[inputOffset]) << 16 | Int(input[inputOffset + 1]) << 8 | Int(input[inputOffset + 2])
        text.storeBytes(of: pairs[value >> 12], toByteOffset: textOffset, as: UInt16.self)
        text.storeBytes(of: pairs[value & 0xFFF], toByteOffset: textOffset + 2, as: UInt16.self)
        inputOffset += 3
        textOffset += 4
      }
    }
  }

  private static func appendGroup(_ first: UInt8, _ second: UInt8, _ third: UInt8, to text: inout [UInt8]) {
    let value = Int(first) << 16 | Int(second) << 8 | Int(third)
    text.append(digits[value >> 18])
    text.append(digits[value >> 12 & 0x3F])
    text.append(digits[value >> 6 & 0x3F])
    text.append(digits[value & 0x3F])
  }
}
