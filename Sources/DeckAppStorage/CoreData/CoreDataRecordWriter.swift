import DeckCore
import DeckIO
import Foundation

/// Inserts app records into an entity of a Core Data/SwiftData store the app itself created,
/// the way Core Data inserts: a new `Z_PK` above both `Z_PRIMARYKEY.Z_MAX` and the table's
/// largest key, `Z_ENT` set to the entity number, `Z_OPT` = 1, and `Z_MAX` raised to the last key.
/// `Z_METADATA` and `Z_MODELCACHE` are never touched.
struct CoreDataRecordWriter {
  let database: SQLiteDatabase
  let entity: CoreDataEntityLayout
  let location: SourceLocation

  /// What was inserted: the new primary keys, the records as the store will give them back,
  /// and notes about values deckport had to supply.
  struct Result {
    var primaryKeys: [Int64]
    var expected: [AppRecord]
    var warnings: [Diagnostic]
  }

  /// Inserts `records` (call inside a transaction).
  ///
  /// - Throws: ``DeckError`` naming the record and key of a value the attribute cannot take, a
  ///   key the entity has no attribute for, a required attribute without a value, or a row the
  ///   store's unique constraints refuse.
  func insert(_ records: AppRecords) throws -> Result {
    let table = entity.table
    let largest = try database.prepare("SELECT max(Z_PK) FROM \(SQLiteRecordSchema.quoted(table))", table: table)
    _ = try largest.step()
    var next = max(entity.maximumPrimaryKey, largest.int64(0)) + 1
    let names = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.columns.map(\.column)
    let insert = try database.prepare(
      "INSERT INTO \(SQLiteRecordSchema.quoted(table)) (\(names.map(SQLiteRecordSchema.quoted).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))",
      table: table)
    var result = Result(primaryKeys: [], expected: [], warnings: [])
    for (index, record) in records.records.enumerated() {
      let label = records.label(ofRecord: index)
      let values = try columnValues(record, label: label, dates: records.jsonDates, warnings: &result.warnings)
      insert.reset()
      insert.clearBindings()
      insert.bind(1, int64: next)
      insert.bind(2, int64: entity.entityNumber)
      insert.bind(3, int64: 1)
      var expected = AppRecord()
      for (position, column) in entity.columns.enumerated() {
        let value = values[position]
        insert.bind(Int32(position + 4), try Self.cell(value, column: column))
        if !value.isNull { expected.fields.append(.init(key: column.key, value: value)) }
      }
      do {
        _ = try insert.step()
      } catch let error as DeckError {
        throw DeckError(error.kind, at: location.table(table), "\(label): \(error.message)")
      }
      result.primaryKeys.append(next)
      result.expected.append(expected)
      next += 1
    }
    if let last = result.primaryKeys.last {
      let update = try database.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX < ?", table: "Z_PRIMARYKEY")
      for number in [entity.entityNumber] + (entity.superentityNumber != 0 ? [entity.superentityNumber] : []) {
        update.reset()
        update.bind(1, int64: last)
        update.bind(2, int64: number)
        update.bind(3, int64: last)
        _ = try update.step()
      }
    }
    return result
  }

