import CSQLite
import DeckCore
import Foundation

/// A compiled SQL statement of an ``SQLiteDatabase``: bind parameters, step through rows, read
/// columns.
///
/// Binding never throws; a failed bind is reported by the next ``step()``. Column indexes are
/// 0-based and parameter indexes 1-based, as in SQLite. Use a statement from one thread at a
/// time; it keeps its database open and is finalised when released.
package final class SQLiteStatement {
  /// The statement's location (the database file, and its table when given), for errors.
  package let location: SourceLocation
  /// The SQL text, for errors.
  package let sql: String
  private let database: SQLiteDatabase
  private let handle: OpaquePointer
  /// The first bind failure since the last reset, thrown by the next step.
  private var bindError: DeckError?

  /// SQLite's marker that bound bytes must be copied.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  init(database: SQLiteDatabase, handle: OpaquePointer, sql: String, location: SourceLocation) {
    self.database = database
    self.handle = handle
    self.sql = sql
    self.location = location
  }

  deinit {
    database.withConnection { _ in _ = sqlite3_finalize(handle) }
  }

  // MARK: Binding

  /// Binds an integer to parameter `index` (1-based).
  package func bind(_ index: Int32, int64 value: Int64) {
    record(sqlite3_bind_int64(handle, index, value), index: index)
  }

  /// Binds a float to parameter `index` (1-based).
  package func bind(_ index: Int32, double value: Double) {
    record(sqlite3_bind_double(handle, index, value), index: index)
  }

  /// Binds text (copied) to parameter `index` (1-based).
  package func bind(_ index: Int32, text value: String) {
    // `withUTF8` hands over a native string's own bytes (no copy); SQLite copies them.
    var text = value
    let result = text.withUTF8 { buffer in
      // A pointer is needed even for "": a null pointer would bind NULL.
      sqlite3_bind_text64(
        handle, index,
        buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } ?? Self.emptyText,
        sqlite3_uint64(buffer.count), Self.transient, UInt8(SQLITE_UTF8))
    }
    record(result, index: index)
  }

  /// Binds the UTF-8 text `bytes` (copied) to parameter `index` (1-based), for callers that
  /// assemble a value in a reused buffer instead of making a `String`.
  package func bind(_ index: Int32, utf8 bytes: UnsafeBufferPointer<UInt8>) {
    let result = sqlite3_bind_text64(
      handle, index,
      bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } ?? Self.emptyText,
      sqlite3_uint64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
    record(result, index: index)
  }

  /// A pointer to a NUL byte, bound for empty text (a null pointer would bind NULL).
  private static var emptyText: UnsafePointer<CChar> {
    UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
  }

  /// Binds bytes (copied) to parameter `index` (1-based); empty data binds an empty blob.
  package func bind(_ index: Int32, blob value: Data) {
    let result = value.withUnsafeBytes { buffer in
      sqlite3_bind_blob64(handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), Self.transient)
    }
    // sqlite3_bind_blob64 with a nil pointer binds NULL; an empty blob must stay a blob.
    if value.isEmpty {
      record(sqlite3_bind_zeroblob(handle, index, 0), index: index)
    } else {
      record(result, index: index)
    }
  }

  /// Binds NULL to parameter `index` (1-based).
  package func bindNull(_ index: Int32) {
    record(sqlite3_bind_null(handle, index), index: index)
  }

  /// Binds `value`, whatever its type, to parameter `index` (1-based).
  package func bind(_ index: Int32, _ value: SQLiteValue) {
    switch value {
    case .integer(let number): bind(index, int64: number)
    case .real(let number): bind(index, double: number)
    case .text(let text): bind(index, text: text)
    case .blob(let data): bind(index, blob: data)
    case .null: bindNull(index)
    }
  }

  // MARK: Running

  /// Runs the statement to its next row: true when a row is ready, false when done.
  ///
  /// - Throws: ``DeckError`` at ``location`` with SQLite's message and the SQL, or the first
  ///   bind failure since the last ``reset()``.
  package func step() throws -> Bool {
    if let bindError { throw bindError }
    return try database.withConnection { connection in
      let result = sqlite3_step(handle)
      switch result {
      case SQLITE_ROW: return true
      case SQLITE_DONE: return false
      default:
        throw SQLiteError.failure(
          code: result, message: String(cString: sqlite3_errmsg(connection)), sql: sql, at: location)
      }
    }
  }

  /// Rewinds the statement to run again; bindings stay unless ``clearBindings()`` is called.
  package func reset() {
    database.withConnection { _ in _ = sqlite3_reset(handle) }
    bindError = nil
  }

  /// Sets every parameter back to NULL.
  package func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  // MARK: Columns

  /// The number of columns in each row.
  package var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The name of column `i` (0-based).
  package func columnName(_ i: Int32) -> String {
    sqlite3_column_name(handle, i).map { String(cString: $0) } ?? ""
  }

  /// The storage class of column `i` (0-based) in the current row.
  package func columnType(_ i: Int32) -> SQLiteValueType {
    switch sqlite3_column_type(handle, i) {
    case SQLITE_INTEGER: .integer
    case SQLITE_FLOAT: .real
    case SQLITE_TEXT: .text
    case SQLITE_BLOB: .blob
    default: .null
    }
  }

  /// Column `i` (0-based) as an integer, converted by SQLite's rules (NULL is 0).
  package func int64(_ i: Int32) -> Int64 {
    sqlite3_column_int64(handle, i)
  }

  /// Column `i` (0-based) as a float, converted by SQLite's rules (NULL is 0).
  package func double(_ i: Int32) -> Double {
    sqlite3_column_double(handle, i)
  }

  /// Column `i` (0-based) as text; NULL gives an empty string, invalid UTF-8 is repaired.
  package func text(_ i: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, i) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, i))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// Calls `body` with the UTF-8 bytes of column `i` (0-based) in the current row, without
  /// making a `String`; NULL gives no bytes. The bytes are valid only inside `body`.
  package func withUTF8<Result>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    guard let pointer = sqlite3_column_text(handle, i) else {
      return try body(UnsafeBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, i))))
  }

  /// Column `i` (0-based) as text, or nil when it is NULL.
  package func optionalText(_ i: Int32) -> String? {
    columnType(i) == .null ? nil : text(i)
  }

  /// Column `i` (0-based) as bytes; NULL gives empty data. A large blob (a picture in an app's
  /// row) is mapped from a private temporary file (``SpilledBytes``), not held in memory.
  package func blob(_ i: Int32) -> Data {
    guard let pointer = sqlite3_column_blob(handle, i) else { return Data() }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, i)))
    guard bytes.count >= SpilledBytes.threshold else { return Data(bytes) }
    return (try? SpilledBytes.bytes(size: Int64(bytes.count)) { write in try write(bytes) }) ?? Data(bytes)
  }

  /// Whether column `i` (0-based) is a blob holding exactly `bytes`, compared where SQLite holds
  /// it: a check of what was written makes no copy of a picture.
  package func blob(_ i: Int32, isEqualTo bytes: Data) -> Bool {
    guard columnType(i) == .blob, Int(sqlite3_column_bytes(handle, i)) == bytes.count else { return false }
    guard let pointer = sqlite3_column_blob(handle, i) else { return bytes.isEmpty }
    return bytes.withUnsafeBytes { expected in
      expected.baseAddress.map { memcmp($0, pointer, bytes.count) == 0 } ?? true
    }
  }

  /// Column `i` (0-based) with its storage class.
  package func value(_ i: Int32) -> SQLiteValue {
    switch columnType(i) {
    case .integer: .integer(int64(i))
    case .real: .real(double(i))
    case .text: .text(text(i))
    case .blob: .blob(blob(i))
    case .null: .null
    }
  }

  /// Keeps the first bind failure for the next step.
  private func record(_ result: Int32, index: Int32) {
    guard result != SQLITE_OK, bindError == nil else { return }
    let message = database.withConnection { String(cString: sqlite3_errmsg($0)) }
    bindError = SQLiteError.make(
      code: result, message: "cannot bind parameter \(index): \(message)", sql: sql, at: location)
  }
}
