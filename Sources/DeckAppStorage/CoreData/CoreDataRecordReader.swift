import DeckCore
import DeckIO
import Foundation

/// Reads the rows of one Core Data entity as app records, every property under the model's own
/// name and in the model's order:
///
/// - attributes as typed values (dates from the 2001 reference date, UUIDs from their 16 raw
///   bytes, external-storage blobs untagged or read from the store's `_EXTERNAL_DATA` folder);
/// - a composite attribute as an object of its elements;
/// - a relationship as a reference (``CoreDataReference``), or an array of them for a to-many,
///   never as a bare key number, which means nothing outside this store.
///
/// A NULL column is an absent key, as a nil optional is in `JSONEncoder` output.
struct CoreDataRecordReader {
  let database: SQLiteDatabase
  let schema: CoreDataSchema
  /// The store as the user named it (its external-storage folder sits beside it).
  let originalPath: String
  let location: SourceLocation
  /// Folders searched first for external-storage files (a writer's staging folder).
  var extraExternalDataFolders: [URL] = []

  init(database: SQLiteDatabase, schema: CoreDataSchema, originalPath: String, location: SourceLocation) {
    self.database = database
    self.schema = schema
    self.originalPath = originalPath
    self.location = location
  }

  /// The records of `entity` in primary-key order, and what could not be carried.
  func read(_ entity: CoreDataEntityLayout) throws -> (AppRecords, [Diagnostic]) {
    try read(entity, primaryKeys: nil)
  }

  /// The records of `entity` whose keys are in `primaryKeys` (all when nil), in key order.
  func read(_ entity: CoreDataEntityLayout, primaryKeys wanted: Set<Int64>?) throws -> (AppRecords, [Diagnostic]) {
    var warnings = schema.warnings
    if let orphans = try rowsOfNoEntity(in: entity.table), orphans > 0 {
      warnings.append(
        Diagnostic(
          .rowsOfNoEntity, at: location.table(entity.table),
          "\(CountedNoun.phrase(orphans, "row")) of the table \(orphans == 1 ? "belongs" : "belong") to no entity of the store (Z_ENT empty, or a number Z_PRIMARYKEY does not list); Core Data would not load \(orphans == 1 ? "it" : "them"), and \(orphans == 1 ? "it is" : "they are") not read"
        ))
    }
    for relationship in entity.relationships {
      if case .missing(let what) = relationship.storage {
        warnings.append(
          Diagnostic(
            .relationshipMissing, at: location.table(entity.table),
            "entity \(entity.name): the relationship \(relationship.key) should be kept in \(what), which the store lacks; it is not read"
          ))
      }
    }
    let scalarColumns = entity.columns
    let foreignKeys = entity.relationships.compactMap { relationship -> (String, String?)? in
      if case .foreignKey(let column, let entityColumn) = relationship.storage { return (column, entityColumn) }
      return nil
    }
    let selected = ["Z_PK"] + scalarColumns.map(\.column) + foreignKeys.flatMap { [$0.0, $0.1 ?? "NULL"] }
    let statement = try database.prepare(
      "SELECT \(selected.map { $0 == "NULL" ? $0 : SQLiteRecordSchema.quoted($0) }.joined(separator: ", ")) FROM \(SQLiteRecordSchema.quoted(entity.table)) WHERE Z_ENT = ? ORDER BY Z_PK",
      table: entity.table)
    statement.bind(1, int64: entity.entityNumber)
    let references = CoreDataReferenceReader(database: database, schema: schema) { cell, column, location in
      try self.value(cell, column: column, at: location)
    }
    var records: [AppRecord] = []
    var primaryKeys: [Int64] = []
    var unusualBooleans = CoreDataUnusualBooleans()
    while try statement.step() {
      let primaryKey = statement.int64(0)
      if let wanted, !wanted.contains(primaryKey) { continue }
      let rowLocation = location.table(entity.table, row: primaryKey)
      var cells: [String: AppValue] = [:]
      for (index, column) in scalarColumns.enumerated() {
        let cell = statement.value(Int32(index + 1))
        unusualBooleans.note(cell, of: column, row: primaryKey)
        let value = try self.value(cell, column: column, at: rowLocation.item("column \(column.column)"))
        if !value.isNull { cells[column.column] = value }
      }
      var foreignKeyValues: [String: (Int64, Int64?)] = [:]
      for (offset, (column, _)) in foreignKeys.enumerated() {
        let index = Int32(1 + scalarColumns.count + offset * 2)
        guard case .integer(let key) = statement.value(index) else { continue }
        let entityNumber: Int64? = if case .integer(let number) = statement.value(index + 1) { number } else { nil }
        foreignKeyValues[column] = (key, entityNumber)
      }
      var record = AppRecord()
      for member in entity.members {
        switch member {
        case .attribute(let column):
          if let value = cells[column.column] { record.append(.init(key: column.key, value: value)) }
        case .composite(let composite):
          let elements = composite.elements.compactMap { element in
            cells[element.column].map { AppRecord.Field(key: element.key, value: $0) }
          }
          if !elements.isEmpty {
            record.append(.init(key: composite.key, value: .object(AppRecord(fields: elements))))
          }
        case .relationship(let relationship):
          if let value = try references.value(
            of: relationship, primaryKey: primaryKey, foreignKeys: foreignKeyValues,
            at: rowLocation.item("relationship \(relationship.key)"))
          {
            record.append(.init(key: relationship.key, value: value))
          }
        }
      }
      records.append(record)
      primaryKeys.append(primaryKey)
    }
    warnings += unusualBooleans.warnings(entity: entity, at: location.table(entity.table))
    let declared = AppRecordShape(
      fields: entity.members.map { member in
        switch member {
        case .attribute(let column): .init(key: column.key, type: column.type.valueType)
        case .composite(let composite): .init(key: composite.key, type: .object)
        case .relationship(let relationship):
          .init(key: relationship.key, type: relationship.model.isToMany ? .array : .object)
        }
      })
    var result = AppRecords(name: entity.name, records: records, declared: declared, primaryKeys: primaryKeys)
    if !schema.storeIdentifier.isEmpty {
      result.objectURIs = primaryKeys.map {
        CoreDataReference(entity: entity.name, storeIdentifier: schema.storeIdentifier, primaryKey: $0, unique: nil).uri
      }
    }
    return (result, warnings)
  }

