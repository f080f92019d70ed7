/// How messages write a position counted from zero (a card's template ordinal, a note type's
/// sort field) as people count it, from one.
///
/// A file may hold any integer there, `Int.max` included, so the number is made without
/// arithmetic that could overflow: `9223372036854775808` for `Int.max`.
package enum CountedPosition {
  /// `index + 1` in decimal.
  package static func text(ofIndex index: Int) -> String {
    let (next, overflow) = index.addingReportingOverflow(1)
    return overflow ? String(UInt(index) + 1) : String(next)
  }
}
