import DeckCore
import DeckIO
import Foundation

/// Which layout an SQLite file has: a Core Data/SwiftData store, deckport's app-records schema,
/// or nothing yet (an empty database).
enum SQLiteLayout: Equatable {
  case coreData
  case deckport
  case empty

  /// The storage kind this layout is read as.
  var kind: AppStorageKind { self == .coreData ? .coreData : .sqlite }

  /// The layout of the SQLite file at `path`, read from a snapshot.
  ///
  /// - Throws: ``DeckError`` `.wrongFormat` naming the tables of a file of any other layout.
  static func detect(path: String) throws -> SQLiteLayout {
    let location = SourceLocation(file: path)
    let snapshot = try SQLiteSnapshot(of: path, location: location)
    let database = try snapshot.open(location: location)
    return try detect(database, location: location)
  }

  /// The layout of an open database.
  static func detect(_ database: SQLiteDatabase, location: SourceLocation) throws -> SQLiteLayout {
    let tables = try tableNames(database)
    let upper = Set(tables.map { $0.uppercased() })
    if upper.contains("Z_PRIMARYKEY") && upper.contains("Z_METADATA") { return .coreData }
    if upper.contains(SQLiteRecordSchema.storageTable.uppercased()) { return .deckport }
    if tables.isEmpty { return .empty }
    let listed = ShortList.text(tables, limit: 8)
    throw DeckError(
      .wrongFormat, at: location,
      "an SQLite file of an unknown layout: its tables are \(listed); deckport reads its own app-records schema (table \(SQLiteRecordSchema.storageTable)) and Core Data/SwiftData stores (tables Z_PRIMARYKEY and Z_METADATA)"
    )
  }

  /// The names of the database's tables, in schema order, without SQLite's own.
  static func tableNames(_ database: SQLiteDatabase) throws -> [String] {
    let statement = try database.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
    var names: [String] = []
    while try statement.step() { names.append(statement.text(0)) }
    return names
  }
}
