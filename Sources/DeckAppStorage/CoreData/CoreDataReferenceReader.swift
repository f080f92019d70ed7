import DeckCore
import DeckIO
import Foundation

/// Reads a row's relationships as ``CoreDataReference`` values: a to-one from its foreign-key
/// column, a to-many from the destination's column or the join table, in the relationship's
/// order (`Z_FOK_…`) when it is ordered, else in key order. An empty relationship is no value.
final class CoreDataReferenceReader {
  private let database: SQLiteDatabase
  private let schema: CoreDataSchema
  private let convert: (SQLiteValue, CoreDataEntityLayout.Column, SourceLocation) throws -> AppValue
  private var statements: [String: SQLiteStatement] = [:]

  init(
    database: SQLiteDatabase, schema: CoreDataSchema,
    convert: @escaping (SQLiteValue, CoreDataEntityLayout.Column, SourceLocation) throws -> AppValue
  ) {
    self.database = database
    self.schema = schema
    self.convert = convert
  }

  /// The value of `relationship` for the row `primaryKey`, whose foreign-key columns hold
  /// `foreignKeys` (column → key and, for a polymorphic to-one, the target's entity number).
  func value(
    of relationship: CoreDataEntityLayout.Relationship, primaryKey: Int64, foreignKeys: [String: (Int64, Int64?)],
    at location: SourceLocation
  ) throws -> AppValue? {
    switch relationship.storage {
    case .foreignKey(let column, _):
      guard let (key, number) = foreignKeys[column] else { return nil }
      return try reference(key, entityNumber: number, relationship, at: location).value
    case .destinationColumn(let column, let order, _, _):
      let sql =
        "SELECT Z_PK, Z_ENT FROM \(quoted(relationship.destinationTable)) WHERE \(quoted(column)) = ? ORDER BY \(order.map(quoted) ?? "Z_PK")"
      return try references(
        sql, table: relationship.destinationTable, primaryKey: primaryKey, relationship, at: location)
    case .joinTable(let table, let own, let destination, let order):
      let sql =
        "SELECT j.\(quoted(destination)), d.Z_ENT FROM \(quoted(table)) j LEFT JOIN \(quoted(relationship.destinationTable)) d ON d.Z_PK = j.\(quoted(destination)) WHERE j.\(quoted(own)) = ? ORDER BY j.\(quoted(order ?? destination))"
      return try references(sql, table: table, primaryKey: primaryKey, relationship, at: location)
    case .missing:
      return nil
    }
  }

  private func references(
    _ sql: String, table: String, primaryKey: Int64, _ relationship: CoreDataEntityLayout.Relationship,
    at location: SourceLocation
  ) throws -> AppValue? {
    let statement = try prepared(sql, table: table)
    statement.reset()
    statement.bind(1, int64: primaryKey)
    var keys: [(Int64, Int64?)] = []
    while try statement.step() {
      let number: Int64? = statement.columnType(1) == .null ? nil : statement.int64(1)
      keys.append((statement.int64(0), number))
    }
    guard !keys.isEmpty else { return nil }
    return .array(try keys.map { try reference($0.0, entityNumber: $0.1, relationship, at: location).value })
  }

  /// The reference to the row `key` of the relationship's destination (or of the subentity
  /// `entityNumber` names).
  private func reference(
    _ key: Int64, entityNumber: Int64?, _ relationship: CoreDataEntityLayout.Relationship, at location: SourceLocation
  ) throws -> CoreDataReference {
    var target = entityNumber.flatMap { schema.entity(number: $0) }
    if target == nil, let destination = schema.entity(number: relationship.destinationNumber) {
      if destination.hasSubentities {
        let statement = try prepared(
          "SELECT Z_ENT FROM \(quoted(destination.table)) WHERE Z_PK = ?", table: destination.table)
        statement.reset()
        statement.bind(1, int64: key)
        if try statement.step() { target = schema.entity(number: statement.int64(0)) }
      }
      target = target ?? destination
    }
    let name = target?.name ?? relationship.model.destination
    return CoreDataReference(
      entity: name, storeIdentifier: schema.storeIdentifier, primaryKey: key,
      unique: try target.flatMap { try uniqueValues(of: $0, primaryKey: key, at: location) })
  }

  /// The target's values of the first uniqueness constraint of its entity made of attributes.
  private func uniqueValues(of entity: CoreDataEntityLayout, primaryKey: Int64, at location: SourceLocation) throws
    -> AppRecord?
  {
    guard let model = schema.model else { return nil }
    let columns = entity.columns
    for constraint in model.uniquenessConstraints(of: entity.name) {
      let members = constraint.compactMap { name in columns.first { $0.key == name } }
      guard members.count == constraint.count, !members.isEmpty else { continue }
      let statement = try prepared(
        "SELECT \(members.map { quoted($0.column) }.joined(separator: ", ")) FROM \(quoted(entity.table)) WHERE Z_PK = ?",
        table: entity.table)
      statement.reset()
      statement.bind(1, int64: primaryKey)
      guard try statement.step() else { return nil }
      var record = AppRecord()
      for (index, column) in members.enumerated() {
        let value = try convert(statement.value(Int32(index)), column, location)
        if !value.isNull { record.append(.init(key: column.key, value: value)) }
      }
      return record.isEmpty ? nil : record
    }
    return nil
  }

  private func prepared(_ sql: String, table: String) throws -> SQLiteStatement {
    if let statement = statements[sql] { return statement }
    let statement = try database.prepare(sql, table: table)
    statements[sql] = statement
    return statement
  }

  private func quoted(_ name: String) -> String { SQLiteRecordSchema.quoted(name) }
}
