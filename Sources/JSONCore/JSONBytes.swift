/// The byte-level pieces of JSON's grammar that the parser (``JSONParser``) and streaming passes
/// over large documents share: white space, numbers, escapes, well-formed UTF-8, fast runs of
/// plain string text, and line and column of an offset.
///
/// Every function reads only inside `bytes` and reports what it found; none traps on any input.
package enum JSONBytes {
  /// What ``scanNumber(_:from:)`` found.
  package enum NumberScan: Sendable, Equatable {
    /// A number ending before `end`; `isInteger` when it has neither fraction nor exponent.
    case number(end: Int, isInteger: Bool)
    /// Not a valid number: the problem and the offset to report it at.
    case invalid(JSONSyntaxProblem, at: Int)
  }

  /// What ``scanEscape(_:at:)`` found.
  package enum EscapeScan: Sendable, Equatable {
    /// A one-character escape (`\n`) standing for `byte`; the string goes on at `next`.
    case byte(UInt8, next: Int)
    /// A `\u` escape of one UTF-16 code unit (possibly a surrogate); the string goes on at `next`.
    case unit(UInt32, next: Int)
    /// Not a valid escape: the problem and the offset to report it at.
    case invalid(JSONSyntaxProblem, at: Int)
  }

  /// Whether `byte` is JSON white space (space, tab, line feed, carriage return).
  @inline(__always)
  package static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Whether `byte` is an ASCII digit.
  @inline(__always)
  package static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// The value of a hexadecimal digit, or nil.
  @inline(__always)
  package static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: UInt32(byte - 0x30)
    case 0x41...0x46: UInt32(byte - 0x41 + 10)
    case 0x61...0x66: UInt32(byte - 0x61 + 10)
    default: nil
    }
  }

  /// The hexadecimal digit for `nibble` (0 to 15).
  @inline(__always)
  package static func hexDigit(_ nibble: UInt8, uppercase: Bool = false) -> UInt8 {
    let value = nibble & 0xF
    return value < 10 ? 0x30 + value : (uppercase ? 0x41 : 0x61) + value - 10
  }

  /// The hexadecimal digit for `nibble` (0 to 15), as text.
  package static func hex(_ nibble: UInt8, uppercase: Bool = false) -> String {
    String(UnicodeScalar(hexDigit(nibble, uppercase: uppercase)))
  }

  /// The offset of the first byte at or after `start` that is not white space (or the end).
  @inline(__always)
  package static func whitespaceEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    var position = start
    while position < bytes.count, isWhitespace(bytes[position]) { position &+= 1 }
    return position
  }

  /// Scans the number that starts at `start` (a `-` or a digit), by JSON's grammar.
  package static func scanNumber(_ bytes: UnsafeRawBufferPointer, from start: Int) -> NumberScan {
    var index = start
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { return .invalid(.expectedDigit(after: .sign), at: index) }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { return .invalid(.leadingZero, at: start) }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        return .invalid(.expectedDigit(after: .decimalPoint), at: index)
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else {
        return .invalid(.expectedDigit(after: .exponent), at: index)
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    return .number(end: index, isInteger: isInteger)
  }

  /// Scans the escape whose backslash is at `backslash`.
  package static func scanEscape(_ bytes: UnsafeRawBufferPointer, at backslash: Int) -> EscapeScan {
    let index = backslash + 1
    guard index < bytes.count else { return .invalid(.unterminatedString, at: backslash) }
    switch bytes[index] {
    case UInt8(ascii: "\""): return .byte(0x22, next: index + 1)
    case UInt8(ascii: "\\"): return .byte(0x5C, next: index + 1)
    case UInt8(ascii: "/"): return .byte(0x2F, next: index + 1)
    case UInt8(ascii: "b"): return .byte(0x08, next: index + 1)
    case UInt8(ascii: "f"): return .byte(0x0C, next: index + 1)
    case UInt8(ascii: "n"): return .byte(0x0A, next: index + 1)
    case UInt8(ascii: "r"): return .byte(0x0D, next: index + 1)
    case UInt8(ascii: "t"): return .byte(0x09, next: index + 1)
    case UInt8(ascii: "u"):
      var value: UInt32 = 0
      for offset in 1...4 {
        guard index + offset < bytes.count, let digit = hexValue(bytes[index + offset]) else {
          return .invalid(.badUnicodeEscape, at: index)
        }
        value = value << 4 | digit
      }
      return .unit(value, next: index + 5)
    default: return .invalid(.unknownEscape, at: backslash)
    }
  }

  /// The length of the well-formed UTF-8 sequence starting at `offset` (2 to 4), or 0 when the
  /// bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a value
  /// above U+10FFFF, or a sequence cut short).
  package static func utf8SequenceLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    guard offset >= 0, offset < bytes.count else { return 0 }
    let lead = bytes[offset]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return 0
    }
    guard offset + length <= bytes.count else { return 0 }
    let second = bytes[offset + 1]
    guard second >= low, second <= high else { return 0 }
    for next in 2..<length where bytes[offset + next] & 0xC0 != 0x80 { return 0 }
    return length
  }

  /// The offset of the first byte at or after `start` that is a quote, a backslash, a control
  /// character or not ASCII (or the end): the run of string text that needs no closer look.
  package static func plainRunEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard let base = bytes.baseAddress, start >= 0 else { return max(start, 0) }
    var position = start
    let end = bytes.count
    // Eight bytes at a time: a word holds none of the bytes sought when no byte has its high
    // bit set, none is below 0x20, and none equals '"' or '\\' (the classic "has zero byte"
    // test on the word and on its XOR with each of those).
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let bytePointer = base.assumingMemoryBound(to: UInt8.self)
    while position &+ 8 <= end {
      let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let hasQuote = (quote &- ones) & ~quote
      let hasBackslash = (backslash &- ones) & ~backslash
      let hasControl = (word &- ones &* 0x20) & ~word
      if (word | hasQuote | hasBackslash | hasControl) & highs != 0 {
        // Something in this word (or a false alarm): look at its bytes one by one.
        for offset in 0..<8 {
          let byte = bytePointer[position &+ offset]
          if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return position &+ offset }
        }
      }
      position &+= 8
    }
    while position < end {
      let byte = bytePointer[position]
      if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return position }
      position &+= 1
    }
    return position
  }

  /// Whether `word` (ASCII) is at `offset`.
  package static func hasWord(_ word: StaticString, in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
    word.withUTF8Buffer { text in
      offset >= 0 && offset + text.count <= bytes.count
        && bytes[offset..<(offset + text.count)].elementsEqual(text)
    }
  }

  /// The 1-based line and column of `offset` (columns counted in characters, as editors show them).
  package static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
    let end = max(0, min(offset, bytes.count))
    var line = 1
    var lineStart = 0
    for position in 0..<end where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    let column = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self).count + 1
    return (line, column)
  }
}
