/// Where each key first occurs in a long list of keyed items (an app record's fields, a record
/// shape's keys), so that finding a key costs a hash instead of a search in order.
///
/// Short lists, the usual case, keep no index: searching a few keys is faster than hashing one.
/// A list reaches ``minimumCount`` keys and the index is built; records and notes of thousands
/// of keys then cost linear, not quadratic, time to compare and write.
package struct ExactKeyPositions: Sendable {
  /// The number of items from which an index pays for itself.
  package static let minimumCount = 64

  private var positions: [ExactKey: Int]

  /// The positions of `items`' keys, or nil when the list is too short to need them. A key that
  /// occurs more than once is found at its first position, as a search in order finds it.
  package init?<Items: Collection>(_ items: Items) where Items.Element: ExactlyKeyed {
    guard items.count >= Self.minimumCount else { return nil }
    positions = Dictionary(minimumCapacity: items.count)
    for (position, item) in items.enumerated() where positions[ExactKey(item.key)] == nil {
      positions[ExactKey(item.key)] = position
    }
  }

  /// The first position of `key`, compared exactly.
  package func position(of key: String) -> Int? { positions[ExactKey(key)] }

  /// Records that `key`, absent until now, was appended at `position`.
  package mutating func recordAppended(_ key: String, at position: Int) {
    positions[ExactKey(key)] = position
  }
}

extension Array where Element: ExactlyKeyed {
  /// The position of the first item whose key is exactly `key`, found through `positions` (built
  /// from this array as it is) when the array is long enough to have them.
  package func firstIndex(ofKey key: String, positions: ExactKeyPositions?) -> Int? {
    if let positions { return positions.position(of: key) }
    return firstIndex(ofKey: key)
  }
}

/// A string that is hashed and compared exactly (``ExactlyComparable``), for use as a dictionary
/// key: Swift's `String` keys would make `é` and `e` + U+0301 one key.
package struct ExactKey: Hashable, Sendable {
  /// The text, as stored.
  package let text: String

  package init(_ text: String) { self.text = text }

  package static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { lhs.text.isExactly(rhs.text) }

  package func hash(into hasher: inout Hasher) { text.hashExactly(into: &hasher) }
}
