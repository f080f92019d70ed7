/// A deck cell as Anki's CSV importer reads it: a cell that is a whole number (as Rust parses an
/// `i64`: an optional sign and ASCII digits, nothing around them) names a deck by its id, any
/// other cell by its name, which Anki stores trimmed (``Deck/storedName(_:)``). So a deck named
/// `2024` is written ` 2024`: Anki's importer, and deckport's reader, file its notes under the
/// name, not under the deck whose id is 2024 (or nowhere).
enum CSVDeckCell {
  /// Whether Anki's importer takes `cell` for a deck id.
  static func isDeckID(_ cell: String) -> Bool { Int64(cell) != nil }

  /// The cell for the deck named `name`.
  static func text(forDeckNamed name: String) -> String { isDeckID(name) ? " " + name : name }
}
