/// A list for a message that may name many items: the first few, then how many more there are,
/// so that one message stays readable however large the deck ("'a', 'b', 'c', 'd', 'e' and 3
/// more").
package enum ShortList {
  /// The first `limit` of `items` joined by `separator`, then " and N more" when there are more.
  /// `total` is how many items there are when `items` holds only the first of them (a caller
  /// that keeps a sample); by default, `items.count`.
  package static func text(_ items: [String], limit: Int = 5, separator: String = ", ", total: Int? = nil)
    -> String
  {
    let shown = items.prefix(limit).joined(separator: separator)
    let more = (total ?? items.count) - min(items.count, limit)
    return more > 0 ? "\(shown) and \(more) more" : shown
  }

  /// ``text(_:limit:separator:total:)`` with each item in single quotes: `'a', 'b' and 4 more`.
  package static func quoted(_ items: [String], limit: Int = 5, separator: String = ", ") -> String {
    text(items.prefix(limit).map { "'\($0)'" }, limit: limit, separator: separator, total: items.count)
  }
}
