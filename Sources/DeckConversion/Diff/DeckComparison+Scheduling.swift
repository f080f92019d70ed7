import DeckCore
import JSONCore

extension DeckComparison {
  /// A card's place in its deck: its note's GUID and its template position.
  struct CardKey: Hashable, Comparable {
    var guid: String
    var ord: Int

    static func < (a: CardKey, b: CardKey) -> Bool { (a.guid, a.ord) < (b.guid, b.ord) }
  }

  /// Cards whose scheduling (or deck) changed, and cards added to or removed from notes both
  /// sides have; empty when a format holds no scheduling.
  func schedulingDifferences() -> DeckDifference.SchedulingDifferences {
    guard compared.contains(.scheduling) else { return DeckDifference.SchedulingDifferences() }
    let before = Self.cardsByKey(old)
    let after = Self.cardsByKey(new)
    let oldDecks = Dictionary(old.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let newDecks = Dictionary(new.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    var result = DeckDifference.SchedulingDifferences()
    for key in after.keys.sorted() where oldNotes[key.guid] != nil {
      guard let card = after[key] else { continue }
      guard let earlier = before[key] else {
        result.added.append(DeckDifference.CardEntry(guid: key.guid, ord: key.ord))
        continue
      }
      let changes = Self.valueChanges(earlier.scheduling, card.scheduling)
      var deck: DeckDifference.Change<String>?
      if compared.contains(.decks) {
        let oldName = oldDecks[earlier.deckID] ?? "(missing deck \(earlier.deckID))"
        let newName = newDecks[card.deckID] ?? "(missing deck \(card.deckID))"
        let moved = compared.contains(.identities) ? earlier.deckID != card.deckID : oldName != newName
        if moved { deck = DeckDifference.Change(old: oldName, new: newName) }
      }
      var originalDeck: DeckDifference.Change<String>?
      if earlier.scheduling.originalDeckID != card.scheduling.originalDeckID {
        func name(_ id: Int64, _ decks: [Int64: String]) -> String {
          id == 0 ? "(none)" : decks[id] ?? "(missing deck \(id))"
        }
        let change = DeckDifference.Change(
          old: name(earlier.scheduling.originalDeckID, oldDecks), new: name(card.scheduling.originalDeckID, newDecks))
        if compared.contains(.identities) || change.old != change.new { originalDeck = change }
      }
      var data: DeckDifference.Change<String>?
      if !Self.sameCardData(earlier.scheduling.data, card.scheduling.data) {
        data = DeckDifference.Change(old: earlier.scheduling.data, new: card.scheduling.data)
      }
      if !changes.isEmpty || deck != nil || originalDeck != nil || data != nil {
        result.changed.append(
          DeckDifference.CardChange(
            guid: key.guid, ord: key.ord, changes: changes, deck: deck, originalDeck: originalDeck, data: data))
      }
    }
    for key in before.keys.sorted() where after[key] == nil && newNotes[key.guid] != nil {
      result.removed.append(DeckDifference.CardEntry(guid: key.guid, ord: key.ord))
    }
    return result
  }

  /// Review log entries added and removed, by id, and entries both sides have whose values
  /// or card differ; empty when a format holds no review log.
  func reviewDifferences() -> DeckDifference.ReviewDifferences {
    guard compared.contains(.reviews) else { return DeckDifference.ReviewDifferences() }
    let before = Dictionary(old.reviews.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(new.reviews.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var result = DeckDifference.ReviewDifferences(
      added: Self.entries(new.reviews.filter { before[$0.id] == nil }, in: new),
      removed: Self.entries(old.reviews.filter { after[$0.id] == nil }, in: old))
    let oldEntries = Dictionary(
      Self.entries(old.reviews.filter { after[$0.id] != nil }, in: old).map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    for entry in Self.entries(new.reviews.filter { before[$0.id] != nil }, in: new) {
      guard let earlier = before[entry.id], let review = after[entry.id], let oldEntry = oldEntries[entry.id] else {
        continue
      }
      let values: [(String, Int64, Int64)] = [
        ("ease", Int64(earlier.ease), Int64(review.ease)), ("interval", earlier.interval, review.interval),
        ("lastInterval", earlier.lastInterval, review.lastInterval),
        ("factor", Int64(earlier.easeFactor), Int64(review.easeFactor)),
        ("time", Int64(earlier.duration), Int64(review.duration)),
        ("type", Int64(earlier.kind.rawValue), Int64(review.kind.rawValue)),
      ]
      let changes = values.filter { $0.1 != $0.2 }.map {
        DeckDifference.ValueChange(property: $0.0, old: $0.1, new: $0.2)
      }
      let card =
        (oldEntry.guid, oldEntry.ord) == (entry.guid, entry.ord)
        ? nil : DeckDifference.Change(old: Self.cardName(oldEntry), new: Self.cardName(entry))
      if !changes.isEmpty || card != nil {
        result.changed.append(
          DeckDifference.ReviewChange(id: entry.id, guid: entry.guid, ord: entry.ord, changes: changes, card: card))
      }
    }
    return result
  }

  /// `card GUID #1`, or `a card not in the deck`.
  static func cardName(_ entry: DeckDifference.ReviewEntry) -> String {
    entry.guid.isEmpty ? "a card not in the deck" : "card \(entry.guid) #\(entry.ord + 1)"
  }

  /// Whether two cards' `data` say the same: equal text, or JSON of the same meaning (no data
  /// at all, "", is the empty object Anki's upgrade writes, `{}`).
  private static func sameCardData(_ a: String, _ b: String) -> Bool {
    guard a != b else { return true }
    func value(_ text: String) -> JSONValue? {
      text.isEmpty ? .object([]) : try? JSONParser.parse(Array(text.utf8))
    }
    guard let left = value(a), let right = value(b) else { return false }
    return left.isEquivalent(to: right)
  }

  /// The scheduling values that differ, in a fixed order.
  private static func valueChanges(_ a: CardScheduling, _ b: CardScheduling) -> [DeckDifference.ValueChange] {
    let values: [(String, Int64, Int64)] = [
      ("type", Int64(a.type.rawValue), Int64(b.type.rawValue)),
      ("queue", Int64(a.queue.rawValue), Int64(b.queue.rawValue)), ("due", a.due, b.due),
      ("interval", Int64(a.interval), Int64(b.interval)), ("ease", Int64(a.easeFactor), Int64(b.easeFactor)),
      ("reps", Int64(a.reviews), Int64(b.reviews)), ("lapses", Int64(a.lapses), Int64(b.lapses)),
      ("left", Int64(a.remainingSteps), Int64(b.remainingSteps)), ("flags", Int64(a.flags), Int64(b.flags)),
      ("odue", a.originalDue, b.originalDue),
    ]
    return values.filter { $0.1 != $0.2 }.map { DeckDifference.ValueChange(property: $0.0, old: $0.1, new: $0.2) }
  }

  /// The cards of `collection` by note GUID and template position (the first of any that share one).
  private static func cardsByKey(_ collection: DeckCollection) -> [CardKey: Card] {
    let guids = Dictionary(collection.notes.map { ($0.id, $0.guid) }, uniquingKeysWith: { first, _ in first })
    var result: [CardKey: Card] = [:]
    for card in collection.cards {
      guard let guid = guids[card.noteID] else { continue }
      let key = CardKey(guid: guid, ord: card.templateOrdinal)
      if result[key] == nil { result[key] = card }
    }
    return result
  }

  /// `reviews` as entries naming their cards, sorted by id.
  private static func entries(_ reviews: [Review], in collection: DeckCollection) -> [DeckDifference.ReviewEntry] {
    guard !reviews.isEmpty else { return [] }
    let guids = Dictionary(collection.notes.map { ($0.id, $0.guid) }, uniquingKeysWith: { first, _ in first })
    let cards = Dictionary(collection.cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return reviews.sorted { $0.id < $1.id }.map { review in
      let card = cards[review.cardID]
      return DeckDifference.ReviewEntry(
        id: review.id, guid: card.flatMap { guids[$0.noteID] } ?? "", ord: card?.templateOrdinal ?? -1,
        ease: review.ease)
    }
  }
}
