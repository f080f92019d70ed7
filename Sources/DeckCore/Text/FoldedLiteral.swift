/// An ASCII literal of one of Anki's regular expressions, matched on UTF-8 bytes the way Rust's
/// `regex` crate matches it (DeckCore's ``HTMLMediaTags`` and DeckAnki's pattern scans).
///
/// Under `(?i)` Rust compares by Unicode simple case folding: a letter matches both its ASCII
/// cases and the two non-ASCII scalars that fold to an ASCII letter, the long s (`ſ`, U+017F) for
/// `s` and the Kelvin sign (U+212A) for `k`. Nothing else folds to ASCII (`ﬆ` is not `st`, `İ` is
/// not `i`), so these are all the byte sequences a folded ASCII literal can match.
package struct FoldedLiteral: Sendable {
  /// The literal's bytes, letters in lowercase when case is ignored.
  package let bytes: [UInt8]
  /// Whether letters match in any case (Rust's `(?i)`).
  package let ignoringCase: Bool

  /// `literal` (ASCII), ignoring case unless `ignoringCase` is false.
  package init(_ literal: String, ignoringCase: Bool = true) {
    self.ignoringCase = ignoringCase
    bytes = literal.utf8.map { ignoringCase ? Self.lowercased($0) : $0 }
  }

  /// The offset just past the literal when it starts at `start` of `text`, or nil when it does not.
  package func end(in text: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    var index = start
    for expected in bytes {
      guard index < text.count else { return nil }
      let byte = text[index]
      if byte == expected || (ignoringCase && Self.lowercased(byte) == expected) {
        index += 1
      } else if ignoringCase, let foldedEnd = Self.endOfNonASCIIFold(of: expected, in: text, at: index) {
        index = foldedEnd
      } else {
        return nil
      }
    }
    return index
  }

  /// The end of `ſ` (for `s`) or the Kelvin sign (for `k`) at `index`, or nil.
  private static func endOfNonASCIIFold(of letter: UInt8, in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    let sequence: [UInt8]
    switch letter {
    case UInt8(ascii: "s"): sequence = longS
    case UInt8(ascii: "k"): sequence = kelvinSign
    default: return nil
    }
    guard text.count - index >= sequence.count else { return nil }
    for offset in sequence.indices where text[index + offset] != sequence[offset] { return nil }
    return index + sequence.count
  }

  /// `ſ`, LATIN SMALL LETTER LONG S, in UTF-8.
  private static let longS: [UInt8] = [0xC5, 0xBF]
  /// `K`, KELVIN SIGN, in UTF-8.
  private static let kelvinSign: [UInt8] = [0xE2, 0x84, 0xAA]

  package static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}

/// The first occurrence of a ``FoldedLiteral`` at or after a position, remembered between calls so
/// that a caller whose positions mostly grow (a left-to-right scan asking "where is the next
/// `</style>`?" at every `<style`) reads each byte a bounded number of times instead of once per
/// question: the answer to one question answers every later one up to the occurrence it found,
/// and "none" answers every later one.
package struct LiteralSearch {
  package let literal: FoldedLiteral
  /// Everything from here to `found` (or to the end, when `found` is nil) has been searched.
  private var searchedFrom = Int.max
  /// The first occurrence at or after `searchedFrom`: its start and its end.
  private var found: (start: Int, end: Int)?

  package init(_ literal: FoldedLiteral) { self.literal = literal }

  /// The start and end of the first occurrence of the literal starting at or after `from`.
  package mutating func first(in text: UnsafeBufferPointer<UInt8>, atOrAfter from: Int) -> (start: Int, end: Int)? {
    if from >= searchedFrom {
      guard let found else { return nil }
      if found.start >= from { return found }
      self.found = scan(text, from: from, upTo: text.count)
      searchedFrom = from
      return self.found
    }
    // Asked about an earlier position: only the bytes before what is known need a look.
    let known = searchedFrom == Int.max ? text.count : searchedFrom
    if let earlier = scan(text, from: from, upTo: known) {
      found = earlier
    } else if searchedFrom == Int.max {
      found = nil
    }
    searchedFrom = from
    return found
  }

  /// The first occurrence starting in `from..<limit`.
  private func scan(_ text: UnsafeBufferPointer<UInt8>, from: Int, upTo limit: Int) -> (start: Int, end: Int)? {
    guard let first = literal.bytes.first else { return nil }
    // A literal starting with a letter may start with a non-ASCII fold; only then is every byte a candidate.
    let firstIsFoldable = literal.ignoringCase && (first == UInt8(ascii: "s") || first == UInt8(ascii: "k"))
    let upper = first >= 0x61 && first <= 0x7A && literal.ignoringCase ? first - 0x20 : first
    var index = max(from, 0)
    if literal.bytes.count == 1, !firstIsFoldable, first == upper {
      // A single byte without case: the common question ("where is the next '>'?").
      while index < limit, text[index] != first { index += 1 }
      return index < limit ? (index, index + 1) : nil
    }
    while index < limit {
      let byte = text[index]
      if byte == first || byte == upper || (firstIsFoldable && byte >= 0x80), let end = literal.end(in: text, at: index)
      {
        return (index, end)
      }
      index += 1
    }
    return nil
  }
}
