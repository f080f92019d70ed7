import CSQLite
import DeckCore
import Foundation

/// An SQLite database file, opened with the system `libsqlite3`.
///
/// ```swift
/// let database = try SQLiteDatabase(path: path, readOnly: true, location: location)
/// database.registerUnicaseCollation()
/// let rows = try database.prepare("SELECT id, name FROM decks", table: "decks")
/// while try rows.step() { print(rows.int64(0), rows.text(1)) }
/// ```
///
/// Calls on the connection hold one lock, so the database may be shared between threads;
/// each ``SQLiteStatement`` is used from one thread at a time. A connection opened
/// `confined` to one thread skips SQLite's own locking of every call (see
/// ``init(path:readOnly:confined:location:)``).
package final class SQLiteDatabase: @unchecked Sendable {
  /// The database file, for errors.
  package let location: SourceLocation
  /// The connection; every use holds `lock`.
  private let connection: OpaquePointer
  private let lock = NSLock()

  /// Opens the database at `path`, read-only or read-write (creating it when missing).
  ///
  /// SQLite opens files lazily, so this reads the schema at once to detect a file that is not
  /// a database.
  ///
  /// With `confined`, the connection and its statements must be used from one thread at a
  /// time (SQLite's multi-thread mode, `SQLITE_OPEN_NOMUTEX`): SQLite then takes no mutex on
  /// each bind, step and column read, which on a collection of 20,000 notes is some 5 % of
  /// building it. The collection reader and writer, which give each thread its own
  /// connection, open theirs so.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the file cannot be opened;
  ///   ``DeckError/Kind/wrongFormat`` `not an SQLite database (file is not a database)`;
  ///   ``DeckError/Kind/corrupt`` when the schema cannot be read.
  package init(path: String, readOnly: Bool, confined: Bool = false, location: SourceLocation) throws {
    self.location = location
    if readOnly && !FileManager.default.fileExists(atPath: path) {
      throw DeckError(.unreadableFile, at: location, "cannot open the database (No such file or directory)")
    }
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
      | (confined ? SQLITE_OPEN_NOMUTEX : 0)
    var handle: OpaquePointer?
    let result = sqlite3_open_v2(path, &handle, flags, nil)
    guard result == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
      sqlite3_close_v2(handle)
      throw DeckError(.unreadableFile, at: location, "cannot open the database (\(message))")
    }
    self.connection = handle
    sqlite3_extended_result_codes(handle, 1)
    // A long statement (an index over 200,000 cards) stops when the work is no longer wanted:
    // SQLite asks every 100,000 steps of its machine (a fraction of a millisecond).
    sqlite3_progress_handler(handle, 100_000, { _ in Cancellation.isRequested ? 1 : 0 }, nil)
    var probe: OpaquePointer?
    var code = sqlite3_prepare_v2(handle, "SELECT count(*) FROM sqlite_master", -1, &probe, nil)
    if code == SQLITE_OK { code = sqlite3_step(probe) }
    sqlite3_finalize(probe)
    if code != SQLITE_ROW {
      let message = String(cString: sqlite3_errmsg(handle))
      sqlite3_close_v2(handle)
      switch code & 0xFF {
      case SQLITE_NOTADB:
        throw DeckError(.wrongFormat, at: location, "not an SQLite database (\(message))")
      case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR, SQLITE_BUSY, SQLITE_LOCKED:
        throw DeckError(.unreadableFile, at: location, "cannot read the database (\(message))")
      default:
        throw DeckError(
          .corrupt, at: location.table("sqlite_master"),
          "the SQLite database is damaged: its schema cannot be read (\(message))",
          details: ["SQLite result code \(code) (\(String(cString: sqlite3_errstr(code))))"])
      }
    }
  }

  deinit {
    sqlite3_close_v2(connection)
  }

  /// Registers the `unicase` collation Anki's schema-18 tables use: case-insensitive Unicode
  /// order (both sides lowercased, compared by code point), exact order breaking ties.
  ///
  /// Without it, SQLite refuses queries that compare or sort those columns, and every INSERT.
  package func registerUnicaseCollation() {
    withConnection { _ = UnicaseCollation.register(on: $0) }
  }

  /// Registers `name` as an SQL function that takes any arguments and returns NULL, for schema
  /// triggers that call a function their own program registers (Core Data's triggers tell the
  /// app's open context about values they changed; with no app running, there is none to tell).
  ///
  /// - Throws: ``DeckError`` at ``location`` when SQLite refuses the name.
  package func registerNoOpFunction(_ name: String) throws {
    try withConnection { connection in
      let result = sqlite3_create_function_v2(
        connection, name, -1, SQLITE_UTF8, nil, { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
      guard result == SQLITE_OK else {
        throw SQLiteError.failure(
          code: result, message: String(cString: sqlite3_errmsg(connection)), sql: "function \(name)", at: location)
      }
    }
  }

  /// Runs `sql`, which may hold several statements, discarding any rows.
  ///
  /// - Throws: ``DeckError`` at ``location`` with SQLite's message and the SQL.
  package func execute(_ sql: String) throws {
    try withConnection { connection in
      var errorMessage: UnsafeMutablePointer<CChar>?
      let result = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
      guard result == SQLITE_OK else {
        let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(connection))
        sqlite3_free(errorMessage)
        throw SQLiteError.failure(code: result, message: message, sql: sql, at: location)
      }
    }
  }

  /// Compiles one SQL statement; `table` names the table it reads, for its errors.
  ///
  /// - Throws: ``DeckError`` at ``location`` (narrowed to `table`) with SQLite's message and
  ///   the SQL, such as `no such column: x`.
  package func prepare(_ sql: String, table: String? = nil) throws -> SQLiteStatement {
    let statementLocation = table.map { location.table($0) } ?? location
    let handle: OpaquePointer = try withConnection { connection in
      var handle: OpaquePointer?
      let result = sqlite3_prepare_v2(connection, sql, -1, &handle, nil)
      guard result == SQLITE_OK, let handle else {
        sqlite3_finalize(handle)
        let message =
          result == SQLITE_OK ? "the SQL holds no statement" : String(cString: sqlite3_errmsg(connection))
        throw SQLiteError.failure(code: result, message: message, sql: sql, at: statementLocation)
      }
      return handle
    }
    return SQLiteStatement(database: self, handle: handle, sql: sql, location: statementLocation)
  }

  /// Whether the database has a table (or view) named `name`, compared case-insensitively as
  /// SQLite does; false also when the schema cannot be read.
  package func tableExists(_ name: String) -> Bool {
    guard
      let statement = try? prepare(
        "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE")
    else { return false }
    statement.bind(1, text: name)
    return (try? statement.step()) ?? false
  }

  /// The column names of `table`, in declaration order.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` at the table when there is no such table.
  package func columnNames(of table: String) throws -> [String] {
    let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let statement = try prepare("PRAGMA table_info(\(quoted))", table: table)
    var names: [String] = []
    while try statement.step() {
      names.append(statement.text(1))
    }
    if names.isEmpty {
      throw DeckError(.missingPart, at: location.table(table), "the database has no table '\(table)'")
    }
    return names
  }

  /// Runs `body` with the connection while holding the lock.
  func withConnection<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(connection)
  }
}
