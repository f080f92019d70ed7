/// Finds where a store keeps each relationship, following Core Data's layout:
///
/// - a to-one is a column of the row (``CoreDataColumnNaming``);
/// - a to-many whose inverse is a to-one is that inverse's column in the destination's table;
/// - a to-many without an inverse is a column `Z<n><NAME>` in the destination's table (`n` the
///   number of the entity that declares it), as `ZINGREDIENT.Z1SPEC` for `Cocktail.spec`;
/// - a many-to-many is a join table `Z_<n><NAME>` named after one side, with the columns
///   `Z_<a><INVERSE>` (this side's keys) and `Z_<b><NAME>` (the destination's keys), as
///   `Z_1GARNISH (Z_1COCKTAILS, Z_2GARNISH)` for `Cocktail.garnish` ⟷ `Garnish.cocktails`.
///
/// Whatever the rule predicts is checked against the store; what is not there is reported as
/// ``CoreDataRelationshipStorage/missing(_:)``.
struct CoreDataRelationshipResolver {
  let model: CoreDataModel
  let naming: [String: CoreDataColumnNaming.EntityColumns]
  let numbers: [String: Int64]
  let tableOf: (String) -> String?
  /// Every table of the store with its column names, read once.
  let tableColumns: [String: Set<String>]

  /// The relationship `relationship`, declared by `owner`, whose own columns are `columns`.
  func resolve(
    _ relationship: CoreDataModel.Relationship, declaredBy owner: String, columns: CoreDataColumnNaming.EntityColumns
  ) -> CoreDataEntityLayout.Relationship? {
    guard let destinationNumber = numbers[relationship.destination],
      let destinationTable = tableOf(relationship.destination),
      let ownerNumber = numbers[owner]
    else { return nil }
    let storage: CoreDataRelationshipStorage
    if !relationship.isToMany {
      if let column = columns.foreignKeys[relationship.name], hasColumn(tableOf(owner), column) {
        let entityColumn = columns.entityNumbers[relationship.name].flatMap { hasColumn(tableOf(owner), $0) ? $0 : nil }
        storage = .foreignKey(column: column, entityColumn: entityColumn)
      } else {
        storage = .missing("column \(columns.foreignKeys[relationship.name] ?? "Z" + relationship.name.uppercased())")
      }
    } else if let inverseName = relationship.inverse,
      let inverse = inverseRelationship(inverseName, of: relationship.destination)
    {
      if !inverse.relationship.isToMany {
        let column = naming[inverse.declaredBy]?.foreignKeys[inverseName] ?? "Z" + inverseName.uppercased()
        let entityColumn = naming[inverse.declaredBy]?.entityNumbers[inverseName].flatMap {
          hasColumn(destinationTable, $0) ? $0 : nil
        }
        storage =
          hasColumn(destinationTable, column)
          ? .destinationColumn(
            column: column, orderColumn: orderColumn(destinationTable, column), entityColumn: entityColumn,
            inverseRequired: !inverse.relationship.isOptional || inverse.relationship.minCount > 0)
          : .missing("column \(column) of \(destinationTable)")
      } else {
        storage = joinTable(
          relationship, ownerNumber: ownerNumber, inverse: inverseName,
          inverseOwnerNumber: numbers[inverse.declaredBy] ?? destinationNumber)
      }
    } else {
      let column = "Z\(ownerNumber)" + relationship.name.uppercased()
      storage =
        hasColumn(destinationTable, column)
        ? .destinationColumn(
          column: column, orderColumn: orderColumn(destinationTable, column), entityColumn: nil, inverseRequired: false)
        : .missing("column \(column) of \(destinationTable)")
    }
    return CoreDataEntityLayout.Relationship(
      key: relationship.name, model: relationship, destinationNumber: destinationNumber,
      destinationTable: destinationTable,
      storage: storage)
  }

  /// The inverse relationship and the entity (the destination or one of its ancestors) that declares it.
  private func inverseRelationship(_ name: String, of destination: String) -> (
    relationship: CoreDataModel.Relationship, declaredBy: String
  )? {
    for entity in model.lineage(of: destination) {
      for case .relationship(let relationship) in entity.properties where relationship.name == name {
        return (relationship, entity.name)
      }
    }
    return nil
  }

  private func joinTable(
    _ relationship: CoreDataModel.Relationship, ownerNumber: Int64, inverse: String, inverseOwnerNumber: Int64
  ) -> CoreDataRelationshipStorage {
    let ownColumn = "Z_\(ownerNumber)" + inverse.uppercased()
    let destinationColumn = "Z_\(inverseOwnerNumber)" + relationship.name.uppercased()
    let candidates = [
      "Z_\(ownerNumber)" + relationship.name.uppercased(), "Z_\(inverseOwnerNumber)" + inverse.uppercased(),
    ]
    for table in candidates where tableColumns[table] != nil {
      if hasColumn(table, ownColumn) && hasColumn(table, destinationColumn) {
        return .joinTable(
          table: table, ownColumn: ownColumn, destinationColumn: destinationColumn,
          orderColumn: orderColumn(table, destinationColumn))
      }
    }
    return .missing(
      "join table \(candidates.joined(separator: " or ")) with columns \(ownColumn) and \(destinationColumn)")
  }

  /// The ordering column Core Data keeps beside a column of an ordered relationship (`Z_FOK_…`).
  private func orderColumn(_ table: String, _ column: String) -> String? {
    let candidate = "Z_FOK_" + column.drop { $0 == "Z" || $0 == "_" }
    return hasColumn(table, candidate) ? candidate : nil
  }

  private func hasColumn(_ table: String?, _ column: String) -> Bool {
    guard let table else { return false }
    return tableColumns[table]?.contains(column) ?? false
  }
}
