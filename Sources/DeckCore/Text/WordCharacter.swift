/// Rust's `\w` on UTF-8 bytes, for the word boundaries (`\b`) of Anki's regular expressions:
/// a character that is alphabetic, a mark, a decimal digit, connector punctuation or a join
/// control (Unicode's definition, which Rust's `regex` follows).
package enum WordCharacter {
  /// Whether the character starting at `start` of `bytes` (well-formed UTF-8) is a word
  /// character; false at the end.
  package static func starts(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard start >= 0, start < bytes.count else { return false }
    let lead = bytes[start]
    if lead < 0x80 { return isWord(Unicode.Scalar(lead)) }
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    guard start + length <= bytes.count else { return false }
    var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for offset in 1..<length { value = value << 6 | UInt32(bytes[start + offset] & 0x3F) }
    return Unicode.Scalar(value).map(isWord) ?? false
  }

  /// Whether the character ending just before `end` is a word character; false at the start.
  package static func ends(at end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard end > 0, end <= bytes.count else { return false }
    var start = end - 1
    while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return starts(at: start, in: bytes)
  }

  /// Whether `scalar` is in `\w`.
  package static func isWord(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let value = scalar.value
      return (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A) || value == 0x5F
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
    default: return properties.isAlphabetic || properties.isJoinControl
    }
  }
}
