/// Whether a collection's new cards keep their order through an importer that adds the notes one
/// at a time into a collection and numbers new cards as it adds them (Anki's `add_note`: a
/// note's cards share its number), as CrowdAnki's import and Anki's CSV importer do: a format
/// that holds no positions gives new cards the order its notes are added in.
package enum NewCardOrder {
  /// How many new cards `collection` has when the order the notes are added in (`addedAt`: each
  /// note's place, by note id) gives them another order than their positions (a card in a
  /// filtered deck by its original position); nil when it gives the same one. Cards of one
  /// position may come in any order; a note missing from `addedAt` counts as added last.
  package static func changedCount(in collection: DeckCollection, addedAt place: [Int64: Int]) -> Int? {
    changedCount(of: collection.cards, addedAt: place)
  }

  /// ``changedCount(in:addedAt:)`` for some of a collection's cards (those of the notes a
  /// writer keeps, say), the others left out of the count.
  package static func changedCount(of cards: some Sequence<Card>, addedAt place: [Int64: Int]) -> Int? {
    // Only each new card's position and place are kept, not copies of the cards.
    let newCards = cards.lazy.filter { $0.scheduling.type == .new }.map { card in
      (
        position: card.scheduling.originalDeckID != 0 ? card.scheduling.originalDue : card.scheduling.due,
        added: place[card.noteID] ?? Int.max
      )
    }.sorted { ($0.position, $0.added) < ($1.position, $1.added) }
    let inOrder = !zip(newCards, newCards.dropFirst()).contains { $0.added > $1.added }
    return inOrder ? nil : newCards.count
  }
}
