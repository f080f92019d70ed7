import DeckCore

/// Consistency checks on a collection just read: references that point nowhere and notes whose
/// field count differs from their note type. Anki refuses some of these on import; deckport
/// keeps the data as it is and reports each problem, naming the row.
enum CollectionChecks {
  /// How many problems of one kind are reported one by one before they are summed up.
  static let reportLimit = 20

  static func warnings(for collection: DeckCollection, location: SourceLocation) -> [Diagnostic] {
    var warnings = CappedWarnings(location: location, listedPerCategory: reportLimit)
    func report(_ category: String, _ place: SourceLocation, _ message: String) {
      warnings.report(category, at: place, message)
    }

    let fieldCounts = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fields.count) }, uniquingKeysWith: { first, _ in first })
    var noteIDs = Set<Int64>()
    // A row's location is made only for a problem: most rows have none.
    for note in collection.notes {
      noteIDs.insert(note.id)
      guard let expected = fieldCounts[note.noteTypeID] else {
        report(
          "unknown-note-type", location.table("notes", row: note.id),
          "note uses note type \(note.noteTypeID), which the collection does not define")
        continue
      }
      if note.fields.count != expected {
        report(
          "field-count", location.table("notes", row: note.id),
          "note has \(note.fields.count) field\(note.fields.count == 1 ? "" : "s"), but its note type has \(expected); Anki would refuse it on import"
        )
      }
    }
    let deckIDs = Set(collection.decks.map(\.id))
    for card in collection.cards {
      if !noteIDs.contains(card.noteID) {
        report(
          "orphan-card", location.table("cards", row: card.id),
          "card belongs to note \(card.noteID), which does not exist")
      }
      if !deckIDs.contains(card.deckID) {
        report(
          "unknown-deck", location.table("cards", row: card.id),
          "card is in deck \(card.deckID), which the collection does not define")
      }
    }
    return warnings.finished()
  }
}
