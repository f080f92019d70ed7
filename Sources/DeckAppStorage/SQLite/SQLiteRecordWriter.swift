import DeckCore
import DeckIO
import Foundation

/// Writes app records into a database in deckport's schema (``SQLiteRecordSchema``): the record
/// type's table is created anew (replacing an earlier one of exactly the same name; the file
/// writer has already taken a name given in another Unicode composition to the file's spelling)
/// and every other record type in the file is left as it is.
struct SQLiteRecordWriter {
  let database: SQLiteDatabase
  let location: SourceLocation

  /// Doubles SQLite cannot keep bit for bit in a REAL column (NaN becomes NULL, -0.0 becomes 0),
  /// stored as text that does not look like a number (so the column's affinity leaves it text).
  static let specialDoubles: [String: Double] = ["NaN": .nan, "negative zero": -0.0]

  /// Writes `records` in one transaction.
  ///
  /// - Throws: ``DeckError`` naming the table, the record and the key of a value the column
  ///   cannot hold, or SQLite's message.
  func write(_ records: AppRecords) throws {
    try database.execute("BEGIN IMMEDIATE")
    do {
      try database.execute(SQLiteRecordSchema.createMetadata)
      let table = try replaceRecordType(records)
      try insertRows(records, table: table)
      try database.execute("COMMIT")
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  /// Removes an earlier record type of the same name, registers this one and creates its table;
  /// returns the table's name.
  private func replaceRecordType(_ records: AppRecords) throws -> String {
    let typesTable = SQLiteRecordSchema.recordTypesTable
    let existing = try SQLiteRecordReader(database: database, location: location).recordTypes()
    var position = Int64(existing.count)
    if let old = existing.firstIndex(where: { $0.name.isExactly(records.name) }) {
      position = Int64(old)
      try database.execute("DROP TABLE IF EXISTS \(SQLiteRecordSchema.quoted(existing[old].table))")
      let delete = try database.prepare("DELETE FROM \(typesTable) WHERE name = ?", table: typesTable)
      delete.bind(1, text: records.name)
      _ = try delete.step()
      let deleteFields = try database.prepare(
        "DELETE FROM \(SQLiteRecordSchema.fieldsTable) WHERE record_type = ?", table: SQLiteRecordSchema.fieldsTable)
      deleteFields.bind(1, text: records.name)
      _ = try deleteFields.step()
    }
    let taken = Set(try SQLiteLayout.tableNames(database).map { $0.lowercased() })
    let table = SQLiteRecordSchema.tableName(for: records.name, taken: taken)
    let insertType = try database.prepare(
      "INSERT INTO \(typesTable) (name, table_name, profile, json_dates, position) VALUES (?, ?, ?, ?, ?)",
      table: typesTable)
    insertType.bind(1, text: records.name)
    insertType.bind(2, text: table)
    if let profile = records.profile { insertType.bind(3, text: profile.id) } else { insertType.bindNull(3) }
    insertType.bind(4, text: records.jsonDates.rawValue)
    insertType.bind(5, int64: position)
    _ = try insertType.step()

    let columns = SQLiteRecordSchema.columnNames(for: records.shape.keys)
    let insertField = try database.prepare(
      "INSERT INTO \(SQLiteRecordSchema.fieldsTable) (record_type, position, key, column_name, type) VALUES (?, ?, ?, ?, ?)",
      table: SQLiteRecordSchema.fieldsTable)
    var definitions = [
      "\(SQLiteRecordSchema.positionColumn) INTEGER PRIMARY KEY", "\(SQLiteRecordSchema.keysColumn) TEXT",
    ]
    for (index, field) in records.shape.fields.enumerated() {
      insertField.reset()
      insertField.bind(1, text: records.name)
      insertField.bind(2, int64: Int64(index))
      insertField.bind(3, text: field.key)
      insertField.bind(4, text: columns[index])
      insertField.bind(5, text: field.type.rawValue)
      _ = try insertField.step()
      definitions.append("\(SQLiteRecordSchema.quoted(columns[index])) \(SQLiteRecordSchema.declaredType(field.type))")
    }
    try database.execute("CREATE TABLE \(SQLiteRecordSchema.quoted(table)) (\(definitions.joined(separator: ", ")))")
    return table
  }

  private func insertRows(_ records: AppRecords, table: String) throws {
    let shape = records.shape
    let columns = SQLiteRecordSchema.columnNames(for: shape.keys)
    let names = ([SQLiteRecordSchema.positionColumn, SQLiteRecordSchema.keysColumn] + columns).map(
      SQLiteRecordSchema.quoted)
    let insert = try database.prepare(
      "INSERT INTO \(SQLiteRecordSchema.quoted(table)) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))",
      table: table)
    for (index, record) in records.records.enumerated() {
      insert.reset()
      insert.clearBindings()
      insert.bind(1, int64: Int64(index))
      let keys = record.keys
      if keys.count == shape.fields.count
        && zip(keys, shape.keys).allSatisfy({ $0.isExactly($1) })
      {
        insert.bindNull(2)
      } else {
        let list = AppValue.array(keys.map(AppValue.string))
        insert.bind(2, text: String(decoding: (try? list.jsonData()) ?? Data("[]".utf8), as: UTF8.self))
      }
      for field in record.fields {
        guard
          let column = shape.index(of: field.key)
        else {
          throw DeckError(
            .invalidRequest, at: location.table(table),
            "\(records.label(ofRecord: index)): the key '\(field.key)' is not in the shape")
        }
        let cell = try Self.cell(
          field.value, type: shape.fields[column].type,
          at: location.table(table, row: Int64(index)).item("column '\(columns[column])'"))
        insert.bind(Int32(column + 3), cell)
      }
      _ = try insert.step()
    }
  }

  /// The SQLite value for `value` in a column of `type`.
  static func cell(_ value: AppValue, type: AppValueType, at location: SourceLocation) throws -> SQLiteValue {
    switch (type, value) {
    case (_, .null): return .null
    case (.string, .string(let text)): return .text(text)
    case (.integer, .integer(let number)): return .integer(number)
    case (.double, .double(let number)): return real(number)
    case (.bool, .bool(let flag)): return .integer(flag ? 1 : 0)
    case (.date, .date(let date)): return real(date.timeIntervalSinceReferenceDate)
    case (.uuid, .uuid(let uuid)): return .text(uuid.uuidString)
    case (.data, .data(let data)): return .blob(data)
    case (.array, .array), (.object, .object), (.any, _):
      do {
        return .text(String(decoding: try value.jsonData(tagged: true), as: UTF8.self))
      } catch {
        throw DeckError(.invalidRequest, at: location, "\(error.path): \(error.message)")
      }
    default:
      throw DeckError(.invalidRequest, at: location, "a \(type.rawValue) column cannot hold \(value)")
    }
  }

  private static func real(_ number: Double) -> SQLiteValue {
    if number.isNaN { return .text("NaN") }
    if number == 0 && number.sign == .minus { return .text("negative zero") }
    return .real(number)
  }
}
