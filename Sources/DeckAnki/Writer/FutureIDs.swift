import DeckCore
import Foundation

/// Notes, cards and review-log entries whose ids lie more than a day in the future, given new
/// ids in a collection package.
///
/// Anki's ids are creation times in milliseconds. Its import of a deck package gives such notes,
/// cards and reviews new ids (`shared/docs/anki-formats.md` §3.10), but its restore of a
/// collection package keeps them as they are, and its Check Database then reports "Fixed N
/// objects with timestamps in the future" and renumbers them (checked with the real backend on
/// a package genanki-go made, whose note ids are random 64-bit numbers). A collection package
/// deckport writes gets new ids for them, as Anki's import would give: each kind numbered on, in
/// the order of the old ids, from the later of now and its highest id not in the future, with
/// the cards' notes and the reviews' cards following. One `future-id` warning says how many.
enum FutureIDs {
  /// `collection` with every note, card and review id more than a day after `now` replaced.
  static func renumbered(
    _ collection: DeckCollection, now: Date = Date(), location: SourceLocation, log: inout DiagnosticLog
  ) -> DeckCollection {
    let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
    let limit = nowMilliseconds + FutureTimes.tolerance * 1000
    let notes = replacements(collection.notes.map(\.id), now: nowMilliseconds, limit: limit)
    let cards = replacements(collection.cards.map(\.id), now: nowMilliseconds, limit: limit)
    let reviews = replacements(collection.reviews.map(\.id), now: nowMilliseconds, limit: limit)
    guard !notes.isEmpty || !cards.isEmpty || !reviews.isEmpty else { return collection }

    var result = collection
    for index in result.notes.indices {
      if let id = notes[result.notes[index].id] { result.notes[index].id = id }
    }
    for index in result.cards.indices {
      if let id = cards[result.cards[index].id] { result.cards[index].id = id }
      if let id = notes[result.cards[index].noteID] { result.cards[index].noteID = id }
    }
    for index in result.reviews.indices {
      if let id = reviews[result.reviews[index].id] { result.reviews[index].id = id }
      if let id = cards[result.reviews[index].cardID] { result.reviews[index].cardID = id }
    }

    let counts = [
      (notes.count, "note", "notes"), (cards.count, "card", "cards"),
      (reviews.count, "review-log entry", "review-log entries"),
    ].filter { $0.0 > 0 }.map { CountedNoun.phrase($0.0, $0.1, plural: $0.2) }
    let first =
      collection.notes.first { notes[$0.id] != nil }.map { "note \($0.id)" }
      ?? collection.cards.first { cards[$0.id] != nil }.map { "card \($0.id)" }
      ?? collection.reviews.first { reviews[$0.id] != nil }.map { "review \($0.id)" } ?? ""
    let total = notes.count + cards.count + reviews.count
    log.report(
      .futureID, at: location.item(first),
      "\(WordList.joined(counts)) \(total == 1 ? "has an id" : "have ids") more than a day in the future (Anki's ids are creation times in milliseconds); Anki restores a collection package as it is and its Check Database would then renumber \(total == 1 ? "it" : "them"), so \(total == 1 ? "it is" : "they are") written with new ids from now on, as Anki's import of a deck package gives them"
    )
    return result
  }

  /// New ids for those of `ids` after `limit`, in their order, from the later of `now` and one
  /// past the highest id not after `limit`.
  private static func replacements(_ ids: [Int64], now: Int64, limit: Int64) -> [Int64: Int64] {
    let future = Set(ids.filter { $0 > limit })
    guard !future.isEmpty else { return [:] }
    let highestPresent = ids.lazy.filter { $0 <= limit }.max() ?? now
    var next = max(now, highestPresent + 1)
    var result: [Int64: Int64] = [:]
    for id in future.sorted() {
      result[id] = next
      next += 1
    }
    return result
  }
}
