/// Which queue the scheduler takes a card from, as Anki records it (the `queue` column of
/// `cards`): the card's type, or a state that holds the card back (suspended, buried).
///
/// Anki defines the values below; any other value a collection holds is kept as it is.
public struct CardQueue: AnkiCode, Hashable, Sendable {
  /// The value Anki stores.
  public var rawValue: Int

  /// The queue with this stored value (defined by Anki or not).
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// New cards, in ``CardScheduling/due`` order (a position).
  public static let new = CardQueue(rawValue: 0)
  /// Learning cards due within the day (``CardScheduling/due`` in seconds since 1970).
  public static let learning = CardQueue(rawValue: 1)
  /// Review cards (``CardScheduling/due`` in days since the collection's creation).
  public static let review = CardQueue(rawValue: 2)
  /// Learning cards whose next step is a day or more away (due in days).
  public static let dayLearning = CardQueue(rawValue: 3)
  /// Cards previewed in a filtered deck (due in seconds since 1970).
  public static let preview = CardQueue(rawValue: 4)
  /// Suspended by the user.
  public static let suspended = CardQueue(rawValue: -1)
  /// Buried by the scheduler (a sibling was studied).
  public static let buriedBySibling = CardQueue(rawValue: -2)
  /// Buried by the user.
  public static let buriedByUser = CardQueue(rawValue: -3)

  /// The names Anki gives its values, by stored value.
  public static let names = [
    0: "new", 1: "learning", 2: "review", 3: "day learning", 4: "preview", -1: "suspended", -2: "buried by sibling",
    -3: "buried by user",
  ]
}
