import DeckCore
import Foundation
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
    // Positions, not copies of the cards: on a deck of 200,000 cards each copy held a fifth of
    // the diff's memory.
    let before = Self.cardPositionsByKey(old, oldNoteKeys)
    let after = Self.cardPositionsByKey(new, newNoteKeys)
    let oldDecks = Dictionary(old.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let newDecks = Dictionary(new.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let days = DueDays(old: old, new: new, timeZone: timeZone)
    var result = DeckDifference.SchedulingDifferences()
    for key in after.keys.sorted() where oldNotes[key.guid] != nil {
      guard let position = after[key] else { continue }
      let card = new.cards[position]
      guard let earlierPosition = before[key] else {
        result.added.append(DeckDifference.CardEntry(guid: Self.guid(ofKey: key.guid), ord: key.ord))
        continue
      }
      let earlier = old.cards[earlierPosition]
      let changes = days.valueChanges(earlier, card)
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
      var dataChanges: DeckDifference.PropertyDifferences?
      if !Self.sameCardData(earlier.scheduling.data, card.scheduling.data) {
        data = DeckDifference.Change(old: earlier.scheduling.data, new: card.scheduling.data)
        dataChanges = Self.cardDataChanges(earlier.scheduling.data, card.scheduling.data)
      }
      if !changes.isEmpty || deck != nil || originalDeck != nil || data != nil {
        result.changed.append(
          DeckDifference.CardChange(
            guid: Self.guid(ofKey: key.guid), ord: key.ord, changes: changes, deck: deck, originalDeck: originalDeck,
            data: data, dataChanges: dataChanges))
      }
    }
    for key in before.keys.sorted() where after[key] == nil && newNotes[key.guid] != nil {
      result.removed.append(DeckDifference.CardEntry(guid: Self.guid(ofKey: key.guid), ord: key.ord))
    }
    return result
  }

  /// The collections' creation times, when they differ and both formats hold scheduling (whose
  /// review due dates count days from it).
  func creationTimeChange() -> DeckDifference.Change<Int64>? {
    guard compared.contains(.scheduling), old.creationTime != new.creationTime else { return nil }
    return DeckDifference.Change(old: old.creationTime, new: new.creationTime)
  }

  /// Review log entries added and removed, by id, and entries both sides have whose values
  /// or card differ; empty when a format holds no review log.
  func reviewDifferences() -> DeckDifference.ReviewDifferences {
    guard compared.contains(.reviews) else { return DeckDifference.ReviewDifferences() }
    let before = Dictionary(old.reviews.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(new.reviews.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let (oldCards, newCards) = (Self.cardKeysByID(old, oldNoteKeys), Self.cardKeysByID(new, newNoteKeys))
    var result = DeckDifference.ReviewDifferences(
      added: Self.entries(new.reviews.filter { before[$0.id] == nil }, cards: newCards),
      removed: Self.entries(old.reviews.filter { after[$0.id] == nil }, cards: oldCards))
    for id in after.keys.sorted() {
      guard let review = after[id], let earlier = before[id] else { continue }
      let changes = Self.changed([
        ("ease", Int64(earlier.ease), Int64(review.ease)), ("interval", earlier.interval, review.interval),
        ("lastInterval", earlier.lastInterval, review.lastInterval),
        ("factor", Int64(earlier.easeFactor), Int64(review.easeFactor)),
        ("time", Int64(earlier.duration), Int64(review.duration)),
        ("type", Int64(earlier.kind.rawValue), Int64(review.kind.rawValue)),
      ])
      let (oldCard, newCard) = (oldCards[earlier.cardID], newCards[review.cardID])
      let card = oldCard == newCard ? nil : DeckDifference.Change(old: Self.name(oldCard), new: Self.name(newCard))
      if !changes.isEmpty || card != nil {
        result.changed.append(
          DeckDifference.ReviewChange(
            id: review.id, guid: newCard.map { Self.guid(ofKey: $0.guid) } ?? "", ord: newCard?.ord ?? -1,
            changes: changes, card: card))
      }
    }
    return result
  }

  /// `card GUID #1`, or `a card not in the deck`.
  static func name(_ card: CardKey?) -> String {
    card.map { "card \(guid(ofKey: $0.guid)) #\(CountedPosition.text(ofIndex: $0.ord))" } ?? "a card not in the deck"
  }

  /// Whether two cards' `data` say the same: equal text, or JSON of the same meaning (no data
  /// at all, "", is the empty object Anki's upgrade writes, `{}`).
  private static func sameCardData(_ a: String, _ b: String) -> Bool {
    sameMeaning(a.isEmpty ? "{}" : a, b.isEmpty ? "{}" : b)
  }

  /// What changed in two cards' data, key by key (``DeckDifference/CardChange/dataChanges``),
  /// when both are JSON objects (no data is `{}`) and a key differs; nil otherwise.
  private static func cardDataChanges(_ a: String, _ b: String) -> DeckDifference.PropertyDifferences? {
    guard let before = dataMembers(a.isEmpty ? "{}" : a), let after = dataMembers(b.isEmpty ? "{}" : b) else {
      return nil
    }
    var result = DeckDifference.PropertyDifferences()
    addPropertyDifferences(from: before, to: after, owner: nil, into: &result)
    // Texts that differ with no key that does (a key given twice) are shown as texts.
    return result.added.isEmpty && result.removed.isEmpty && result.changed.isEmpty ? nil : result
  }

  /// The members of the JSON object `text` as properties, each value as compact JSON text; those
  /// of an object inside, or of a string that is the text of one (Anki keeps a card's custom
  /// data, `cd`, as such a string), by a dotted key (`cd.streak`). Nil when `text` is not a JSON
  /// object.
  private static func dataMembers(_ text: String) -> [AnkiProperty]? {
    guard let members = objectMembers(text) else { return nil }
    func flattened(_ members: [(key: String, value: JSONValue)], prefix: String) -> [AnkiProperty] {
      members.flatMap { member -> [AnkiProperty] in
        let key = prefix + member.key
        if let inner = member.value.members ?? member.value.string.flatMap(objectMembers), !inner.isEmpty {
          return flattened(inner, prefix: key + ".")
        }
        return [AnkiProperty(key: key, jsonText: JSONWriter.text(of: member.value))]
      }
    }
    return flattened(members, prefix: "")
  }

  /// The members of the JSON object `text`; nil when it is not one.
  private static func objectMembers(_ text: String) -> [(key: String, value: JSONValue)]? {
    (try? JSONParser.parse(Array(text.utf8)))?.members
  }

  /// The due dates of both collections' cards, to compare cards due on a day by their dates
  /// (``DeckDifference/ValueChange``).
  struct DueDays {
    private let old: CardDueDates
    private let new: CardDueDates
    private let days: CalendarDays
    /// Whether both collections count their days alike, so that the same day number is the
    /// same date on both sides.
    private let countAlike: Bool

    init(old: DeckCollection, new: DeckCollection, timeZone: TimeZone) {
      self.old = CardDueDates(of: old, in: timeZone)
      self.new = CardDueDates(of: new, in: timeZone)
      days = CalendarDays(timeZone: timeZone)
      countAlike = self.old == self.new
    }

    /// The scheduling values of two cards that differ, in a fixed order; `due` and `odue` by the
    /// date they name where they name the day the card is due on.
    func valueChanges(_ a: Card, _ b: Card) -> [DeckDifference.ValueChange] {
      let (x, y) = (a.scheduling, b.scheduling)
      var changes = DeckComparison.changed([
        ("type", Int64(x.type.rawValue), Int64(y.type.rawValue)),
        ("queue", Int64(x.queue.rawValue), Int64(y.queue.rawValue)),
      ])
      // The same numbers counted alike are the same dates: no date is worked out.
      let sameDays = countAlike && x.due == y.due && x.originalDue == y.originalDue
      let (oldDay, newDay) = sameDays ? (nil, nil) : (dueDay(of: a, old), dueDay(of: b, new))
      if !sameDays, let change = dayChange("due", x.due, y.due, oldDay, newDay) { changes.append(change) }
      changes += DeckComparison.changed([
        ("interval", Int64(x.interval), Int64(y.interval)), ("ease", Int64(x.easeFactor), Int64(y.easeFactor)),
        ("reps", Int64(x.reviews), Int64(y.reviews)), ("lapses", Int64(x.lapses), Int64(y.lapses)),
        ("left", Int64(x.remainingSteps), Int64(y.remainingSteps)), ("flags", Int64(x.flags), Int64(y.flags)),
      ])
      if !sameDays, let change = dayChange("odue", x.originalDue, y.originalDue, oldDay, newDay) {
        changes.append(change)
      }
      return changes
    }

    /// The change of `property` (`due` or `odue`): by date when both sides name the card's due
    /// day with it, else by number (with the date of a side that names one).
    private func dayChange(
      _ property: String, _ old: Int64, _ new: Int64, _ oldDay: (property: String, date: String)?,
      _ newDay: (property: String, date: String)?
    ) -> DeckDifference.ValueChange? {
      let oldDate = oldDay?.property == property ? oldDay?.date : nil
      let newDate = newDay?.property == property ? newDay?.date : nil
      if let oldDate, let newDate, oldDate == newDate { return nil }
      if oldDate == nil || newDate == nil, old == new { return nil }
      return DeckDifference.ValueChange(property: property, old: old, new: new, oldDate: oldDate, newDate: newDate)
    }

    /// The value that holds the day `card` is due on (`due`, or `odue` in a filtered deck) and
    /// that day's date, when the card is due on a day that has one (`YYYY-MM-DD`).
    private func dueDay(of card: Card, _ dates: CardDueDates) -> (property: String, date: String)? {
      guard case .day(let start) = dates.due(of: card), let date = days.text(of: start) else { return nil }
      // The value `CardDueDates.due(of:)` reads the day from.
      return (card.scheduling.duesInHomeDeck ? "odue" : "due", date)
    }
  }

  /// The values (name, before, after) that differ, in their order.
  private static func changed(_ values: [(String, Int64, Int64)]) -> [DeckDifference.ValueChange] {
    values.filter { $0.1 != $0.2 }.map { DeckDifference.ValueChange(property: $0.0, old: $0.1, new: $0.2) }
  }

  /// The position in `collection.cards` of each card, by note key (`guids`, ``noteKeys(_:)``)
  /// and template position (the first of any that share one).
  private static func cardPositionsByKey(_ collection: DeckCollection, _ guids: [Int64: String]) -> [CardKey: Int] {
    var result: [CardKey: Int] = [:]
    result.reserveCapacity(collection.cards.count)
    for (position, card) in collection.cards.enumerated() {
      guard let guid = guids[card.noteID] else { continue }
      let key = CardKey(guid: guid, ord: card.templateOrdinal)
      if result[key] == nil { result[key] = position }
    }
    return result
  }

  /// Each card's note key (`guids`, ``noteKeys(_:)``) and template position, by card id (cards
  /// whose note is missing are left out).
  private static func cardKeysByID(_ collection: DeckCollection, _ guids: [Int64: String]) -> [Int64: CardKey] {
    var keys: [Int64: CardKey] = [:]
    for card in collection.cards where keys[card.id] == nil {
      if let guid = guids[card.noteID] { keys[card.id] = CardKey(guid: guid, ord: card.templateOrdinal) }
    }
    return keys
  }

  /// `reviews` as entries naming their cards, sorted by id.
  private static func entries(_ reviews: [Review], cards: [Int64: CardKey]) -> [DeckDifference.ReviewEntry] {
    reviews.sorted { $0.id < $1.id }.map { review in
      let card = cards[review.cardID]
      return DeckDifference.ReviewEntry(
        id: review.id, guid: card.map { guid(ofKey: $0.guid) } ?? "", ord: card?.ord ?? -1, ease: review.ease)
    }
  }
}
