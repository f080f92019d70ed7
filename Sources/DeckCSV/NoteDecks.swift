import DeckCore

/// Each note's first card (its card with the lowest template ordinal), whose home deck (the deck
/// a filtered deck borrowed it from, if it is borrowed) a CSV row names, and whose schedule its
/// scheduling columns hold.
///
/// Only the card's index, ordinal and deck are kept per note, never the card, so a million-note
/// deck's cards are not held twice while it is written.
struct NoteDecks {
  private var firstCards: [Int64: (index: Int, ordinal: Int, homeDeckID: Int64)] = [:]

  /// The first cards of the notes of `collection`'s cards.
  init(_ collection: DeckCollection) {
    firstCards.reserveCapacity(collection.notes.count)
    for (index, card) in collection.cards.enumerated() {
      if let known = firstCards[card.noteID], known.ordinal <= card.templateOrdinal { continue }
      firstCards[card.noteID] = (index, card.templateOrdinal, Self.homeDeckID(of: card))
    }
  }

  /// The id of the deck the row of note `noteID` names; nil for a note without cards.
  subscript(noteID: Int64) -> Int64? { firstCards[noteID]?.homeDeckID }

  /// The index in the collection's cards of note `noteID`'s first card; nil for a note without
  /// cards.
  func firstCardIndex(of noteID: Int64) -> Int? { firstCards[noteID]?.index }

  /// The ids of every deck some row names.
  var deckIDs: Set<Int64> { Set(firstCards.values.lazy.map(\.homeDeckID)) }

  /// The deck `card` belongs to when it is not borrowed by a filtered deck.
  static func homeDeckID(of card: Card) -> Int64 {
    card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
  }
}
