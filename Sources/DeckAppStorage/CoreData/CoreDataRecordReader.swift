import DeckCore
import DeckIO
import Foundation

/// Reads the rows of one Core Data entity as app records: attributes only, keyed by property
/// name, dates from the 2001 reference date, UUIDs from their 16 raw bytes, external-storage
/// blobs from the store's `_EXTERNAL_DATA` folder. A NULL column is an absent key, as a nil
/// optional is in `JSONEncoder` output.
struct CoreDataRecordReader {
  let database: SQLiteDatabase
  let schema: CoreDataSchema
  /// The store as the user named it (its external-storage folder sits beside it).
  let originalPath: String
  let location: SourceLocation

  /// The records of `entity` in primary-key order, and what could not be carried.
  func read(_ entity: CoreDataEntityLayout) throws -> (AppRecords, [Diagnostic]) {
    var warnings = schema.warnings
    if !entity.relationships.isEmpty {
      warnings.append(
        Diagnostic(
          "relationship-skipped", at: location.table(entity.table),
          "entity \(entity.name): the relationships \(entity.relationships.joined(separator: ", ")) are not carried (deckport copies attributes)"))
    }
    let columns = ["Z_PK"] + entity.columns.map(\.column)
    let statement = try database.prepare(
      "SELECT \(columns.map(SQLiteRecordSchema.quoted).joined(separator: ", ")) FROM \(SQLiteRecordSchema.quoted(entity.table)) WHERE Z_ENT = ? ORDER BY Z_PK",
      table: entity.table)
    statement.bind(1, int64: entity.entityNumber)
    var records: [AppRecord] = []
    var primaryKeys: [Int64] = []
    while try statement.step() {
      let primaryKey = statement.int64(0)
      var record = AppRecord()
      for (index, column) in entity.columns.enumerated() {
        let cellLocation = location.table(entity.table, row: primaryKey).item("column \(column.column)")
        let value = try self.value(statement.value(Int32(index + 1)), column: column, at: cellLocation)
        if !value.isNull { record.fields.append(.init(key: column.key, value: value)) }
      }
      records.append(record)
      primaryKeys.append(primaryKey)
    }
    let declared = AppRecordShape(fields: entity.columns.map { .init(key: $0.key, type: $0.type.valueType) })
    return (AppRecords(name: entity.name, records: records, declared: declared, primaryKeys: primaryKeys), warnings)
  }

  /// The number of rows of `entity`.
  func count(_ entity: CoreDataEntityLayout) throws -> Int {
    let statement = try database.prepare(
      "SELECT count(*) FROM \(SQLiteRecordSchema.quoted(entity.table)) WHERE Z_ENT = ?", table: entity.table)
    statement.bind(1, int64: entity.entityNumber)
    _ = try statement.step()
    return Int(statement.int64(0))
  }

  private func value(_ cell: SQLiteValue, column: CoreDataEntityLayout.Column, at location: SourceLocation) throws -> AppValue {
    func mismatch(_ expected: String) -> DeckError {
      DeckError(.corrupt, at: location, "expected \(expected), found a value of storage class \(cell.type)")
    }
    switch (column.type, cell) {
    case (_, .null): return .null
    case (.integer, .integer(let number)): return .integer(number)
    case (.bool, .integer(let number)): return .bool(number != 0)
    case (.double, .real(let number)): return .double(number)
    case (.double, .integer(let number)): return .double(Double(number))
    case (.date, .real(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case (.date, .integer(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case (.string, .text(let text)): return .string(text)
    case (.uuid, .blob(let bytes)):
      guard bytes.count == 16 else { throw DeckError(.corrupt, at: location, "a UUID blob has \(bytes.count) bytes, not 16") }
      return .uuid(UUID(bytes: bytes))
    case (.uuid, .text(let text)):
      guard let uuid = UUID(uuidString: text) else { throw mismatch("a UUID") }
      return .uuid(uuid)
    case (.data(let external), .blob(let bytes)): return .data(try externalData(bytes, flagged: external, at: location))
    case (.raw, .integer(let number)): return .integer(number)
    case (.raw, .real(let number)): return .double(number)
    case (.raw, .text(let text)): return .string(text)
    case (.raw, .blob(let bytes)): return .data(bytes)
    case (.integer, _), (.bool, _): throw mismatch("an integer")
    case (.double, _), (.date, _): throw mismatch("a number")
    case (.string, _): throw mismatch("text")
    case (.uuid, _): throw mismatch("a 16-byte UUID blob")
    case (.data, _): throw mismatch("a blob")
    }
  }

  /// The bytes of a Data attribute. With external storage allowed, the blob is tagged: `0x01`
  /// and the bytes inline, or `0x02` and the ASCII UUID of a file in
  /// `.<store name>_SUPPORT/_EXTERNAL_DATA/`. Without the flag a blob is taken as is, unless it is
  /// exactly such a reference to a file that exists.
  private func externalData(_ bytes: Data, flagged: Bool, at location: SourceLocation) throws -> Data {
    if let name = Self.externalReference(bytes) {
      let path = externalDataFolder.appendingPathComponent(name).path
      if flagged || FileManager.default.fileExists(atPath: path) {
        guard let data = FileManager.default.contents(atPath: path) else {
          throw DeckError(.missingPart, at: location, "the value is stored outside the database in \(path), which is missing")
        }
        return data
      }
    }
    if flagged, bytes.first == 0x01 { return bytes.dropFirst() }
    return bytes
  }

  /// The folder Core Data keeps external-storage files in: `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`.
  var externalDataFolder: URL {
    let store = URL(fileURLWithPath: originalPath)
    let stem = store.deletingPathExtension().lastPathComponent
    return store.deletingLastPathComponent().appendingPathComponent(".\(stem)_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
  }

  /// The file name a `0x02`-tagged blob names (an ASCII UUID, trailing NUL or spaces trimmed).
  static func externalReference(_ bytes: Data) -> String? {
    guard bytes.first == 0x02, bytes.count >= 37, bytes.count <= 64 else { return nil }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(["\0"]))
    guard let uuid = UUID(uuidString: text) else { return nil }
    return uuid.uuidString == text.uppercased() ? text : nil
  }
}
