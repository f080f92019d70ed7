/// A set of records of one type, as one storage place holds them: the cards under a plist key,
/// the array in a JSON file, the rows of a table or of a Core Data entity.
///
/// ```swift
/// let migration = try AppMigrator().migrate(
///   source: "com.example.Flashzilla.plist", destination: "cards.sqlite",
///   options: AppMigrationOptions(key: "Cards"))
/// let cards = migration.source.records
/// print(cards.name, cards.records.count, cards.profile?.title ?? "generic")
/// ```
public struct AppRecords: Sendable, Equatable {
  /// The record type: the plist key, the JSON file's name, the table or the Core Data entity.
  public var name: String
  /// The records, in stored order.
  public var records: [AppRecord]
  /// Every key with the type of its values (declared by the storage, or inferred).
  public var shape: AppRecordShape
  /// The named profile the records match (Flashzilla, NeoMnemo, …), or nil for a generic shape.
  public var profile: AppRecordProfile?
  /// How dates are written when the records are stored as JSON.
  public var jsonDates: JSONDateEncoding
  /// Each record's primary key in its storage (Core Data `Z_PK`), for messages; nil when the
  /// storage has none but the position.
  public var primaryKeys: [Int64]?
  /// Whether the values are a deck's note text (records made from notes without a profile):
  /// a destination reads each text as the type its model or its held values give the key
  /// (``NoteTextTyping``), and matches held records by the text they would show.
  var valuesAreNoteText = false
  /// Whether the profile's creation date of each record is its note's id (records made from a
  /// deck's notes, Flashcard Quiz's `createdAt`): notes made from records of one millisecond got
  /// the next free ids, so a date a few milliseconds later than a held record's may be that
  /// record's own (``AppRecordMergePlan``).
  var creationDatesAreNoteIDs = false
  /// Each record's Core Data object URI (`x-coredata://STORE/Entity/pN`), when the records are
  /// the rows of a store's entity: the identity a deck's note made from the row keeps in its GUID
  /// (``NoteIdentity/guid(ofObject:)``).
  var objectURIs: [String]?
  /// For records made from a deck's notes, each note's GUID: a store finds the row a note was
  /// made from by it (``objectURIs``).
  var noteGUIDs: [String]?

  /// Creates a record set; the shape is inferred from the records, starting from `declared`.
  public init(
    name: String, records: [AppRecord], declared: AppRecordShape? = nil, profile: AppRecordProfile? = nil,
    jsonDates: JSONDateEncoding = .secondsSince2001, primaryKeys: [Int64]? = nil
  ) {
    self.name = name
    self.records = records
    self.shape = AppRecordShape.inferred(from: records, declared: declared)
    self.profile = profile
    self.jsonDates = jsonDates
    self.primaryKeys = primaryKeys
  }

  /// How messages name record `index` (from 0): `record 4`, or `record 4 (Z_PK 17)`, counted
  /// from 1 (``label(ofRecordAt:)``).
  public func label(ofRecord index: Int) -> String {
    if let primaryKeys, index < primaryKeys.count {
      return "\(Self.label(ofRecordAt: index)) (Z_PK \(primaryKeys[index]))"
    }
    return Self.label(ofRecordAt: index)
  }

  /// How messages name the record at `index` (from 0) of a list: `record 1` for the first, as a
  /// person counts (and as CSV lines are counted), not as the file's array is indexed.
  public static func label(ofRecordAt index: Int) -> String { "record \(index + 1)" }

  /// The records with the same name, profile, date encoding and kind of values but new
  /// content; the shape is inferred again.
  func replacingRecords(_ records: [AppRecord], primaryKeys: [Int64]? = nil) -> AppRecords {
    var replaced = AppRecords(
      name: name, records: records, declared: shape, profile: profile, jsonDates: jsonDates,
      primaryKeys: primaryKeys)
    replaced.valuesAreNoteText = valuesAreNoteText
    replaced.creationDatesAreNoteIDs = creationDatesAreNoteIDs
    return replaced
  }

  /// Equal when name and records are equal; the shape follows from the records, and the
  /// profile, date encoding and primary keys describe the storage rather than the content.
  public static func == (lhs: AppRecords, rhs: AppRecords) -> Bool {
    lhs.name == rhs.name && lhs.records == rhs.records
  }
}
