import DeckCore

/// Each note's first card (its card with the lowest template ordinal), whose home deck (the deck
/// a filtered deck borrowed it from, if it is borrowed) a CSV row names, and whose schedule its
/// scheduling columns hold.
///
/// Only the card's index is kept, in an array by the note's position, never the card, so a
/// million-note deck's cards are not held twice while it is written (a dictionary of index,
/// ordinal and deck by note id took some 80 MB on such a deck; this takes 8 MB, and the notes'
/// ids are found where they stand when they ascend, as Anki's do).
struct NoteDecks {
  private let cards: [Card]
  private let notePositions: IDPositions
  /// For each note, by its position in the collection, the index of its first card, or -1.
  private var firstCards: [Int]

  /// The first cards of the notes of `collection`.
  init(_ collection: DeckCollection) {
    cards = collection.cards
    notePositions = IDPositions(collection.notes.map(\.id))
    var firstCards = [Int](repeating: -1, count: collection.notes.count)
    var finger = 0
    for (index, card) in collection.cards.enumerated() {
      guard let note = notePositions.position(of: card.noteID, finger: &finger) else { continue }
      let known = firstCards[note]
      if known >= 0 && collection.cards[known].templateOrdinal <= card.templateOrdinal { continue }
      firstCards[note] = index
    }
    self.firstCards = firstCards
  }

  /// The id of the deck the row of note `noteID` names; nil for a note without cards.
  subscript(noteID: Int64) -> Int64? { firstCardIndex(of: noteID).map { Self.homeDeckID(of: cards[$0]) } }

  /// The index in the collection's cards of note `noteID`'s first card; nil for a note without
  /// cards.
  func firstCardIndex(of noteID: Int64) -> Int? {
    guard let note = notePositions.position(of: noteID), firstCards[note] >= 0 else { return nil }
    return firstCards[note]
  }

  /// The ids of every deck some row names.
  var deckIDs: Set<Int64> { Set(firstCards.lazy.filter { $0 >= 0 }.map { Self.homeDeckID(of: cards[$0]) }) }

  /// The deck `card` belongs to when it is not borrowed by a filtered deck.
  static func homeDeckID(of card: Card) -> Int64 {
    card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
  }
}
