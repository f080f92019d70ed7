/// What kind of answer a review log entry records, as Anki records it (the `type` column of
/// `revlog`). Anki defines the values below; any other stored value is kept as it is.
public struct ReviewKind: AnkiCode, Hashable, Sendable {
  /// The value Anki stores.
  public var rawValue: Int

  /// The kind with this stored value (defined by Anki or not).
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// An answer to a card in learning.
  public static let learning = ReviewKind(rawValue: 0)
  /// An answer to a review card.
  public static let review = ReviewKind(rawValue: 1)
  /// An answer to a card in relearning.
  public static let relearning = ReviewKind(rawValue: 2)
  /// An answer in a filtered deck, ahead of schedule.
  public static let filtered = ReviewKind(rawValue: 3)
  /// A manual change of schedule (set due date, forget).
  public static let manual = ReviewKind(rawValue: 4)
  /// A reschedule by the FSRS optimiser.
  public static let rescheduled = ReviewKind(rawValue: 5)

  /// The names Anki gives its values, by stored value.
  public static let names = [
    0: "learning", 1: "review", 2: "relearning", 3: "filtered", 4: "manual", 5: "rescheduled",
  ]
}