  /// The rows of `table` whose `Z_ENT` names none of the entities kept in it (empty, or a number
  /// `Z_PRIMARYKEY` does not list): rows of a damaged store, which no entity reads. Nil when the
  /// table has no `Z_ENT` column to ask.
  private func rowsOfNoEntity(in table: String) throws -> Int? {
    let numbers = schema.entities.filter { $0.table == table }.map { String($0.entityNumber) }
    guard !numbers.isEmpty,
      let statement = try? database.prepare(
        "SELECT count(*) FROM \(SQLiteRecordSchema.quoted(table)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(numbers.joined(separator: ", ")))",
        table: table)
    else { return nil }
    _ = try statement.step()
    return Int(statement.int64(0))
  }

  /// The number of rows of `entity`.
  func count(_ entity: CoreDataEntityLayout) throws -> Int {
    let statement = try database.prepare(
      "SELECT count(*) FROM \(SQLiteRecordSchema.quoted(entity.table)) WHERE Z_ENT = ?", table: entity.table)
    statement.bind(1, int64: entity.entityNumber)
    _ = try statement.step()
    return Int(statement.int64(0))
  }

  private func value(_ cell: SQLiteValue, column: CoreDataEntityLayout.Column, at location: SourceLocation) throws
    -> AppValue
  {
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
      guard bytes.count == 16 else {
        throw DeckError(.corrupt, at: location, "a UUID blob has \(bytes.count) bytes, not 16")
      }
      return .uuid(UUID(bytes: bytes))
    case (.uuid, .text(let text)):
      guard let uuid = UUID(uuidString: text) else { throw mismatch("a UUID") }
      return .uuid(uuid)
    case (.data(let external), .blob(let bytes)):
      return .data(try external ? externalData(bytes, at: location) : bytes)
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

  /// The bytes of an attribute that allows external storage: its blob is tagged, `0x01` and the
  /// bytes inline, or `0x02` and the ASCII UUID of a file in `.<store name>_SUPPORT/_EXTERNAL_DATA/`.
  private func externalData(_ bytes: Data, at location: SourceLocation) throws -> Data {
    switch CoreDataExternalStorage.decode(bytes) {
    case .inline(let data):
      return data
    case .file(let name):
      for folder in extraExternalDataFolders + [externalDataFolder] {
        let path = folder.appendingPathComponent(name).path
        // Foundation does not open what is not a regular file (a named pipe, a device, a folder),
        // and answers as for a missing one: say what it is.
        if let kind = FileManager.default.notRegularFileKind(atPath: path) {
          throw DeckError(
            .unreadableFile, at: location,
            "the value is stored outside the database in \(path), which is \(kind), not a file")
        }
        // A store copied from elsewhere must not bring a file of this machine's in through a
        // symbolic link (a writer's own staging folder is deckport's, and is not asked).
        if folder == externalDataFolder, let link = storeBoundary.outsideLink(at: path) {
          throw DeckError(
            .unreadableFile, at: location,
            "the value is stored outside the database in \(path), which is \(link); only the store's own files are read"
          )
        }
        guard let size = FileManager.default.fileSize(atPath: path) else { continue }
        // A writer's staging folder is deckport's own: its files are mapped where they are.
        if folder != externalDataFolder { return try SpilledBytes.mappingOwnFile(atPath: path, at: location) }
        return try fileContents(path, size: size)
      }
      throw DeckError(
        .missingPart, at: location,
        "the value is stored outside the database in \(externalDataFolder.appendingPathComponent(name).path), which is missing"
      )
    case .untagged:
      throw DeckError(
        .corrupt, at: location,
        "the attribute allows external storage, so its blob starts with 0x01 (bytes inline) or 0x02 (a file name); this one starts with \(bytes.first.map { String(format: "0x%02X", $0) } ?? "nothing")"
      )
    }
  }

  /// The bytes of the external-storage file at `path`, mapped from a private copy when large
  /// (``SpilledBytes``): a store's pictures need not all sit in memory at once, and no other
  /// process can shorten the copy under the mapping.
  private func fileContents(_ path: String, size: UInt64) throws -> Data {
    do {
      let file = MediaBlob(source: FileMediaSource(path: path))
      return try SpilledBytes.bytes(size: Int64(clamping: size)) { try file.forEachChunk($0) }
    } catch let error as DeckError {
      throw DeckError(
        .unreadableFile, at: location,
        "the value is stored outside the database in \(path), which cannot be read (\(error.message))")
    }
  }

  /// The folder Core Data keeps external-storage files in: `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`.
  var externalDataFolder: URL { CoreDataExternalStorage.folder(forStore: originalPath) }

  /// What the store's external-storage files may lead to: nothing outside the folder the store
  /// sits in.
  var storeBoundary: FolderBoundary {
    FolderBoundary(folder: URL(fileURLWithPath: originalPath).deletingLastPathComponent().path)
  }
}
