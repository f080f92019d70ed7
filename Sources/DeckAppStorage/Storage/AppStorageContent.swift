import DeckCore

/// Records read from a storage file, with where they were found.
public struct AppStorageContent: Sendable {
  /// The kind of storage.
  public var kind: AppStorageKind
  /// The records.
  public var records: AppRecords
  /// Where in the file they were: `key 'Cards' (JSON data in a binary plist)`, `entity Card`.
  public var place: String
  /// What could not be carried or had to be guessed.
  public var warnings: [Diagnostic]
  /// Whether the records are stored as JSON text (a JSON file, JSON data or a JSON string under
  /// a plist key), which holds a picture only as its base64 text.
  package var holdsDataAsText = false

  /// Creates content.
  public init(kind: AppStorageKind, records: AppRecords, place: String, warnings: [Diagnostic] = []) {
    self.kind = kind
    self.records = records
    self.place = place
    self.warnings = warnings
  }
}

/// One record type a storage file holds: a plist key with records, a JSON file's array, a table
/// of deckport's SQLite schema, or a Core Data entity.
public struct AppRecordTypeSummary: Sendable, Equatable {
  /// The key, table or entity name.
  public var name: String
  /// How many records it holds.
  public var count: Int
  /// Its keys and their types.
  public var fields: [AppRecordShape.Field]
  /// The built-in profile the records fit, if any.
  public var profile: AppRecordProfile?
  /// More about it (the plist form, the Core Data table, relationships not carried).
  public var detail: String

  /// Creates a summary.
  public init(name: String, count: Int, fields: [AppRecordShape.Field], profile: AppRecordProfile?, detail: String) {
    self.name = name
    self.count = count
    self.fields = fields
    self.profile = profile
    self.detail = detail
  }
}
