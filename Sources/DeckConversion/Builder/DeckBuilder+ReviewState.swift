import DeckCore
import Foundation

/// What an app knows of the user's progress, carried into Anki: review states and their history.
extension DeckBuilder {
  /// Where the user stands with a card in the app's own scheduler, carried into Anki so that the
  /// card comes up for review when the app would have shown it.
  ///
  /// Anki imports it when the user keeps "Import any learning progress" ticked in its import
  /// dialog (`with_scheduling`); otherwise the cards arrive new.
  public struct ReviewState: Sendable, Equatable {
    /// When the card is next due; Anki schedules reviews by day, the day this moment falls in
    /// (a past date makes the card overdue).
    public var due: Date
    /// The interval the card was last given, in days (1 or more).
    public var intervalDays: Int
    /// The ease: how much the interval grows on a good answer (Anki starts cards at 2.5, and
    /// never goes under 1.3).
    public var ease: Double
    /// How many times the card was reviewed (0 for a card given a due date before any review,
    /// as Anki's "Set due date" gives one).
    public var reviews: Int
    /// How many times it was forgotten after it had been learned.
    public var lapses: Int
    /// The answers the user gave the card, oldest first, for Anki's review history: its
    /// statistics, and what FSRS learns the user's memory from. Empty when the app keeps none.
    public var history: [PastReview]

    /// A review state; the defaults are those of a card learned once, with no history.
    public init(
      due: Date, intervalDays: Int, ease: Double = 2.5, reviews: Int = 1, lapses: Int = 0,
      history: [PastReview] = []
    ) {
      self.due = due
      self.intervalDays = intervalDays
      self.ease = ease
      self.reviews = reviews
      self.lapses = lapses
      self.history = history
    }

    /// The state without its history, as the shared rules take it.
    var schedule: ReviewSchedule {
      ReviewSchedule(due: due, intervalDays: intervalDays, ease: ease, reviews: reviews, lapses: lapses)
    }

    /// Why Anki could not hold this state, or nil.
    var problem: String? {
      if let problem = schedule.problem { return problem }
      for (position, review) in history.enumerated() {
        if let problem = review.problem { return "a past review (\(position + 1) of \(history.count)) with \(problem)" }
      }
      return nil
    }
  }

  /// One answer the user gave a card in the app, as Anki's review history records it.
  ///
  /// Anki keys its history by the moment of each answer (in milliseconds), so exporting the
  /// same history again adds nothing to it; answers of one moment are a millisecond apart.
  public struct PastReview: Sendable, Equatable {
    /// The button the user's answer stands for.
    public enum Answer: Int, Sendable {
      /// Forgotten.
      case again = 1
      /// Recalled with difficulty.
      case hard = 2
      /// Recalled.
      case good = 3
      /// Recalled at once.
      case easy = 4
    }

    /// When the card was answered (not in the future).
    public var date: Date
    /// The answer.
    public var answer: Answer
    /// The interval the answer gave the card, in days (0 to 36,500; 0 for a step within the day).
    public var intervalDays: Int
    /// The interval the card had before, in days (0 to 36,500; 0 for a new card).
    public var previousIntervalDays: Int
    /// The ease after the answer (1.3 to 10), or nil while the card is being learned (Anki
    /// records no ease then).
    public var ease: Double?
    /// How long the user took to answer, in seconds (0 to an hour).
    public var duration: TimeInterval
    /// Whether the card was being learned, reviewed or relearned (or reviewed ahead in a
    /// filtered deck): ``ReviewKind/learning``, ``ReviewKind/review``, ``ReviewKind/relearning``
    /// or ``ReviewKind/filtered``.
    public var kind: ReviewKind

