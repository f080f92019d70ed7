import DeckCore

extension DeckToRecords {
  /// How many of the new cards that are more than plain are named; the rest are counted.
  private static let listedCards = 5

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
    // Each written note's place among the records, which a deck made from them keeps.
    var place: [Int64: Int] = [:]
    place.reserveCapacity(notes.count)
    for (index, note) in notes.enumerated() where place[note.id] == nil { place[note.id] = index }
    var studied = 0
    var changedNew: [String] = []
    var changedNewCount = 0
    for card in collection.cards where place[card.noteID] != nil {
      guard card.scheduling.type == .new else {
        studied += 1
        continue
      }
      let states = newCardStates(card.scheduling)
      guard !states.isEmpty else { continue }
      changedNewCount += 1
      // Only the first few are named.
      if changedNew.count < listedCards {
        changedNew.append("card \(card.id) of note \(card.noteID): \(WordList.joined(states))")
      }
    }
    let reviews = collection.reviews.count
    let reordered = NewCardOrder.changedCount(
      of: collection.cards.lazy.filter { place[$0.noteID] != nil }, addedAt: place)
    guard studied > 0 || reviews > 0 || changedNewCount > 0 || reordered != nil else { return [] }
    var parts: [String] = []
    if studied > 0 {
      parts.append("\(CountedNoun.phrase(studied, "card")) \(studied == 1 ? "has" : "have") been studied")
    }
    if reviews > 0 {
      parts.append("the review log has \(CountedNoun.phrase(reviews, "review"))")
    }
    if changedNewCount > 0 {
      let count = changedNewCount
      parts.append(
        "\(CountedNoun.phrase(count, "new card")) \(count == 1 ? "is" : "are") suspended, buried, flagged or otherwise more than a plain new card (\(ShortList.text(changedNew, limit: listedCards, separator: "; ", total: count)))"
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
