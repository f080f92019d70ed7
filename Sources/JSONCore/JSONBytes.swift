import CVectorText

/// The byte-level pieces of JSON's grammar that the parser (``JSONParser``) and streaming passes
/// over large documents share: white space, numbers, escapes, well-formed UTF-8, fast runs of
/// plain string text, and line and column of an offset.
///
/// Every function reads only inside `bytes` and reports what it found; none traps on any input.
package enum JSONBytes {
  /// A one-character escape (`\n`) standing for a byte, or a `\u` escape of one UTF-16 code unit
  /// (possibly a surrogate).
  package enum Escape: Sendable, Equatable {
    /// The byte the escape stands for.
    case byte(UInt8)
    /// The code unit of a `\u` escape.
    case unit(UInt32)
  }

  /// Scans the number that starts at `start` (a `-` or a digit), by JSON's grammar.
  ///
  /// - Returns: where it ends, and whether it is an integer (no fraction or exponent).
  /// - Throws: ``JSONSyntaxError`` for a number JSON does not allow.
  package static func scanNumber(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(JSONSyntaxError)
    -> (end: Int, isInteger: Bool)
  {
    var index = start
    var isInteger = true
    func digits(after part: JSONSyntaxProblem.NumberPart) throws(JSONSyntaxError) {
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONSyntaxError(.expectedDigit(after: part), at: index, in: bytes)
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw JSONSyntaxError(.leadingZero, at: start, in: bytes) }
    } else {
      try digits(after: .sign)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      try digits(after: .decimalPoint)
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      try digits(after: .exponent)
    }
    return (index, isInteger)
  }

  /// Scans the escape whose backslash is at `backslash`, in the string whose opening quote is
  /// at `openingQuote`.
  ///
  /// - Returns: what it stands for, and where the string goes on.
  /// - Throws: ``JSONSyntaxError`` for an escape JSON does not know, or a string cut short.
  package static func scanEscape(_ bytes: UnsafeRawBufferPointer, at backslash: Int, openingQuote: Int)
    throws(JSONSyntaxError) -> (escape: Escape, next: Int)
  {
    let index = backslash + 1
    guard index < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: openingQuote, in: bytes) }
    switch bytes[index] {
    case UInt8(ascii: "\""): return (.byte(0x22), index + 1)
    case UInt8(ascii: "\\"): return (.byte(0x5C), index + 1)
    case UInt8(ascii: "/"): return (.byte(0x2F), index + 1)
    case UInt8(ascii: "b"): return (.byte(0x08), index + 1)
    case UInt8(ascii: "f"): return (.byte(0x0C), index + 1)
    case UInt8(ascii: "n"): return (.byte(0x0A), index + 1)
    case UInt8(ascii: "r"): return (.byte(0x0D), index + 1)
    case UInt8(ascii: "t"): return (.byte(0x09), index + 1)
    case UInt8(ascii: "u"):
      var value: UInt32 = 0
      for offset in 1...4 {
        guard index + offset < bytes.count, let digit = hexValue(bytes[index + offset]) else {
          throw JSONSyntaxError(.badUnicodeEscape, at: index, in: bytes)
        }
        value = value << 4 | digit
      }
      return (.unit(value), index + 5)
    default: throw JSONSyntaxError(.unknownEscape, at: backslash, in: bytes)
    }
  }

  /// Scans string content from `start` to the closing quote or the next backslash, checking
  /// that it holds no raw control character and only well-formed UTF-8.
  ///
  /// - Returns: the offset of the quote or backslash, and whether it is the quote.
  /// - Throws: ``JSONSyntaxError`` for a control character, a byte that is not UTF-8, or no
  ///   closing quote (reported at `openingQuote`).
  package static func scanStringText(_ bytes: UnsafeRawBufferPointer, from start: Int, openingQuote: Int)
    throws(JSONSyntaxError) -> (stop: Int, isQuote: Bool)
  {
    var index = start
    while true {
      index = plainRunEnd(bytes, from: index)
      guard index < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: openingQuote, in: bytes) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return (index, byte == UInt8(ascii: "\"")) }
      if byte < 0x20 { throw JSONSyntaxError(.controlCharacter(byte), at: index, in: bytes) }
      let length = UTF8Sequence.length(in: bytes, at: index)
      guard length > 0 else { throw JSONSyntaxError(.notUTF8(byte), at: index, in: bytes) }
      index += length
    }
  }

  /// Scans what follows an array element or object member at `start`: white space, then a
  /// comma and more white space, or the `closing` byte.
  ///
  /// - Returns: where the next element starts, or the offset after `closing` (then `ends`).
  /// - Throws: ``JSONSyntaxError`` with `problem` when neither follows.
  package static func scanListContinuation(
    _ bytes: UnsafeRawBufferPointer, from start: Int, closing: UInt8, orElse problem: JSONSyntaxProblem
  ) throws(JSONSyntaxError) -> (next: Int, ends: Bool) {
    let index = whitespaceEnd(bytes, from: start)
    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { return (whitespaceEnd(bytes, from: index + 1), false) }
    guard index < bytes.count, bytes[index] == closing else { throw JSONSyntaxError(problem, at: index, in: bytes) }
    return (index + 1, true)
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

  /// The offset of the first byte at or after `start` that is a quote, a backslash, a control
  /// character or not ASCII (or the end): the run of string text that needs no closer look.
  package static func plainRunEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard let base = bytes.baseAddress, start >= 0 else { return max(start, 0) }
    let end = bytes.count
    // Most of a long run with vector instructions; what they leave (a byte that ends the run,
    // or the last few bytes) is looked at here.
    var position = deckport_json_plain_run_end(base.assumingMemoryBound(to: UInt8.self), start, end)
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

  /// Where the value at `start` ends, found by its structure alone (strings, with the byte after
  /// each backslash stepped over, and brackets counted; nothing else looked at), so that a value
  /// somebody checks later can be stepped over fast. Of valid JSON it gives the value's end; of
  /// anything else some end, which that check must judge. Nil when the bytes end first, the
  /// value starts with a comma, colon or closing bracket, or (unless `acceptingEscapes`) a
  /// string holds an escape.
  package static func structuralEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, acceptingEscapes: Bool)
    -> Int?
  {
    guard let base = bytes.baseAddress, start >= 0 else { return nil }
    let end = deckport_json_structural_end(
      base.assumingMemoryBound(to: UInt8.self), start, bytes.count, acceptingEscapes ? 1 : 0)
    return end < 0 ? nil : end
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
