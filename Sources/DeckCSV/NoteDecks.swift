import DeckCore

/// The deck each note's CSV row names: the home deck of the note's card with the lowest
/// template ordinal (the deck a filtered deck borrowed it from, if it is borrowed).
///
/// Only the ordinal and the deck are kept per note, never the card, so a million-note deck's
/// cards are not held twice while it is written.
struct NoteDecks {
  private var firstCards: [Int64: (ordinal: Int, homeDeckID: Int64)] = [:]

  /// The decks of the notes of `collection`'s cards.
  init(_ collection: DeckCollection) {
    firstCards.reserveCapacity(collection.notes.count)
    for card in collection.cards {
      if let known = firstCards[card.noteID], known.ordinal <= card.templateOrdinal { continue }
      firstCards[card.noteID] = (card.templateOrdinal, Self.homeDeckID(of: card))
    }
  }

  /// The id of the deck the row of note `noteID` names; nil for a note without cards.
  subscript(noteID: Int64) -> Int64? { firstCards[noteID]?.homeDeckID }

  /// The ids of every deck some row names.
  var deckIDs: Set<Int64> { Set(firstCards.values.lazy.map(\.homeDeckID)) }

  /// The deck `card` belongs to when it is not borrowed by a filtered deck.
  static func homeDeckID(of card: Card) -> Int64 {
    card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
  }
}
