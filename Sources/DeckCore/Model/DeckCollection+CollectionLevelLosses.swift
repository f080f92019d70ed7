// What a collection holds beyond its decks, as the writers of formats without a place for it
// report it.

extension DeckCollection {
  /// The warnings a writer gives for what a collection holds beyond its decks that its format
  /// has no place for: the collection's settings and its deletion records (each when there
  /// are any).
  ///
  /// - Parameters:
  ///   - location: the output.
  ///   - format: how the messages name the format ("a CSV file", "app storage").
  package func collectionLevelLosses(at location: SourceLocation, format: String) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    if !settings.isEmpty {
      let count = settings.count
      warnings.append(
        Diagnostic(
          "settings-dropped", at: location,
          "the collection's \(count) setting\(count == 1 ? " is" : "s are") not kept (such as \"Next day starts at\", the learn-ahead limit, FSRS and the browser's saved searches): \(format) has no place for them"
        ))
    }
    if let dropped = deletionsDroppedWarning(at: location, format: format) { warnings.append(dropped) }
    return warnings
  }

  /// The warning a writer gives when its format has no place for the collection's deletion
  /// records, or nil when there are none.
  ///
  /// - Parameters:
  ///   - location: the output.
  ///   - format: how the message names the format ("a CSV file", "app storage").
  private func deletionsDroppedWarning(at location: SourceLocation, format: String) -> Diagnostic? {
    guard !deletions.isEmpty else { return nil }
    let count = deletions.count
    return Diagnostic(
      "deletions-dropped", at: location,
      "\(count) deletion record\(count == 1 ? " is" : "s are") not kept (notes, cards or decks deleted since the collection last synced, which Anki sends at its next sync): \(format) has no place for them"
    )
  }
}
