/// A note: one set of field values of a note type, with tags. Cards are generated from it.
public struct Note: Sendable, Equatable, Identifiable {
  /// The note's id (milliseconds since 1970 at creation in Anki).
  public var id: Int64
  /// The globally unique id Anki matches notes by when a deck is imported again.
  public var guid: String
  /// The id of the note's ``NoteType``.
  public var noteTypeID: Int64
  /// The field values in the note type's field order, exactly as stored (HTML untouched).
  public var fields: [String]
  /// The tags, in stored order; hierarchy is in the tag (`a::b`).
  public var tags: [String]
  /// Last modification, in seconds since 1970 (Anki updates a note on import only when newer).
  public var modificationTime: Int64

  /// Creates a note.
  public init(
    id: Int64, guid: String, noteTypeID: Int64, fields: [String], tags: [String] = [],
    modificationTime: Int64 = 0
  ) {
    self.id = id
    self.guid = guid
    self.noteTypeID = noteTypeID
    self.fields = fields
    self.tags = tags
    self.modificationTime = modificationTime
  }
}
