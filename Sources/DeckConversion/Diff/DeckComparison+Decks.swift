import DeckCore

extension DeckComparison {
  /// Decks added, removed, renamed (same id, other name) and changed (their description or a
  /// filtered deck's searches, ``detailChanges(from:to:)-(Deck,_)``); by name alone when a format holds
  /// no deck ids. When a format holds only the decks cards use (a deck package keeps Anki's
  /// empty `Default`; a CrowdAnki folder adds the parents of the decks it holds), decks without
  /// cards are left out on both sides.
  func deckDifferences() -> DeckDifference.DeckDifferences {
    guard compared.contains(.decks) else { return DeckDifference.DeckDifferences() }
    let matched = pairedByName(comparedDecks(of: old), comparedDecks(of: new), id: \.id, name: \.name)
    var result = DeckDifference.DeckDifferences(added: matched.added, removed: matched.removed)
    result.renamed = matched.pairs.filter { $0.old.name != $0.new.name }
      .map { DeckDifference.DeckRename(id: $0.new.id, old: $0.old.name, new: $0.new.name) }
      .sorted { ($0.new, $0.id) < ($1.new, $1.id) }
    result.changed = matched.pairs.compactMap { pair in
      let settings = detailChanges(from: pair.old, to: pair.new)
      return settings.isEmpty
        ? nil : DeckDifference.DeckChange(id: pair.new.id, name: pair.new.name, settings: settings)
    }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    return result
  }

  /// The decks of `collection` this comparison looks at: all, or those that hold a card.
  func comparedDecks(of collection: DeckCollection) -> [Deck] {
    guard !compared.contains(.unusedItems) else { return collection.decks }
    let usedIDs = Set(collection.cards.map(\.deckID))
    return collection.decks.filter { usedIDs.contains($0.id) }
  }
}
