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
enum SQLiteRecordSchema {
  static let storageTable = "deckport_app_storage"
  static let recordTypesTable = "deckport_record_types"
  static let fieldsTable = "deckport_fields"
  static let positionColumn = "deckport_position"
  static let keysColumn = "deckport_keys"
  static let formatName = "deckport-app-records"
  static let version = 1

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
