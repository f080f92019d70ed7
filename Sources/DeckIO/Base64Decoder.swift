import CVectorText

/// Standard base64 (RFC 4648, `A–Z a–z 0–9 + /`, `=` padding), decoded with vector instructions
/// (`CVectorText`) and by table: no white space, no other characters, padding only in the last
/// group of the whole text.
package enum Base64Decoder {
  /// Two tables of 65,536 entries, one for the first two characters of a group of four and one
  /// for the last two, indexed by the two bytes (the first in the low byte): each pair's twelve
  /// bits already shifted to their place in the group's 24 bits, so that a group decodes with
  /// two lookups and an OR. A pair with a character that is not base64 sets bit 31.
  private static let pairTables: [UInt32] = {
    var values = [Int](repeating: -1, count: 256)
    for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      values[Int(character)] = value
    }
    var tables = [UInt32](repeating: invalid, count: 2 * 65_536)
    for first in 0..<256 where values[first] >= 0 {
      for second in 0..<256 where values[second] >= 0 {
        let bits = UInt32(values[first] << 6 | values[second])
        tables[first | second << 8] = bits << 12
        tables[65_536 + (first | second << 8)] = bits
      }
    }
    return tables
  }()

  private static let invalid: UInt32 = 1 << 31

  /// Decodes `text` (a multiple of four characters) into `output` (room for three bytes per
  /// four characters) and returns the number of bytes, or nil when it is not base64. Padding
  /// is accepted only when `isLast` (the text ends the whole encoding). With `canonical`, the
  /// bits a padded group leaves unused must be zero, so that the text is the one encoding of
  /// its bytes (`QQ==`, not `QR==`), as `Data.base64EncodedString()` would write it.
  package static func decode(
    _ text: UnsafeRawBufferPointer, isLast: Bool, canonical: Bool = false, into output: UnsafeMutableRawBufferPointer
  ) -> Int? {
    guard text.count % 4 == 0 else { return nil }
    guard let input = text.baseAddress, let out = output.baseAddress else { return 0 }
    let groups = text.count / 4
    guard output.count >= groups * 3 else { return nil }
    return pairTables.withUnsafeBufferPointer { tables -> Int? in
      guard let table = tables.baseAddress else { return nil }
      /// The 24 bits of a group from its four characters (the first in the low byte).
      func group(_ characters: UInt32) -> UInt32 {
        table[Int(characters & 0xFFFF)] | table[65_536 &+ Int(characters &>> 16)]
      }
      // Whole blocks of 32 characters with vector instructions where the processor has them
      // (they stop before padding or anything that is not base64); the rest here. The vector
      // code writes up to 4 bytes past a block's 24, so it leaves the last block here when
      // `output` has no room for them.
      let vectorText = output.count >= groups * 3 + 4 ? text.count : max(text.count - 32, 0)
      let vectorised = deckport_base64_decode_blocks(
        input.assumingMemoryBound(to: UInt8.self), vectorText, out.assumingMemoryBound(to: UInt8.self))
      var index = vectorised / 4
      var written = index * 3
      // Two groups at a time while another follows them: their six bytes are stored as eight,
      // the last two overwritten later.
      while index &+ 3 <= groups {
        let characters = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index &* 4, as: UInt64.self))
        let first = group(UInt32(truncatingIfNeeded: characters))
        let second = group(UInt32(truncatingIfNeeded: characters &>> 32))
        guard (first | second) & invalid == 0 else { return nil }
        out.storeBytes(
          of: (UInt64(first) &<< 40 | UInt64(second) &<< 16).bigEndian, toByteOffset: written, as: UInt64.self)
        written &+= 6
        index &+= 2
      }
      // The last one or two groups, the very last of which may end with padding ("xx==" or
      // "xxx=") when it ends the whole text.
      while index < groups {
        let characters = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
        var value = group(characters)
        var count = 3
        if value & invalid != 0 {
          let pad = UInt32(UInt8(ascii: "="))
          guard isLast, index == groups - 1, characters &>> 24 == pad else { return nil }
          if (characters &>> 16) & 0xFF == pad {
            value = table[Int(characters & 0xFFFF)]
            count = 1
          } else {
            // The third character alone: paired with "A", which is zero.
            let third = (characters &>> 16) & 0xFF | UInt32(UInt8(ascii: "A")) << 8
            value = table[Int(characters & 0xFFFF)] | table[65_536 &+ Int(third)]
            count = 2
          }
          guard value & invalid == 0 else { return nil }
          if canonical, value & (count == 1 ? 0xFFFF : 0xFF) != 0 { return nil }
        }
        for place in 0..<count {
          out.storeBytes(
            of: UInt8(truncatingIfNeeded: value &>> (16 - 8 * place)), toByteOffset: written &+ place, as: UInt8.self)
        }
        written &+= count
        index &+= 1
      }
      return written
    }
  }
}
