/// A record that a note, card or deck was deleted since the collection last synced: a row of
/// Anki's `graves` table, which Anki sends at its next sync so that the deletion reaches the
/// user's other devices. Anki keeps these when it restores a collection package; its deck
/// packages hold none.
public struct Deletion: Sendable, Hashable {
  /// The id the deleted note, card or deck had.
  public var objectID: Int64
  /// What was deleted.
  public var kind: DeletionKind
  /// The update sequence number: -1 while the deletion waits for a sync, the server's number
  /// for it once synced.
  public var updateSequenceNumber: Int64

  /// Creates a deletion record.
  public init(objectID: Int64, kind: DeletionKind, updateSequenceNumber: Int64 = -1) {
    self.objectID = objectID
    self.kind = kind
    self.updateSequenceNumber = updateSequenceNumber
  }
}

/// What a deletion record (``Deletion``) says was deleted, as Anki stores it (the `type` column
/// of `graves`). Anki defines the values below; any other stored value is kept as it is.
public struct DeletionKind: AnkiCode, Hashable, Sendable {
  /// The value Anki stores.
  public var rawValue: Int

  /// The kind with this stored value (defined by Anki or not).
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A card was deleted.
  public static let card = DeletionKind(rawValue: 0)
  /// A note was deleted.
  public static let note = DeletionKind(rawValue: 1)
  /// A deck was deleted.
  public static let deck = DeletionKind(rawValue: 2)

  /// The names Anki gives its values, by stored value.
  public static let names = [0: "card", 1: "note", 2: "deck"]
}
