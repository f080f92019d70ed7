import DeckCore
import DeckIO

/// Finds the row a ``CoreDataReference`` names in the store being written: the row a whole-store
/// migration copied it to (``remapped``), else the same row when the reference comes from this
/// very store (same store identifier, a row with that key of the right entity), else the one row
/// whose uniqueness-constraint values equal the reference's. A reference that finds nothing is
/// not linked; the caller reports it.
struct CoreDataReferenceResolver {
  let database: SQLiteDatabase
  let schema: CoreDataSchema
  /// Where the objects of a migrated store went: source object URI → row of this store.
  var remapped: [String: Target] = [:]

  /// A row of the destination: its key and entity number.
  struct Target: Equatable {
    var primaryKey: Int64
    var entityNumber: Int64
  }

  /// The row `reference` names, which must be a `destination` (or one of its subentities).
  func resolve(_ reference: CoreDataReference, destination: String) throws -> Target? {
    guard let model = schema.model, let destinationLayout = schema.entities.first(where: { $0.name == destination })
    else {
      return nil
    }
    let kinds = schema.entities.filter { model.entity($0.name, isKindOf: destination) }.map(\.entityNumber)
    guard !kinds.isEmpty else { return nil }
    if let target = remapped[reference.uri] {
      return kinds.contains(target.entityNumber) ? target : nil
    }
    let kindList = kinds.map(String.init).joined(separator: ", ")
    if reference.storeIdentifier == schema.storeIdentifier, !schema.storeIdentifier.isEmpty {
      let statement = try database.prepare(
        "SELECT Z_ENT FROM \(SQLiteRecordSchema.quoted(destinationLayout.table)) WHERE Z_PK = ? AND Z_ENT IN (\(kindList))",
        table: destinationLayout.table)
      statement.bind(1, int64: reference.primaryKey)
      if try statement.step() { return Target(primaryKey: reference.primaryKey, entityNumber: statement.int64(0)) }
    }
    guard let unique = reference.unique, !unique.isEmpty else { return nil }
    let target =
      schema.entities.first { $0.name == reference.entity && kinds.contains($0.entityNumber) } ?? destinationLayout
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    for field in unique {
      guard let column = target.columns.first(where: { $0.key == field.key }),
        let converted = CoreDataValueEncoding.convert(field.value, to: column.type, dates: .secondsSince2001),
        case .cell(let cell) = CoreDataValueEncoding.stored(converted, column: column)
      else { return nil }
      conditions.append("\(SQLiteRecordSchema.quoted(column.column)) = ?")
      values.append(cell)
    }
    let statement = try database.prepare(
      "SELECT Z_PK, Z_ENT FROM \(SQLiteRecordSchema.quoted(target.table)) WHERE \(conditions.joined(separator: " AND ")) AND Z_ENT IN (\(kindList)) LIMIT 2",
      table: target.table)
    for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    guard try statement.step() else { return nil }
    let found = Target(primaryKey: statement.int64(0), entityNumber: statement.int64(1))
    return try statement.step() ? nil : found
  }
}
