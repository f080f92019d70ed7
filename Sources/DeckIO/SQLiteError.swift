import CSQLite
import DeckCore

/// Builds ``DeckError``s from SQLite result codes.
enum SQLiteError {
  /// The longest SQL text quoted in a message.
  static let maximumQuotedSQL = 300

  /// What a failed call with result `code` throws: `CancellationError` when SQLite stopped the
  /// statement because the work is no longer wanted (``SQLiteDatabase``'s progress handler),
  /// else ``make(code:message:sql:at:)``.
  static func failure(code: Int32, message: String, sql: String?, at location: SourceLocation) -> any Error {
    if code & 0xFF == SQLITE_INTERRUPT && Cancellation.isRequested { return CancellationError() }
    return make(code: code, message: message, sql: sql, at: location)
  }

  /// An error for result `code` with SQLite's `message`, quoting `sql` when given.
  static func make(
    code: Int32, message: String, sql: String?, at location: SourceLocation
  ) -> DeckError {
    let kind: DeckError.Kind
    switch code & 0xFF {
    case SQLITE_NOTADB: kind = .wrongFormat
    case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH, SQLITE_IOERR: kind = .unreadableFile
    case SQLITE_FULL, SQLITE_READONLY: kind = .writeFailed
    // What is being written breaks a rule of the database (a unique index): the request, not
    // the file, is at fault.
    case SQLITE_CONSTRAINT: kind = .invalidRequest
    default: kind = .corrupt
    }
    var details = ["SQLite result code \(code) (\(String(cString: sqlite3_errstr(code))))"]
    if let sql { details.append("SQL: \(sql)") }
    guard let sql else { return DeckError(kind, at: location, "SQLite: \(message)", details: details) }
    return DeckError(kind, at: location, "SQLite: \(message) (SQL: \(quoted(sql)))", details: details)
  }

  /// `sql` on one line, shortened to ``maximumQuotedSQL`` characters.
  static func quoted(_ sql: String) -> String {
    let oneLine = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    guard oneLine.count > maximumQuotedSQL else { return oneLine }
    return String(oneLine.prefix(maximumQuotedSQL)) + "…"
  }
}
