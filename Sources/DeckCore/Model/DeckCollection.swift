/// Everything deckport moves between formats: decks, note types, notes, cards, the review log
/// and media, as one value.
///
/// Every format reads into a `DeckCollection` and writes from one; formats never convert
/// directly into each other. The model holds no file handles except inside ``MediaBlob``, whose
/// bytes stay in their source until a writer asks for them.
public struct DeckCollection: Sendable, Equatable {
  /// The collection's creation time, in seconds since 1970, at the start of its first day.
  ///
  /// Review cards store their due date as a day number counted from this moment
  /// (see ``CardScheduling/due``).
  public var creationTime: Int64
  /// Decks, including parents that hold no cards, in id order.
  public var decks: [Deck]
  /// Deck option groups ("presets"), in id order.
  public var deckOptions: [DeckOptions]
  /// Note types, in id order.
  public var noteTypes: [NoteType]
  /// Notes, in id order.
  public var notes: [Note]
  /// Cards, in id order.
  public var cards: [Card]
  /// The review log, in id (time) order.
  public var reviews: [Review]
  /// Media files, in the order the source lists them.
  public var media: [MediaFile]
  /// Records of notes, cards and decks deleted since the collection last synced (Anki's
  /// `graves`), in the order the source lists them; empty for most decks.
  public var deletions: [Deletion]
  /// The collection's own settings, sorted by key; read from collection packages only (see
  /// ``AnkiProperty``), empty otherwise.
  public var settings: [AnkiProperty]
  /// The collection's list of tags (a collection package's: ``RegisteredTag``), in the order
  /// the source lists them; empty otherwise.
  public var tagRegistry: [RegisteredTag]

  /// Creates a collection.
  public init(
    creationTime: Int64 = 0, decks: [Deck] = [], deckOptions: [DeckOptions] = [],
    noteTypes: [NoteType] = [], notes: [Note] = [], cards: [Card] = [], reviews: [Review] = [],
    media: [MediaFile] = [], deletions: [Deletion] = [], settings: [AnkiProperty] = [],
    tagRegistry: [RegisteredTag] = []
  ) {
    self.creationTime = creationTime
    self.decks = decks
    self.deckOptions = deckOptions
    self.noteTypes = noteTypes
    self.notes = notes
    self.cards = cards
    self.reviews = reviews
    self.media = media
    self.deletions = deletions
    self.settings = settings
    self.tagRegistry = tagRegistry
  }
}

extension DeckCollection {
  /// The deck with the given id, if the collection has one.
  public func deck(id: Int64) -> Deck? { decks.first { $0.id == id } }

  /// The note type with the given id, if the collection has one.
  public func noteType(id: Int64) -> NoteType? { noteTypes.first { $0.id == id } }
}

extension DeckCollection {
  /// Makes every media check still pending (``MediaBlob/init(source:checkedOnRead:)``): reads
  /// each file no read has checked yet and compares it with what its source declares. Call it
  /// before keeping anything written from a collection loaded with deferred media checks.
  ///
  /// - Throws: the first file's error, in media order: bytes that differ from their
  ///   declaration, or that cannot be read; `CancellationError` when the work is no longer
  ///   wanted (``Cancellation``).
  package func checkPendingMedia() throws {
    for file in media where file.blob.hasPendingCheck {
      try Cancellation.check()
      _ = try file.blob.fingerprint()
    }
  }
}
