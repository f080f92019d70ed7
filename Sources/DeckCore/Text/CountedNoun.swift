/// A number and its noun for messages, as English writes them: "1 note", "0 notes", "3 notes".
package enum CountedNoun {
  /// `count`, a space, and `singular` for a count of exactly 1, its plural for any other.
  /// The plural is `plural` when given ("entries"), else `singular` with an "s".
  package static func phrase(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(noun(singular, plural: plural, for: count))"
  }

  /// `singular` for a count of exactly 1, else its plural (`plural`, or `singular` with an "s"):
  /// the noun alone, for messages that put the count elsewhere or leave it out.
  package static func noun(_ singular: String, plural: String? = nil, for count: some BinaryInteger) -> String {
    count == 1 ? singular : plural ?? singular + "s"
  }
}
