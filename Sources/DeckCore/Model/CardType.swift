/// Where a card is in its life, as Anki records it (the `type` column of `cards`).
///
/// Anki defines four values; any other value a collection holds is kept as it is, so a deck
/// converts without losing it:
///
/// ```swift
/// switch card.scheduling.type {
/// case .new: print("not studied yet")
/// case .review: print("due in \(card.scheduling.interval) days")
/// default: print("learning, relearning, or Anki's \(card.scheduling.type.rawValue)")
/// }
/// ```
public struct CardType: AnkiCode, Hashable, Sendable {
  /// The value Anki stores.
  public var rawValue: Int

  /// The type with this stored value (defined by Anki or not).
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Never studied.
  public static let new = CardType(rawValue: 0)
  /// In its first learning steps.
  public static let learning = CardType(rawValue: 1)
  /// Graduated: reviewed at growing intervals.
  public static let review = CardType(rawValue: 2)
  /// Forgotten after graduating, back in learning steps.
  public static let relearning = CardType(rawValue: 3)

  /// The names Anki gives its values, by stored value.
  public static let names = [0: "new", 1: "learning", 2: "review", 3: "relearning"]
}
