/// Well-formed UTF-8 as Unicode defines it (no overlong forms, no surrogates, nothing above
/// U+10FFFF), checked one sequence at a time: the one check the JSON and CSV readers share.
package enum UTF8Sequence {
  /// The length of the well-formed UTF-8 sequence starting at `offset` (2 to 4), or 0 when the
  /// bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a value
  /// above U+10FFFF, or a sequence cut short).
  package static func length(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    guard offset >= 0, offset < bytes.count else { return 0 }
    let lead = bytes[offset]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return 0
    }
    guard offset + length <= bytes.count else { return 0 }
    let second = bytes[offset + 1]
    guard second >= low, second <= high else { return 0 }
    for next in 2..<length where bytes[offset + next] & 0xC0 != 0x80 { return 0 }
    return length
  }
}
