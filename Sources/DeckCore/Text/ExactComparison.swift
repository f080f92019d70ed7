import Foundation

/// A value compared as stored, never as Swift's `==` compares it: text scalar by scalar (`==`
/// equates canonically equivalent text, `é` and `e` + U+0301) and floating-point numbers by bit
/// pattern (`==` equates `-0.0` and `0.0` and never NaN). deckport writes values back exactly as
/// read, so it must keep such values apart; this is the one place that says how.
package protocol ExactlyComparable {
  /// Whether `self` and `other` are the same as stored.
  func isExactly(_ other: Self) -> Bool

  /// Feeds what ``isExactly(_:)`` compares to `hasher`.
  func hashExactly(into hasher: inout Hasher)
}

extension String: ExactlyComparable {
  /// Whether the two hold the same Unicode scalars in the same order, that is, the same UTF-8
  /// bytes (compared in place, without decoding).
  package func isExactly(_ other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var (left, right) = (self, other)
    return left.withUTF8 { leftBytes in right.withUTF8 { rightBytes in leftBytes.elementsEqual(rightBytes) } }
  }

  /// Feeds the UTF-8 bytes and their count.
  package func hashExactly(into hasher: inout Hasher) {
    var text = self
    text.withUTF8 { bytes in
      hasher.combine(bytes.count)
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
  }
}

extension Substring: ExactlyComparable {
  /// Whether the two hold the same Unicode scalars in the same order, that is, the same UTF-8
  /// bytes: a name a template writes is compared with a field's name as Anki compares them.
  package func isExactly(_ other: Substring) -> Bool {
    utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
  }

  /// Feeds the UTF-8 bytes and their count, as ``Swift/String/hashExactly(into:)`` does.
  package func hashExactly(into hasher: inout Hasher) { String(self).hashExactly(into: &hasher) }
}

extension Double: ExactlyComparable {
  /// Whether the two have the same bit pattern.
  package func isExactly(_ other: Double) -> Bool { bitPattern == other.bitPattern }

  /// Feeds the bit pattern.
  package func hashExactly(into hasher: inout Hasher) { hasher.combine(bitPattern) }
}

extension Date: ExactlyComparable {
  /// Whether the two are the same number of seconds since the reference date, bit for bit.
  package func isExactly(_ other: Date) -> Bool {
    timeIntervalSinceReferenceDate.isExactly(other.timeIntervalSinceReferenceDate)
  }

  /// Feeds the bit pattern of the seconds since the reference date.
  package func hashExactly(into hasher: inout Hasher) { timeIntervalSinceReferenceDate.hashExactly(into: &hasher) }
}
