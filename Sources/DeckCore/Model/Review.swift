import Foundation

/// One entry of the review log: a card was answered (or rescheduled by hand) at a moment.
public struct Review: Sendable, Equatable, Identifiable {
  /// The moment of the review, in milliseconds since 1970 (also its id).
  public var id: Int64
  /// The id of the reviewed ``Card``.
  public var cardID: Int64
  /// The answer button, 1 (Again) to 4 (Easy); 0 for a manual reschedule.
  public var ease: Int
  /// The new interval: positive in days, negative in seconds.
  public var interval: Int64
  /// The previous interval, in the same units.
  public var lastInterval: Int64
  /// The ease in permille after the answer.
  public var easeFactor: Int
  /// How long the answer took, in milliseconds.
  public var duration: Int
  /// What the entry records: an answer while learning, reviewing or relearning, in a filtered
  /// deck, or a change of schedule.
  public var kind: ReviewKind

  /// The moment of the review (its ``id``).
  public var date: Date { Date(timeIntervalSince1970: TimeInterval(id) / 1_000) }

  /// Creates a review log entry.
  public init(
    id: Int64, cardID: Int64, ease: Int, interval: Int64, lastInterval: Int64, easeFactor: Int,
    duration: Int, kind: ReviewKind
  ) {
    self.id = id
    self.cardID = cardID
    self.ease = ease
    self.interval = interval
    self.lastInterval = lastInterval
    self.easeFactor = easeFactor
    self.duration = duration
    self.kind = kind
  }
}
