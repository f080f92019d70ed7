/// A card: one reviewable side of a note (a template ordinal, or a cloze number minus one),
/// placed in a deck, with its scheduling state.
public struct Card: Sendable, Equatable, Identifiable {
  /// The card's id (milliseconds since 1970 at creation in Anki).
  public var id: Int64
  /// The id of the card's ``Note``.
  public var noteID: Int64
  /// The template index for standard note types; the cloze number minus one for cloze.
  public var templateOrdinal: Int
  /// The id of the deck the card is in (a filtered deck while the card is borrowed).
  public var deckID: Int64
  /// Last modification, in seconds since 1970.
  public var modificationTime: Int64
  /// The full scheduling state.
  public var scheduling: CardScheduling

  /// Creates a card.
  public init(
    id: Int64, noteID: Int64, templateOrdinal: Int, deckID: Int64, modificationTime: Int64 = 0,
    scheduling: CardScheduling = CardScheduling()
  ) {
    self.id = id
    self.noteID = noteID
    self.templateOrdinal = templateOrdinal
    self.deckID = deckID
    self.modificationTime = modificationTime
    self.scheduling = scheduling
  }
}

/// Where a card stands in its schedule, in Anki's terms.
public struct CardScheduling: Sendable, Equatable {
  /// Where the card is in its life: new, learning, review or relearning.
  public var type: CardType
  /// Which queue the scheduler takes it from (or suspended, buried).
  public var queue: CardQueue
  /// When the card is due. New cards: position. Queues 1 and 4: seconds since 1970.
  /// Queues 2 and 3: days since ``DeckCollection/creationTime``.
  public var due: Int64
  /// The current interval in days (0 for new and learning cards).
  public var interval: Int
  /// The ease in permille (2500 = 250%); 0 for new and learning cards.
  public var easeFactor: Int
  /// How many times the card was reviewed.
  public var reviews: Int
  /// How many times the card lapsed from review back to relearning.
  public var lapses: Int
  /// The learning steps left (Anki's `left`, stored as is).
  public var remainingSteps: Int
  /// The user flag, 0 (none) to 7, plus any higher bits the source stored.
  public var flags: Int
  /// The due value the card had before it moved into a filtered deck, else 0.
  public var originalDue: Int64
  /// The deck the card came from while it sits in a filtered deck, else 0.
  public var originalDeckID: Int64
  /// Anki's per-card JSON data (FSRS memory state, original position, custom data), or "".
  public var data: String

  /// Creates a scheduling state; the defaults describe a new card.
  public init(
    type: CardType = .new, queue: CardQueue = .new, due: Int64 = 0, interval: Int = 0, easeFactor: Int = 0,
    reviews: Int = 0, lapses: Int = 0, remainingSteps: Int = 0, flags: Int = 0,
    originalDue: Int64 = 0, originalDeckID: Int64 = 0, data: String = ""
  ) {
    self.type = type
    self.queue = queue
    self.due = due
    self.interval = interval
    self.easeFactor = easeFactor
    self.reviews = reviews
    self.lapses = lapses
    self.remainingSteps = remainingSteps
    self.flags = flags
    self.originalDue = originalDue
    self.originalDeckID = originalDeckID
    self.data = data
  }
}
