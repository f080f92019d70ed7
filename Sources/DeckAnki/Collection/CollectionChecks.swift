import DeckCore

/// Consistency checks on a collection just read: references that point nowhere, notes whose
/// field count differs from their note type, and notes without a GUID. Anki refuses some of these on import; deckport
/// keeps the data as it is and reports each problem, naming the row.
enum CollectionChecks {
  /// How many problems of one kind are reported one by one before they are summed up.
  static let reportLimit = 20

  static func warnings(for collection: DeckCollection, location: SourceLocation) -> [Diagnostic] {
    var warnings = CappedWarnings(location: location, listedPerCategory: reportLimit)
    func report(_ category: Diagnostic.Category, _ place: SourceLocation, _ message: String) {
      warnings.report(category, at: place, message)
    }

    let fieldCounts = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fields.count) }, uniquingKeysWith: { first, _ in first })
    let notes = collection.notes
    var noteIDs = IDSet(notes.map(\.id))
    // A row's location is made only for a problem: most rows have none. By index, and only the
    // fields read: a note or card taken out of its array is a copy, a retain for each string.
    for index in notes.indices {
      let (id, noteTypeID, fieldCount) = (notes[index].id, notes[index].noteTypeID, notes[index].fields.count)
      guard let expected = fieldCounts[noteTypeID] else {
        report(
          .unknownNoteType, location.table("notes", row: id),
          "note uses note type \(noteTypeID), which the collection does not define")
        continue
      }
      if notes[index].guid.isEmpty {
        report(
          .guidEmpty, location.table("notes", row: id),
          "note has an empty GUID: Anki imports it so, but cannot tell it from other notes without one when the package is imported again; a package deckport writes gives it a GUID derived from its note type and fields"
        )
      }
      if fieldCount != expected {
        report(
          .fieldCount, location.table("notes", row: id),
          "note has \(CountedNoun.phrase(fieldCount, "field")), but its note type has \(expected); Anki would refuse it on import"
        )
      }
    }
    let deckIDs = Set(collection.decks.map(\.id))
    let cards = collection.cards
    for index in cards.indices {
      let (id, noteID, deckID) = (cards[index].id, cards[index].noteID, cards[index].deckID)
      if !noteIDs.contains(noteID) {
        report(
          .orphanCard, location.table("cards", row: id),
          "card belongs to note \(noteID), which does not exist")
      }
      if !deckIDs.contains(deckID) {
        report(
          .unknownDeck, location.table("cards", row: id),
          "card is in deck \(deckID), which the collection does not define")
      }
    }
    return warnings.finished()
  }
}
