/// Finds a name the user gave (a record type, an entity, the key that holds an app's records)
/// among the names a file holds, and lists such names so that two that look the same can be told
/// apart.
///
/// A file may hold two names that differ only in how Unicode composes them (`café` with `é`, and
/// with `e` + U+0301): a Mac spells file names decomposed, and Foundation's dictionaries, SQLite
/// and JSON compare names code point by code point. They are two names, and each keeps its own
/// data. A name typed in the other composition still finds the one name it can mean.
package enum NameLookup {
  /// The position in `names` of `name`: the first one spelled exactly as `name`, else the only
  /// one canonically equivalent to it. Nil when no name is, or when several are and none exactly
  /// (the caller then lists them with ``listed(_:)``).
  package static func position(of name: String, in names: [String]) -> Int? {
    if let exact = names.firstIndex(where: { $0.isExactly(name) }) { return exact }
    let equivalent = names.indices.filter { names[$0] == name }
    return equivalent.count == 1 ? equivalent.first : nil
  }

  /// `names` quoted and joined with ", ". A name canonically equivalent to another in the list
  /// is followed by its code points beyond ASCII (`'café' (caf\u{E9})`, `'café' (cafe\u{301})`),
  /// so the two can be told apart.
  package static func listed(_ names: [String]) -> String {
    var counts: [String: Int] = [:]
    for name in names { counts[name, default: 0] += 1 }
    return names.map { name in
      let quoted = "'\(name)'"
      guard let count = counts[name], count > 1, name.unicodeScalars.contains(where: { !$0.isASCII }) else {
        return quoted
      }
      return quoted + " (\(TerminalText.escaped(name, alsoEscaping: { !$0.isASCII })))"
    }.joined(separator: ", ")
  }
}
