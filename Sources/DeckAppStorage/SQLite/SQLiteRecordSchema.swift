import DeckCore

/// deckport's SQLite schema for app records (documented in docs/app-storage.md):
///
/// ```sql
/// CREATE TABLE deckport_app_storage (key TEXT PRIMARY KEY, value TEXT NOT NULL);
///   -- ('format', 'deckport-app-records'), ('version', '1')
/// CREATE TABLE deckport_record_types (name TEXT PRIMARY KEY, table_name TEXT NOT NULL UNIQUE,
///   profile TEXT, json_dates TEXT NOT NULL, position INTEGER NOT NULL);
/// CREATE TABLE deckport_fields (record_type TEXT NOT NULL, position INTEGER NOT NULL,
///   key TEXT NOT NULL, column_name TEXT NOT NULL, type TEXT NOT NULL,
///   PRIMARY KEY (record_type, position));
/// CREATE TABLE "<record type>" (deckport_position INTEGER PRIMARY KEY, deckport_keys TEXT,
///   "<key>" <type>, …);
/// ```
///
/// One table per record type, one typed column per key. `deckport_keys` is NULL when the record
/// has exactly the shape's keys in the shape's order, else a JSON array of its keys in order (so
/// absent keys and a different order survive).
///
/// SQL text ends at a NUL character, so a record type or key holding one cannot name a table or
/// column, and SQLite gives a table at most 2000 columns; ``requireStorable(_:at:)`` refuses such
/// records before any SQL runs.
enum SQLiteRecordSchema {
  static let storageTable = "deckport_app_storage"
  static let recordTypesTable = "deckport_record_types"
  static let fieldsTable = "deckport_fields"
  static let positionColumn = "deckport_position"
  static let keysColumn = "deckport_keys"
  static let formatName = "deckport-app-records"
  static let version = 1
  /// The most columns SQLite gives a table (`SQLITE_MAX_COLUMN` of its standard build).
  static let maximumColumns = 2_000
  /// The most keys a record type's table holds: one column each, beside ``positionColumn`` and
  /// ``keysColumn``.
  static let maximumKeys = maximumColumns - 2

  /// Refuses records this schema cannot store, naming the record type: a name or key holding a
  /// NUL character (SQL text ends there, so it cannot name a table or column), or more keys
  /// than a table has columns.
  ///
  /// - Throws: ``DeckError`` at `location`, before any SQL is run.
  static func requireStorable(_ records: AppRecords, at location: SourceLocation) throws {
    let place = location.item("record type '\(records.name)'")
    if records.name.unicodeScalars.contains("\0") {
      throw DeckError(
        .invalidRequest, at: place,
        "the name holds a NUL character (U+0000), which SQLite cannot hold in a table name; name the record type with \(setting: .recordEntity); nothing was written"
      )
    }
    if let key = records.shape.keys.first(where: { $0.unicodeScalars.contains("\0") }) {
      throw DeckError(
        .invalidRequest, at: place,
        "the key '\(key)' holds a NUL character (U+0000), which SQLite cannot hold in a column name; nothing was written"
      )
    }
    let keys = records.shape.keys.count
    if keys > maximumKeys {
      throw DeckError(
        .invalidRequest, at: place,
        "its records have \(keys) keys, and a table holds at most \(maximumKeys) (SQLite's limit of \(maximumColumns) columns, less deckport's own \(positionColumn) and \(keysColumn)); nothing was written"
      )
    }
  }

  static let createMetadata = """
    CREATE TABLE IF NOT EXISTS deckport_app_storage (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT OR REPLACE INTO deckport_app_storage (key, value) VALUES ('format', 'deckport-app-records'), ('version', '1');
    CREATE TABLE IF NOT EXISTS deckport_record_types (name TEXT PRIMARY KEY, table_name TEXT NOT NULL UNIQUE, profile TEXT, json_dates TEXT NOT NULL, position INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS deckport_fields (record_type TEXT NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, column_name TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY (record_type, position));
    """

  /// The declared SQL type of a column holding values of `type`.
  static func declaredType(_ type: AppValueType) -> String {
    switch type {
    case .string, .uuid, .array, .object, .any: "TEXT"
    case .integer, .bool: "INTEGER"
    case .double, .date: "REAL"
    case .data: "BLOB"
    }
  }

  /// `name` quoted as an SQL identifier.
  static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Column names for `keys`: the key itself, unless it is empty, reserved, or equal (ignoring
  /// case, as SQLite compares names) to an earlier one; then a `_2`, `_3`, … suffix.
  static func columnNames(for keys: [String]) -> [String] {
    var used: Set<String> = [positionColumn, keysColumn]
    return keys.map { key in
      var name = key.isEmpty ? "column" : key
      var suffix = 2
      while used.contains(name.lowercased()) {
        name = (key.isEmpty ? "column" : key) + "_\(suffix)"
        suffix += 1
      }
      used.insert(name.lowercased())
      return name
    }
  }

  /// The table for a record type named `name`: the name itself, unless it would clash with
  /// SQLite's or deckport's own tables or with `taken` (compared ignoring case).
  static func tableName(for name: String, taken: Set<String>) -> String {
    var base = name.isEmpty ? "records" : name
    let lower = base.lowercased()
    if lower.hasPrefix("sqlite_") || lower.hasPrefix("deckport_") { base = "records_" + base }
    var candidate = base
    var suffix = 2
    while taken.contains(candidate.lowercased()) {
      candidate = base + "_\(suffix)"
      suffix += 1
    }
    return candidate
  }
}