    /// An answer; the defaults are those of a review of a card without a recorded ease.
    public init(
      date: Date, answer: Answer, intervalDays: Int, previousIntervalDays: Int = 0, ease: Double? = nil,
      duration: TimeInterval = 0, kind: ReviewKind = .review
    ) {
      self.date = date
      self.answer = answer
      self.intervalDays = intervalDays
      self.previousIntervalDays = previousIntervalDays
      self.ease = ease
      self.duration = duration
      self.kind = kind
    }

    /// Why Anki could not hold this answer, or nil.
    var problem: String? {
      let seconds = date.timeIntervalSince1970
      if !seconds.isFinite || seconds < 0 || seconds > 1e11 { return "a date out of range" }
      if date > Date() { return "a date in the future" }
      for (name, days) in [("an interval", intervalDays), ("a previous interval", previousIntervalDays)]
      where !(0...36_500).contains(days) {
        return "\(name) of \(days) days (Anki's run from 0 to 36,500)"
      }
      if let ease, !(1.3...10).contains(ease) { return "an ease of \(ease) (Anki's run from 1.3 to 10)" }
      if !(0...3_600).contains(duration) { return "a duration of \(duration) seconds (0 to 3,600 are kept)" }
      if !(ReviewKind.learning.rawValue...ReviewKind.filtered.rawValue).contains(kind.rawValue) {
        return "kind \(kind.rawValue) (an answer is one of learning, review, relearning or filtered)"
      }
      return nil
    }
  }

  /// `cards` (new, as ``NewNotes`` makes them) with the review states the app gave their notes
  /// (`noteStates`, by note position) or themselves (`cardStates`, by note position and
  /// ordinal), review cards due on days counted from `creation`, and suspended: every card of
  /// the notes at `suspended` positions, and the cards `suspendedCards` names (by note position
  /// and ordinal); and the review log of the states' histories. A review log entry's id is the
  /// moment of the answer in milliseconds, one millisecond later for each answer of a moment
  /// taken already.
  static func scheduled(
    _ cards: [Card], of notes: [Note], noteStates: [Int: ReviewState], cardStates: [Int: [Int: ReviewState]],
    suspended: Set<Int>, suspendedCards: [Int: Set<Int>], creation: Date
  ) -> (cards: [Card], reviews: [Review]) {
    guard !noteStates.isEmpty || !cardStates.isEmpty || !suspended.isEmpty || !suspendedCards.isEmpty else {
      return (cards, [])
    }
    var positions: [Int64: Int] = [:]
    for (position, note) in notes.enumerated() { positions[note.id] = position }
    var cards = cards
    var answers: [(moment: Int64, order: Int, cardID: Int64, review: PastReview)] = []
    for index in cards.indices {
      let card = cards[index]
      guard let position = positions[card.noteID] else { continue }
      let isSuspended =
        suspended.contains(position) || suspendedCards[position]?.contains(card.templateOrdinal) == true
      guard let state = cardStates[position]?[card.templateOrdinal] ?? noteStates[position] else {
        if isSuspended { cards[index].scheduling.queue = .suspended }
        continue
      }
      cards[index].scheduling = state.schedule.scheduling(creation: creation, suspended: isSuspended)
      for review in state.history {
        let moment = Int64((review.date.timeIntervalSince1970 * 1_000).rounded(.down))
        answers.append((moment, answers.count, card.id, review))
      }
    }
    answers.sort { ($0.moment, $0.order) < ($1.moment, $1.order) }
    var reviews: [Review] = []
    reviews.reserveCapacity(answers.count)
    var lastID = Int64.min
    for answer in answers {
      let id = max(answer.moment, lastID &+ 1)
      lastID = id
      let review = answer.review
      reviews.append(
        Review(
          id: id, cardID: answer.cardID, ease: review.answer.rawValue, interval: Int64(review.intervalDays),
          lastInterval: Int64(review.previousIntervalDays),
          easeFactor: review.ease.map { Int(($0 * 1_000).rounded()) } ?? 0,
          duration: Int((review.duration * 1_000).rounded()), kind: review.kind))
    }
    return (cards, reviews)
  }
}
