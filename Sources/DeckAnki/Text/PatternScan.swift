import DeckCore

/// The loop and the character tests shared by the byte scans that stand in for Anki's regular
/// expressions (``HTMLPatternScan``, ``BracketTagScan``, ``LaTeXScan``, ``UnderscoredNameScan``).
///
/// Each scan tries its pattern at each offset left to right, as Rust's `regex` finds
/// leftmost-first matches, and moves past a match when it finds one; with the searches for closing
/// delimiters remembered (``LiteralSearch``) the whole scan is linear in the text.
enum PatternScan {
  /// One match: where it starts and ends, and what the scan reports of it (a group, say).
  struct Match<Value> {
    let start: Int
    let end: Int
    let value: Value
  }

  /// The ASCII bytes a pattern's matches can start with, as a bit set tested once per byte.
  struct StartBytes: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// `bytes`, all ASCII (any other is left out).
    init(_ bytes: [UInt8]) {
      for byte in bytes where byte < 0x80 {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
      }
    }

    func contains(_ byte: UInt8) -> Bool {
      byte < 64 ? low >> UInt64(byte) & 1 == 1 : byte < 128 && high >> UInt64(byte - 64) & 1 == 1
    }
  }

  /// The matches in `bytes`, left to right and not overlapping: at each offset holding one of
  /// `startBytes`, `match` gives the end of a match starting there (and its value) or nil.
  static func matches<Value>(
    in bytes: UnsafeBufferPointer<UInt8>, startBytes: StartBytes, match: (Int) -> (end: Int, value: Value)?
  ) -> [Match<Value>] {
    var found: [Match<Value>] = []
    var index = 0
    while index < bytes.count {
      guard startBytes.contains(bytes[index]), let (end, value) = match(index), end > index else {
        index += 1
        continue
      }
      found.append(Match(start: index, end: end, value: value))
      index = end
    }
    return found
  }

  /// `text` without the matches `match` finds (see ``matches(in:startBytes:match:)``); `text`
  /// itself when there are none.
  static func removingMatches(
    in text: String, startBytes: StartBytes, match: (UnsafeBufferPointer<UInt8>, Int) -> Int?
  ) -> String {
    var bytesOfText = text
    let stripped = bytesOfText.withUTF8 { bytes -> String? in
      var output: [UInt8] = []
      var copied = 0
      var index = 0
      while index < bytes.count {
        guard startBytes.contains(bytes[index]), let end = match(bytes, index), end > index else {
          index += 1
          continue
        }
        if output.isEmpty { output.reserveCapacity(bytes.count) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
        copied = end
        index = end
      }
      guard copied > 0 else { return nil }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
      return String(decoding: output, as: UTF8.self)
    }
    return stripped ?? text
  }

  /// The number of bytes of the UTF-8 scalar whose first byte is `lead`.
  static func scalarLength(lead: UInt8) -> Int {
    switch lead {
    case 0xF0...: 4
    case 0xE0...: 3
    case 0xC0...: 2
    default: 1
    }
  }

  /// The end of the scalar starting at `index`, or nil at the end of `bytes`.
  static func scalarEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    guard index < bytes.count else { return nil }
    return min(index + scalarLength(lead: bytes[index]), bytes.count)
  }

  /// The length of the white space scalar at `index` (Rust's `\s`: Unicode's `White_Space`),
  /// or nil when none starts there.
  static func whiteSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    guard index < bytes.count else { return nil }
    let byte = bytes[index]
    if byte < 0x80 { return (0x09...0x0D).contains(byte) || byte == 0x20 ? 1 : nil }
    let length = scalarLength(lead: byte)
    guard length > 1, index + length <= bytes.count else { return nil }
    var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
    guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { return nil }
    return length
  }

  /// The start of the run of white space scalars that ends at `end` (`end` itself when none does).
  static func whiteSpaceRunStart(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int, notBefore lowerBound: Int)
    -> Int
  {
    var start = end
    while start > lowerBound {
      // Step back to the start of the previous scalar.
      var previous = start - 1
      while previous > lowerBound, bytes[previous] & 0xC0 == 0x80 { previous -= 1 }
      guard whiteSpaceLength(bytes, at: previous) == start - previous else { break }
      start = previous
    }
    return start
  }
}
