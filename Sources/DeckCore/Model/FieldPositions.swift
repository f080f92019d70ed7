/// Where a template's `{{Name}}` finds each field of a note type: the first field of the name,
/// the name compared byte for byte as Anki compares it (``ExactKey``).
///
/// ```swift
/// let positions = FieldPositions(["Naïve", "Back"])
/// positions["Back"]            // 1
/// positions["Nai\u{308}ve"]    // nil: U+0308 after `i` is not U+00EF, whatever `==` says
/// ```
///
/// A `[String: Int]` (or `[Substring: Int]`) would find `Naïve` for a name written with a
/// combining diaeresis, as Swift's `==` takes canonically equivalent text for the same; Anki
/// reports there is no field of that name.
package struct FieldPositions: Sendable {
  private var positions: [ExactKey: Int] = [:]

  /// The positions of `names`, a note type's field names in order.
  package init(_ names: some Sequence<String>) {
    for (position, name) in names.enumerated() where positions[ExactKey(name)] == nil {
      positions[ExactKey(name)] = position
    }
  }

  /// The position of the first field named exactly `name`, or nil when no field has the name.
  package subscript(name: Substring) -> Int? { positions[ExactKey(String(name))] }

  /// The position of each name, ascending (the first field of each name).
  package var sortedPositions: [Int] { positions.values.sorted() }
}
