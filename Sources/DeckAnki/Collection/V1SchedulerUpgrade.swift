import DeckCore
import Foundation

/// The change Anki makes to a collection kept by its v1 scheduler before it uses it: Anki reads
/// every collection by the rules of its v2 scheduler, and upgrades a v1 collection when it
/// imports it as a deck package or opens it. deckport's model holds scheduling as v2 holds it,
/// so a v1 collection is upgraded the same way as it is read, and every output (an Anki
/// package, a deck document, an app's store) holds what Anki would hold after importing it.
///
/// Observed with the real backend (`upgrade_scheduler`, and the importer of a v1 `.apkg`, which
/// do the same), on cards and review-log rows of every type and queue:
///
/// - A card in review that is being relearned (`type` 2, `queue` 1 or 3; v1 has no
///   relearning type) becomes a relearning card (`type` 3).
/// - A card in a filtered deck (its deck filtered, its home deck set) takes v2's queue for
///   what v1 held in queue 0 or as a learning card. In a deck that does not reschedule
///   (v1's preview): a learning card (`type` 1, any queue) becomes a new card in the preview
///   queue (`type` 0, `queue` 4), and any other card in queue 0 goes to queue 2. In a deck that
///   reschedules, a card in queue 0 that is not new goes to queue 3 (learning and relearning
///   cards) or 2 (review cards). `due` and `odue` stay as they are.
/// - No other card changes, in a filtered deck or not (every type and queue was tried in
///   both kinds of filtered deck and in a normal deck; a card with a home deck in a normal
///   deck, or without one in a filtered deck, is left as it is).
/// - A learning or relearning answer in the review log (`type` 0 or 2) was given with v1's
///   three buttons: its `ease` 2 (good) becomes 3, and 3 (easy) becomes 4, v2's numbers for
///   the same buttons. Review answers (`type` 1) and answers in filtered decks (`type` 3) keep
///   their numbers, as 1 (again) does.
///
/// Anki also sets the collection's day counting to v2's (`schedVer` 2, a creation offset);
/// deckport's writers always write v2's, so a collection package's settings change even when no
/// row does, and the warning says so.
enum V1SchedulerUpgrade {
  /// What upgrading changed.
  struct Changes: Equatable {
    /// Cards in review being relearned that became relearning cards.
    var relearningCards = 0
    /// Learning answers of the review log given new button numbers.
    var learningAnswers = 0
    /// Cards in filtered decks given v2's queue (and, for learning cards in a deck that does
    /// not reschedule, the new type).
    var filteredCards = 0
  }

  /// Upgrades `collection`'s cards and review log in place (see the type's description).
  static func upgrade(_ collection: inout DeckCollection) -> Changes {
    var changes = Changes()
    var reschedulingByFilteredDeck: [Int64: Bool] = [:]
    for deck in collection.decks {
      if case .filtered(let settings) = deck.kind { reschedulingByFilteredDeck[deck.id] = settings.reschedule }
    }
    for index in collection.cards.indices {
      var scheduling = collection.cards[index].scheduling
      if scheduling.type == .review, scheduling.queue == .learning || scheduling.queue == .dayLearning {
        scheduling.type = .relearning
        changes.relearningCards += 1
      } else if scheduling.originalDeckID != 0,
        let reschedules = reschedulingByFilteredDeck[collection.cards[index].deckID],
        let upgraded = filteredQueue(scheduling, reschedules: reschedules)
      {
        (scheduling.type, scheduling.queue) = upgraded
        changes.filteredCards += 1
      } else {
        continue
      }
      collection.cards[index].scheduling = scheduling
    }
    for index in collection.reviews.indices {
      let review = collection.reviews[index]
      guard review.kind == .learning || review.kind == .relearning, review.ease == 2 || review.ease == 3 else {
        continue
      }
      collection.reviews[index].ease += 1
      changes.learningAnswers += 1
    }
    return changes
  }

  /// The type and queue v2 gives a card of a filtered deck that `reschedules` or not, or nil
  /// when they stay as they are.
  private static func filteredQueue(_ scheduling: CardScheduling, reschedules: Bool) -> (CardType, CardQueue)? {
    if !reschedules {
      if scheduling.type == .learning { return (.new, .preview) }
      return scheduling.queue == .new ? (scheduling.type, .review) : nil
    }
    guard scheduling.queue == .new else { return nil }
    switch scheduling.type {
    case .learning, .relearning: return (scheduling.type, .dayLearning)
    case .review: return (scheduling.type, .review)
    default: return nil
    }
  }

  /// The warning that says what upgrading changed, at the collection's `col` table; with
  /// `settingsRewritten` (a collection package, whose settings are read and written), that its
  /// day counting is written as the v2 scheduler's.
  static func warning(_ changes: Changes, settingsRewritten: Bool, location: SourceLocation) -> Diagnostic {
    var changed: [String] = []
    if changes.learningAnswers > 0 {
      changed.append(
        "\(CountedNoun.phrase(changes.learningAnswers, "learning answer")) in the review log took v2's button numbers "
          + "(good 2 → 3, easy 3 → 4)")
    }
    if changes.relearningCards > 0 {
      changed.append(
        "\(CountedNoun.phrase(changes.relearningCards, "card")) being relearned became relearning cards (type 3)")
    }
    if changes.filteredCards > 0 {
      changed.append(
        "\(CountedNoun.phrase(changes.filteredCards, "card")) in filtered decks took v2's queue (and type)")
    }
    if settingsRewritten {
      changed.append(
        "its settings count days as Anki's current scheduler does (`schedVer` 2 and `sched2021`; the day starting at "
          + "`rollover` and `creationOffset`, taken from the collection's creation time where it has none)")
    }
    return Diagnostic(
      .schedulerV1Upgraded, at: location.table("col"),
      "the collection was kept by Anki's v1 scheduler; as Anki does when it imports or opens it, "
        + changed.joined(separator: "; "))
  }
}
