import DeckCore

extension DeckToRecords {
  /// A `scheduling-dropped` warning when the records lose any of the cards' scheduling, or none.
  ///
  /// A record is a note's values, and a deck made from records has only plain new cards: active,
  /// unflagged, in their note's deck. So the warning counts the cards of `notes` that have been
  /// studied and the reviews of the log, and names the new cards that are more than plain new
  /// (the first few by card and note, each with what it loses): suspended, buried, flagged, in a
  /// filtered deck, or with the review and lapse counts a reset kept; and the new cards' order,
  /// when the records' order is not the one the deck shows them in. As the CSV and CrowdAnki
  /// writers name these losses.
  static func schedulingLosses(
    of collection: DeckCollection, notes: [Note], at location: SourceLocation
  ) -> [Diagnostic] {
    var kept = IDSet(notes.map(\.id))
    var studied = 0
    var changedNew: [String] = []
    for card in collection.cards where kept.contains(card.noteID) {
      guard card.scheduling.type == .new else {
        studied += 1
        continue
      }
      let states = newCardStates(card.scheduling)
      if !states.isEmpty {
        changedNew.append("card \(card.id) of note \(card.noteID): \(WordList.joined(states))")
      }
    }
    let reviews = collection.reviews.count
    let reordered = reorderedNewCards(of: collection, notes: notes)
    guard studied > 0 || reviews > 0 || !changedNew.isEmpty || reordered != nil else { return [] }
    var parts: [String] = []
    if studied > 0 {
      parts.append("\(CountedNoun.phrase(studied, "card")) \(studied == 1 ? "has" : "have") been studied")
    }
    if reviews > 0 {
      parts.append("the review log has \(CountedNoun.phrase(reviews, "review"))")
    }
    if !changedNew.isEmpty {
      let count = changedNew.count
      parts.append(
        "\(CountedNoun.phrase(count, "new card")) \(count == 1 ? "is" : "are") suspended, buried, flagged or otherwise more than a plain new card (\(ShortList.text(changedNew, separator: "; ")))"
      )
    }
    if let reordered {
      parts.append(
        "the order of \(CountedNoun.phrase(reordered, "new card")) is not kept (the deck shows them in another order than their notes', and a deck made from the records has them in the records' order)"
      )
    }
    return [
      Diagnostic(
        .schedulingDropped, at: location,
        "the records keep no scheduling, and a deck made from them has only active, unflagged new cards: \(WordList.joined(parts))"
      )
    ]
  }

  /// How many new cards the notes' records put in another order than the deck shows them in
  /// (their positions; ``NewCardOrder``), or nil when the records keep it: the records are
  /// written in the order of `notes`, and a deck made from them has the records' order.
  private static func reorderedNewCards(of collection: DeckCollection, notes: [Note]) -> Int? {
    var place: [Int64: Int] = [:]
    place.reserveCapacity(notes.count)
    for (index, note) in notes.enumerated() where place[note.id] == nil { place[note.id] = index }
    return NewCardOrder.changedCount(of: collection.cards.lazy.filter { place[$0.noteID] != nil }, addedAt: place)
  }

  /// What a new card with `scheduling` has beyond a plain new card (active, unflagged, in its
  /// home deck, never reviewed), in words; empty for a plain new card.
  private static func newCardStates(_ scheduling: CardScheduling) -> [String] {
    var states: [String] = []
    switch scheduling.queue {
    case .new: break
    case .suspended: states.append("suspended")
    case .buriedByUser: states.append("buried by the user")
    case .buriedBySibling: states.append("buried by the scheduler (a sibling was studied)")
    default:
      let name = CardQueue.names[scheduling.queue.rawValue] ?? "\(scheduling.queue.rawValue)"
      states.append("in queue \(name)")
    }
    if scheduling.flags != 0 { states.append("flag \(scheduling.flags)") }
    if scheduling.originalDeckID != 0 { states.append("in a filtered deck") }
    if scheduling.reviews != 0 || scheduling.lapses != 0 {
      states.append(
        "\(CountedNoun.phrase(scheduling.reviews, "review")) and \(CountedNoun.phrase(scheduling.lapses, "lapse")) counted"
      )
    }
    return states
  }
}
