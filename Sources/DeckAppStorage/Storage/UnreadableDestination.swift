import DeckCore

/// The refusal to write into a destination deckport cannot read whole.
///
/// Writing into existing storage writes again everything it holds: a file it cannot read
/// completely (JSON it cannot parse, a record that is no object, an SQLite cell of another type
/// than its column's) holds something that writing it again would lose, so nothing is written,
/// whatever `--force` says. `--force` changes a destination deckport can read; it never replaces
/// one it cannot.
enum UnreadableDestination {
  /// `error`, found reading the destination, as the reason nothing was written: its place (the
  /// line and column, the record, or the table, row and column) and its wording kept.
  ///
  /// ```swift
  /// // cards.json:1:64: invalid JSON: …; deckport changes only a file it can read whole, so nothing was written
  /// throw UnreadableDestination.refusal(error)
  /// ```
  static func refusal(_ error: DeckError) -> DeckError {
    DeckError(
      error.kind, at: error.location,
      "\(error.wording); deckport changes only a file it can read whole, so nothing was written" as DeckMessage)
  }
}
