import DeckCore
import DeckIO
import Foundation

/// The steps every write into a Core Data/SwiftData store shares: the store is read and changed
/// only in a private copy (with its `-wal` and `-shm`), stores that sync with CloudKit are
/// refused, the change runs in one transaction, and the copy must pass `PRAGMA integrity_check`
/// and have its `-wal` folded in before it is copied to the path the new store is written at.
enum CoreDataStoreEdit {
  /// Refuses to write a store that does not exist yet: Core Data checks the entity version
  /// hashes in `Z_METADATA`, made by Apple's private algorithm, so only the app can create it.
  static func requireExisting(_ exists: Bool, location: SourceLocation) throws {
    guard exists else {
      throw DeckError(
        .invalidRequest, at: location,
        "a Core Data/SwiftData store can only be filled, never created (its model hashes are Apple's private algorithm); launch the app once so it creates its store, then write into that"
      )
    }
  }

  /// The schema of the store at `destination`, read from a private copy; refuses a store that
  /// syncs with CloudKit. `body` reads what it needs while the copy is open.
  static func inspect<T>(
    _ destination: String, location: SourceLocation, _ body: (SQLiteDatabase, CoreDataSchema) throws -> T
  ) throws -> T {
    let snapshot = try SQLiteSnapshot(of: destination, location: location)
    let database = try snapshot.open(location: location)
    let schema = try CoreDataSchema(database: database, location: location)
    if let evidence = schema.cloudKitEvidence(try SQLiteLayout.tableNames(database)) {
      throw DeckError(
        .invalidRequest, at: location,
        "refusing to write: the store syncs with CloudKit (\(evidence)); rows written outside the app would not be uploaded and could be overwritten"
      )
    }
    return try body(database, schema)
  }

  /// Changes a private copy of the store at `destination` with `body` (in one transaction) and
  /// writes the result at `path`.
  static func apply<T>(
    to destination: String, writingAt path: String, location: SourceLocation,
    _ body: (SQLiteDatabase, CoreDataSchema) throws -> T
  ) throws -> T {
    let snapshot = try SQLiteSnapshot(of: destination, location: location)
    let database = try SQLiteDatabase(path: snapshot.path, readOnly: false, location: location)
    let schema = try CoreDataSchema(database: database, location: location)
    for name in try triggerFunctions(database) { try database.registerNoOpFunction(name) }
    try database.execute("BEGIN IMMEDIATE")
    let result: T
    do {
      result = try body(database, schema)
      try database.execute("COMMIT")
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
    let check = try database.prepare("PRAGMA integrity_check")
    _ = try check.step()
    let verdict = check.text(0)
    check.reset()
    guard verdict == "ok" else {
      throw DeckError(
        .writeFailed, at: location,
        "the store fails SQLite's integrity check after writing (\(verdict)); nothing was written")
    }
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    do {
      try FileManager.default.copyItem(atPath: snapshot.path, toPath: path)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot write the file (\(error.localizedDescription))")
    }
    return result
  }

  /// The functions Core Data registers on its own connection that the store's triggers call
  /// (`NSCoreDataTriggerUpdateAffectedObjectValue`, `NSCoreDataDATriggerUpdatedAffectedObjectValue`,
  /// …). The triggers keep derived attributes and counts up to date in SQL and then call these
  /// to tell the app's open context; registered as functions that do nothing, the triggers' SQL
  /// runs as it does under Core Data, and an insert is not refused for a missing function.
  static func triggerFunctions(_ database: SQLiteDatabase) throws -> Set<String> {
    let statement = try database.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger'", table: "sqlite_master")
    var names: Set<String> = []
    while try statement.step() {
      let sql = statement.text(0)
      var rest = sql[...]
      while let start = rest.range(of: "NSCoreData") {
        let name = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if rest[start.lowerBound...].dropFirst(name.count).first == "(" { names.insert(String(name)) }
        rest = rest[start.upperBound...]
      }
    }
    return names
  }

  /// The bytes of `Z_METADATA` and `Z_MODELCACHE`, which writing must never change.
  static func bookkeeping(_ database: SQLiteDatabase) throws -> [Data] {
    var blobs: [Data] = []
    for (table, column) in [("Z_METADATA", "Z_PLIST"), ("Z_MODELCACHE", "Z_CONTENT")] where database.tableExists(table)
    {
      let statement = try database.prepare("SELECT \(column) FROM \(table)", table: table)
      while try statement.step() { blobs.append(statement.blob(0)) }
    }
    return blobs
  }

  /// Moves files staged in `stagingFolder` into the `_EXTERNAL_DATA` folder of the store at
  /// `destination` (before the store that names them is put in place); returns their new paths,
  /// for removal if that fails.
  static func placeExternalFiles(
    _ names: [String], from stagingFolder: URL, destination: String, location: SourceLocation
  ) throws
    -> [String]
  {
    guard !names.isEmpty else { return [] }
    let folder = CoreDataExternalStorage.folder(forStore: destination)
    var placed: [String] = []
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in names {
        let target = folder.appendingPathComponent(name).path
        try FileManager.default.moveItem(atPath: stagingFolder.appendingPathComponent(name).path, toPath: target)
        placed.append(target)
      }
    } catch {
      for path in placed { try? FileManager.default.removeItem(atPath: path) }
      throw DeckError(
        .writeFailed, at: location,
        "cannot put an external-storage file in \(folder.path) (\(error.localizedDescription)); nothing was changed")
    }
    return placed
  }
}
