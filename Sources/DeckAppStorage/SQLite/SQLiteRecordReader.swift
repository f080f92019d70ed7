import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Reads app records from a database in deckport's schema (``SQLiteRecordSchema``), checking
/// every cell against the type the metadata declares for its column.
struct SQLiteRecordReader {
  /// One record type's metadata row.
  struct RecordType {
    var name: String
    var table: String
    var profile: String?
    var jsonDates: JSONDateEncoding
  }

  let database: SQLiteDatabase
  let location: SourceLocation

  /// The record types the database holds, in the order they were written.
  ///
  /// - Throws: ``DeckError`` when the metadata says another format or a newer version.
  func recordTypes() throws -> [RecordType] {
    try checkFormat()
    let statement = try database.prepare(
      "SELECT name, table_name, profile, json_dates FROM \(SQLiteRecordSchema.recordTypesTable) ORDER BY position, name",
      table: SQLiteRecordSchema.recordTypesTable)
    var types: [RecordType] = []
    while try statement.step() {
      let dates = statement.text(3)
      guard let encoding = JSONDateEncoding(rawValue: dates) else {
        throw DeckError(
          .corrupt, at: location.table(SQLiteRecordSchema.recordTypesTable).item("record type '\(statement.text(0))'"),
          "json_dates is '\(dates)' (expected one of \(JSONDateEncoding.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      types.append(
        RecordType(
          name: statement.text(0), table: statement.text(1), profile: statement.optionalText(2), jsonDates: encoding))
    }
    return types
  }

  /// The records of one type: `name`, or the only one when nil.
  ///
  /// With `expected` (a writer's check of what it wrote), a blob equal to the data the expected
  /// record at its place holds under its key is taken as that value, compared where SQLite holds
  /// it rather than copied.
  ///
  /// - Throws: ``DeckError`` naming the table, the row (its position) and the column of a cell
  ///   whose storage class does not match its declared type, or listing the record types when
  ///   `name` is nil and there are several, or none is called `name`.
  func read(recordType name: String?, expected: [AppRecord]? = nil) throws -> AppRecords {
    let types = try recordTypes()
    let recordType = types[
      try Self.choose(name, among: types.map(\.name), location: location, noun: "record type", plural: "record types")]
    let fields = try self.fields(of: recordType)
    let positions = ExactKeyPositions(fields)
    let table = recordType.table
    let columns = Set(try database.columnNames(of: table).map { $0.lowercased() })
    for column in [SQLiteRecordSchema.positionColumn, SQLiteRecordSchema.keysColumn] + fields.map(\.column)
    where !columns.contains(column.lowercased()) {
      throw DeckError(.corrupt, at: location.table(table), "the table lacks the column '\(column)' its metadata lists")
    }
    let selected = ([SQLiteRecordSchema.positionColumn, SQLiteRecordSchema.keysColumn] + fields.map(\.column))
      .map(SQLiteRecordSchema.quoted).joined(separator: ", ")
    let statement = try database.prepare(
      "SELECT \(selected) FROM \(SQLiteRecordSchema.quoted(table)) ORDER BY \(SQLiteRecordSchema.positionColumn)",
      table: table)
    var records: [AppRecord] = []
    while try statement.step() {
      let position = statement.int64(0)
      let rowLocation = location.table(table, row: position)
      let keys = try self.keys(statement.optionalText(1), fields: fields, positions: positions, at: rowLocation)
      var record = AppRecord()
      for key in keys {
        guard let index = fields.firstIndex(ofKey: key, positions: positions) else { continue }
        let column = Int32(index + 2)
        if fields[index].type == .data, let expected, records.count < expected.count,
          case .data(let bytes)? = expected[records.count][key], statement.blob(column, isEqualTo: bytes)
        {
          record.append(AppRecord.Field(key: key, value: .data(bytes)))
          continue
        }
        let value = try Self.value(
          statement.value(column), as: fields[index].type, at: rowLocation.item("column '\(fields[index].column)'"))
        record.append(AppRecord.Field(key: key, value: value))
      }
      records.append(record)
    }
    let declared = AppRecordShape(fields: fields.map { AppRecordShape.Field(key: $0.key, type: $0.type) })
    return AppRecords(
      name: recordType.name, records: records, declared: declared,
      profile: recordType.profile.flatMap(AppRecordProfile.named), jsonDates: recordType.jsonDates)
  }

  /// The position in `names` of the one to use: `requested` (spelled exactly, or the only name
  /// canonically equivalent to it; see ``NameLookup``), else the only name.
  static func choose(
    _ requested: String?, among names: [String], location: SourceLocation, noun: String, plural: String
  ) throws -> Int {
    let listed = NameLookup.listed(names)
    if let requested {
      guard let position = NameLookup.position(of: requested, in: names) else {
        throw DeckError(
          .missingPart, at: location,
          names.isEmpty
            ? "no \(noun) '\(requested)': the file holds none" : "no \(noun) '\(requested)' (it holds \(listed))")
      }
      return position
    }
    guard names.count == 1 else {
      throw DeckError(
        names.isEmpty ? .missingPart : .invalidRequest, at: location,
        names.isEmpty
          ? "holds no \(plural)" : "holds several \(plural) (\(listed)); name one with \(setting: .recordEntity)")
    }
    return 0
  }

  private struct Field: ExactlyKeyed {
    var key: String
    var column: String
    var type: AppValueType
  }

  private func checkFormat() throws {
    let table = SQLiteRecordSchema.storageTable
    let statement = try database.prepare("SELECT key, value FROM \(table)", table: table)
    var values: [String: String] = [:]
    while try statement.step() { values[statement.text(0)] = statement.text(1) }
    guard values["format"] == SQLiteRecordSchema.formatName else {
      throw DeckError(
        .wrongFormat, at: location.table(table),
        "the format is '\(values["format"] ?? "(missing)")', not '\(SQLiteRecordSchema.formatName)'")
    }
    guard values["version"] == String(SQLiteRecordSchema.version) else {
      throw DeckError(
        .unsupportedVersion, at: location.table(table),
        "schema version \(values["version"] ?? "(missing)") is not supported; this deckport reads version \(SQLiteRecordSchema.version)"
      )
    }
  }

  /// The warning for the columns of record type `name`'s table that its metadata does not list
  /// (added by another program): no key names their values, so they are not read. Nil when there
  /// are none.
  func unlistedColumnsWarning(ofRecordType name: String) throws -> Diagnostic? {
    guard let recordType = try recordTypes().first(where: { $0.name == name }) else { return nil }
    let listed = Set(
      ([SQLiteRecordSchema.positionColumn, SQLiteRecordSchema.keysColumn] + (try fields(of: recordType).map(\.column)))
        .map { $0.lowercased() })
    let unlisted = try database.columnNames(of: recordType.table).filter { !listed.contains($0.lowercased()) }
    guard !unlisted.isEmpty else { return nil }
    return Diagnostic(
      .columnsUnread, at: location.table(recordType.table),
      "the table has \(CountedNoun.phrase(unlisted.count, "column")) that deckport's metadata (\(SQLiteRecordSchema.fieldsTable)) does not list, \(ShortList.text(unlisted)): no key names \(unlisted.count == 1 ? "its" : "their") values, which are not read"
    )
  }

  private func fields(of recordType: RecordType) throws -> [Field] {
    let table = SQLiteRecordSchema.fieldsTable
    let statement = try database.prepare(
      "SELECT key, column_name, type FROM \(table) WHERE record_type = ? ORDER BY position", table: table)
    statement.bind(1, text: recordType.name)
    var fields: [Field] = []
    while try statement.step() {
      guard let type = AppValueType(rawValue: statement.text(2)) else {
        throw DeckError(
          .corrupt, at: location.table(table).item("record type '\(recordType.name)', key '\(statement.text(0))'"),
          "the type '\(statement.text(2))' is unknown (known: \(AppValueType.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      fields.append(Field(key: statement.text(0), column: statement.text(1), type: type))
    }
    return fields
  }

  /// A row's keys in order: all fields when `deckport_keys` is NULL, else the listed ones.
  private func keys(
    _ listed: String?, fields: [Field], positions: ExactKeyPositions?, at location: SourceLocation
  ) throws -> [String] {
    guard let listed else { return fields.map(\.key) }
    let keysLocation = location.item("column '\(SQLiteRecordSchema.keysColumn)'")
    guard case .array(let items)? = try? AppValue(json: Data(listed.utf8)) else {
      throw DeckError(.corrupt, at: keysLocation, "expected a JSON array of keys")
    }
    return try items.map { item in
      guard case .string(let key) = item,
        fields.firstIndex(ofKey: key, positions: positions) != nil
      else {
        throw DeckError(.corrupt, at: keysLocation, "\(item) is not one of the record type's keys")
      }
      return key
    }
  }

  /// The value a cell holds, given its field's type.
  static func value(_ cell: SQLiteValue, as type: AppValueType, at location: SourceLocation) throws -> AppValue {
    func mismatch(_ expected: String) -> DeckError {
      DeckError(
        .corrupt, at: location, "expected \(expected) (the field's type is \(type.rawValue)), found \(describe(cell))")
    }
    switch (type, cell) {
    case (_, .null): return .null
    case (.string, .text(let text)): return .string(text)
    case (.integer, .integer(let number)): return .integer(number)
    case (.double, .real(let number)): return .double(number)
    case (.double, .integer(let number)): return .double(Double(number))
    case (.double, .text(let text)) where SQLiteRecordWriter.specialDoubles[text] != nil:
      return .double(SQLiteRecordWriter.specialDoubles[text] ?? 0)
    case (.date, .text(let text)) where SQLiteRecordWriter.specialDoubles[text] != nil:
      return .date(Date(timeIntervalSinceReferenceDate: SQLiteRecordWriter.specialDoubles[text] ?? 0))
    case (.bool, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
    case (.date, .real(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case (.date, .integer(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case (.uuid, .text(let text)):
      guard let uuid = UUID(uuidString: text) else { throw mismatch("a UUID string") }
      return .uuid(uuid)
    case (.data, .blob(let data)): return .data(data)
    case (.array, .text(let text)), (.object, .text(let text)), (.any, .text(let text)):
      let value: AppValue
      do {
        value = try AppValue(taggedJSON: Data(text.utf8))
      } catch let error as JSONSyntaxError {
        throw DeckError(
          .corrupt, at: location,
          "the JSON text does not parse: line \(error.line), column \(error.column): \(error.message)")
      } catch {
        throw DeckError(.corrupt, at: location, "the JSON text does not parse: \(error)")
      }
      if type == .array, value.type != .array { throw mismatch("a JSON array") }
      if type == .object, value.type != .object { throw mismatch("a JSON object") }
      return value
    case (.string, _): throw mismatch("text")
    case (.integer, _): throw mismatch("an integer")
    case (.double, _), (.date, _): throw mismatch("a number")
    case (.bool, _): throw mismatch("0 or 1")
    case (.uuid, _): throw mismatch("a UUID string")
    case (.data, _): throw mismatch("a blob")
    case (.array, _), (.object, _), (.any, _): throw mismatch("JSON text")
    }
  }

  private static func describe(_ cell: SQLiteValue) -> String {
    switch cell {
    case .integer(let number): "the integer \(number)"
    case .real(let number): "the real \(number)"
    case .text(let text): "the text '\(text.prefix(40))'"
    case .blob(let data): "a blob of \(data.count) bytes"
    case .null: "NULL"
    }
  }
}
