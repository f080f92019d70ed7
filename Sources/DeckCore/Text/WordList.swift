/// Joins items into a list for messages, as English writes one: "a", "a and b", "a, b and c".
package enum WordList {
  /// `items` separated by ", ", the last two by " and "; empty for no items.
  package static func joined(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    guard items.count > 1 else { return last }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }
}