  /// The value for each of the entity's columns, in column order (null when the record has none).
  private func columnValues(
    _ record: AppRecord, label: String, dates: JSONDateEncoding, warnings: inout [Diagnostic]
  ) throws -> [AppValue] {
    var values = Array(repeating: AppValue.null, count: entity.columns.count)
    for field in record.fields {
      guard let position = entity.columns.firstIndex(where: { $0.key == field.key })
        ?? entity.columns.firstIndex(where: { $0.key.lowercased() == field.key.lowercased() })
      else {
        throw DeckError(
          .invalidRequest, at: location.table(entity.table).item("\(label), key '\(field.key)'"),
          "the entity \(entity.name) has no attribute for this key (its attributes: \(entity.columns.map(\.key).joined(separator: ", ")))")
      }
      let column = entity.columns[position]
      guard let converted = Self.convert(field.value, to: column.type, dates: dates) else {
        throw DeckError(
          .invalidRequest, at: location.table(entity.table).item("\(label), key '\(field.key)'"),
          "the attribute \(column.key) (\(column.type.valueType.rawValue)) cannot hold \(field.value)")
      }
      values[position] = converted
    }
    for (position, column) in entity.columns.enumerated() where values[position].isNull {
      guard let attribute = column.attribute, !attribute.isOptional else { continue }
      if column.type == .uuid {
        let uuid = Self.derivedUUID(for: record, entity: entity.name)
        values[position] = .uuid(uuid)
        warnings.append(
          Diagnostic(
            "generated-uuid", at: location.table(entity.table).item("\(label), key '\(column.key)'"),
            "the record has no \(column.key); it gets \(uuid.uuidString), derived from its content so the same record always gets the same UUID"))
      } else if let fallback = attribute.defaultValue, let converted = Self.convert(fallback, to: column.type, dates: dates) {
        values[position] = converted
        warnings.append(
          Diagnostic(
            "default-value", at: location.table(entity.table).item("\(label), key '\(column.key)'"),
            "the record has no \(column.key); it gets the model's default \(fallback)"))
      } else {
        throw DeckError(
          .invalidRequest, at: location.table(entity.table).item("\(label), key '\(column.key)'"),
          "the entity \(entity.name) requires \(column.key), which the record lacks, and the model gives no default")
      }
    }
    return values
  }

  /// `value` as the column's type, converting only what converts exactly; nil when it cannot.
  static func convert(_ value: AppValue, to type: CoreDataColumnType, dates: JSONDateEncoding) -> AppValue? {
    switch (type, value) {
    case (_, .null): return .null
    case (.integer, .integer), (.bool, .bool), (.double, .double), (.string, .string), (.date, .date),
      (.uuid, .uuid), (.data, .data):
      return value
    case (.double, .integer(let number)): return .double(Double(number))
    case (.bool, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
    case (.date, .integer), (.date, .double), (.date, .string): return dates.decode(value).map(AppValue.date)
    case (.uuid, .string(let text)): return UUID(uuidString: text).map(AppValue.uuid)
    case (.uuid, .data(let bytes)) where bytes.count == 16: return .uuid(UUID(bytes: bytes))
    case (.data, .string(let text)): return Data(base64Encoded: text).map(AppValue.data)
    case (.raw, .integer), (.raw, .double), (.raw, .string), (.raw, .data): return value
    default: return nil
    }
  }

  /// The SQLite value Core Data stores for `value` in `column`.
  static func cell(_ value: AppValue, column: CoreDataEntityLayout.Column) throws -> SQLiteValue {
    switch value {
    case .null: return .null
    case .integer(let number): return .integer(number)
    case .bool(let flag): return .integer(flag ? 1 : 0)
    case .double(let number): return .real(number)
    case .string(let text): return .text(text)
    case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
    case .uuid(let uuid): return .blob(uuid.bytes)
    case .data(let bytes):
      if case .data(external: true) = column.type { return .blob(Data([0x01]) + bytes) }
      return .blob(bytes)
    case .array, .object: return .null
    }
  }

  /// A version-5-style UUID from the SHA-1 of the entity name and the record's JSON text.
  static func derivedUUID(for record: AppRecord, entity: String) -> UUID {
    let text = (try? JSONTextWriter(tagged: true).data(.object(record))) ?? Data()
    var digest = Array(SHA1.digest(Data("deckport\u{1F}\(entity)\u{1F}".utf8) + text).prefix(16))
    digest[6] = (digest[6] & 0x0F) | 0x50
    digest[8] = (digest[8] & 0x3F) | 0x80
    return UUID(bytes: Data(digest))
  }
}
