import DeckCore
import DeckIO
import Foundation
import PlistCodec

/// The entities of a Core Data/SwiftData store: entity numbers, names and parents from
/// `Z_PRIMARYKEY`; properties from the model in `Z_MODELCACHE`, each resolved to its column by
/// Core Data's naming rule (``CoreDataColumnNaming``) and checked against the table's real
/// columns. A store without a model cache (older Core Data) falls back to the columns themselves.
struct CoreDataSchema {
  let entities: [CoreDataEntityLayout]
  let model: CoreDataModel?
  /// The store's metadata (`Z_METADATA.Z_PLIST`), when it decodes.
  let metadata: PlistDictionary?
  /// The store's identifier (`Z_METADATA.Z_UUID`), part of every object's URI.
  let storeIdentifier: String
  /// Things that could not be read but did not stop reading (a model cache that does not decode,
  /// a column the model predicts but the table lacks).
  let warnings: [Diagnostic]

  /// Entity numbers from here on are Core Data's own (persistent history, CloudKit mirroring).
  static let firstPrivateEntityNumber: Int64 = 16000

  private struct KeyRow {
    var number: Int64
    var name: String
    var parent: Int64
    var max: Int64
  }

  init(database: SQLiteDatabase, location: SourceLocation) throws {
    var warnings: [Diagnostic] = []
    let model = try Self.loadModel(database, location: location, warnings: &warnings)
    self.model = model
    (self.metadata, self.storeIdentifier) = try Self.loadMetadata(database)

    let statement = try database.prepare(
      "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", table: "Z_PRIMARYKEY")
    var rows: [KeyRow] = []
    while try statement.step() {
      let row = KeyRow(
        number: statement.int64(0), name: statement.text(1), parent: statement.int64(2), max: statement.int64(3))
      if row.number < Self.firstPrivateEntityNumber { rows.append(row) }
    }
    let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    let numbers = Dictionary(rows.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
    func root(of row: KeyRow) -> KeyRow {
      var current = row
      var seen: Set<Int64> = [row.number]
      while current.parent != 0, let parent = byNumber[current.parent], seen.insert(parent.number).inserted {
        current = parent
      }
      return current
    }
    func hasSubentities(_ name: String) -> Bool {
      guard let number = numbers[name] else { return false }
      return rows.contains { $0.parent == number }
    }
    func table(of name: String) -> String? {
      numbers[name].flatMap { byNumber[$0] }.map { "Z" + root(of: $0).name.uppercased() }
    }

    // Every table's columns, read once; each hierarchy's table with the columns the rule gives
    // each of its entities (with a model).
    var tableColumns: [String: [(name: String, type: String)]] = [:]
    for table in try SQLiteLayout.tableNames(database) {
      tableColumns[table] = try Self.declaredColumns(of: table, database: database)
    }
    let columnNames = tableColumns.mapValues { Set($0.map(\.name)) }
    var naming: [String: CoreDataColumnNaming.EntityColumns] = [:]
    let hierarchies = Dictionary(grouping: rows, by: { root(of: $0).number })
    for (rootNumber, members) in hierarchies {
      guard let rootRow = byNumber[rootNumber] else { continue }
      let table = "Z" + rootRow.name.uppercased()
      guard tableColumns[table] != nil else {
        throw DeckError(
          .corrupt, at: location.table("Z_PRIMARYKEY").item("entity '\(rootRow.name)'"),
          "Z_PRIMARYKEY lists the entity, but the store has no table \(table)")
      }
      if let model {
        naming.merge(
          CoreDataColumnNaming.columns(
            of: members.map { ($0.name, $0.number) }, model: model, numbers: numbers, hasSubentities: hasSubentities),
          uniquingKeysWith: { first, _ in first })
      }
    }

    let resolver = model.map { model in
      CoreDataRelationshipResolver(
        model: model, naming: naming, numbers: numbers, tableOf: table(of:), tableColumns: columnNames)
    }
    var entities: [CoreDataEntityLayout] = []
    for row in rows {
      let rootRow = root(of: row)
      let table = "Z" + rootRow.name.uppercased()
      let declared = tableColumns[table] ?? []
      var layout = CoreDataEntityLayout(
        name: row.name, entityNumber: row.number, superentityNumber: row.parent, rootName: rootRow.name,
        rootNumber: rootRow.number, table: table, maximumPrimaryKey: row.max, isAbstract: false, members: [],
        foreignColumns: [], unclaimedColumns: [], hasSubentities: hasSubentities(row.name))
      if let model, let resolver, let entity = model.entities[row.name] {
        layout.isAbstract = entity.isAbstract
        let (members, missing) = Self.members(
          of: row.name, model: model, naming: naming, declared: declared, resolver: resolver)
        layout.members = members
        for column in missing {
          warnings.append(
            Diagnostic(
              .columnMissing, at: location.table(table),
              "entity \(row.name): the model stores \(column.property) in column \(column.column), which the table lacks; it is not read"
            ))
        }
        let lineage = Set(model.lineage(of: row.name).map(\.name))
        let hierarchyMembers = hierarchies[rootRow.number] ?? []
        layout.foreignColumns = hierarchyMembers.filter { !lineage.contains($0.name) }
          .flatMap { naming[$0.name]?.all ?? [] }.filter { name in declared.contains { $0.name == name } }.sorted()
      } else {
        if model != nil {
          warnings.append(
            Diagnostic(
              .modelEntityMissing, at: location.table("Z_PRIMARYKEY").item("entity '\(row.name)'"),
              "the model cache has no entity \(row.name); its properties are named after its columns"))
        }
        layout.members = Self.columnsWithoutModel(declared, sharesTable: layout.hasSubentities || row.parent != 0)
          .map { .attribute($0) }
      }
      entities.append(layout)
    }
    // Columns no property of any entity claims.
    if model != nil {
      var claimed = Set(naming.values.flatMap(\.all))
      for entity in entities {
        for relationship in entity.relationships {
          switch relationship.storage {
          case .destinationColumn(let column, let order, _, _): claimed.formUnion([column] + (order.map { [$0] } ?? []))
          default: break
          }
        }
      }
      for index in entities.indices {
        entities[index].unclaimedColumns = (tableColumns[entities[index].table] ?? []).map(\.name).filter { name in
          !["Z_PK", "Z_ENT", "Z_OPT"].contains(name.uppercased()) && !name.uppercased().hasPrefix("Z_FOK_")
            && !claimed.contains(name)
        }
      }
      for table in Set(entities.map(\.table)).sorted() {
        guard let unclaimed = entities.first(where: { $0.table == table })?.unclaimedColumns, !unclaimed.isEmpty else {
          continue
        }
        warnings.append(
          Diagnostic(
            .columnUnclaimed, at: location.table(table),
            "the columns \(unclaimed.joined(separator: ", ")) belong to no property of the model; they are not read"))
      }
    }
    self.entities = entities
    self.warnings = warnings
  }

  /// The entity named `name`, or the only one when nil.
  func entity(_ name: String?, location: SourceLocation) throws -> CoreDataEntityLayout {
    entities[
      try SQLiteRecordReader.choose(
        name, among: entities.map(\.name), location: location, noun: "entity", plural: "entities")]
  }

  /// The entity with this number.
  func entity(number: Int64) -> CoreDataEntityLayout? {
    entities.first { $0.entityNumber == number }
  }

  /// Why the store syncs with CloudKit, or nil: mirroring tables (`ANSCK…`) or metadata keys
  /// that name CloudKit.
  func cloudKitEvidence(_ tables: [String]) -> String? {
    if let table = tables.first(where: { $0.uppercased().hasPrefix("ANSCK") }) {
      return "it has the CloudKit mirroring table \(table)"
    }
    if let key = metadata?.keys.first(where: { $0.localizedCaseInsensitiveContains("CloudKit") }) {
      return "its metadata has the key \(key)"
    }
    return nil
  }

  /// A column the rule predicts that the table lacks.
  private struct MissingColumn {
    var property: String
    var column: String
  }

  /// The members of `entity` (inherited properties first, each in the model's order) with their
  /// columns; each property's column comes from the entity that declares it.
  private static func members(
    of entity: String, model: CoreDataModel, naming: [String: CoreDataColumnNaming.EntityColumns],
    declared: [(name: String, type: String)], resolver: CoreDataRelationshipResolver
  ) -> ([CoreDataEntityLayout.Member], [MissingColumn]) {
    let types = Dictionary(declared.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
    var members: [CoreDataEntityLayout.Member] = []
    var missing: [MissingColumn] = []
    func column(_ attribute: CoreDataModel.Attribute, key: String, named column: String?, property: String)
      -> CoreDataEntityLayout.Column?
    {
      guard let column, let declaredType = types[column] else {
        missing.append(MissingColumn(property: property, column: column ?? "Z" + attribute.name.uppercased()))
        return nil
      }
      let type =
        CoreDataColumnType.from(attributeType: attribute.typeCode, external: attribute.allowsExternalStorage)
        ?? CoreDataColumnType.from(declaredType: declaredType)
      return CoreDataEntityLayout.Column(key: key, column: column, type: type, attribute: attribute)
    }
    for owner in model.lineage(of: entity) {
      let columns = naming[owner.name] ?? CoreDataColumnNaming.EntityColumns()
      for property in owner.properties {
        switch property {
        case .attribute(let attribute):
          guard !attribute.isTransient else { continue }
          if let resolved = column(
            attribute, key: attribute.name, named: columns.attributes[attribute.name], property: attribute.name)
          {
            members.append(.attribute(resolved))
          }
        case .composite(let composite):
          let elements = composite.elements.filter { !$0.isTransient }.compactMap { element in
            column(
              element, key: element.name,
              named: columns.attributes[CoreDataColumnNaming.elementKey(composite.name, element.name)],
              property: "\(composite.name).\(element.name)")
          }
          members.append(.composite(.init(key: composite.name, isOptional: composite.isOptional, elements: elements)))
        case .relationship(let relationship):
          guard !relationship.isTransient,
            let resolved = resolver.resolve(relationship, declaredBy: owner.name, columns: columns)
          else { continue }
          members.append(.relationship(resolved))
        }
      }
    }
    return (members, missing)
  }

  /// A store without a model: every `Z…` attribute column under its name without the `Z`,
  /// lower-cased, typed by its declared type. Relationship bookkeeping (`Z<n>_…`, `Z_FOK_…`) is
  /// left out; in a shared table every column is read, since nothing says whose it is.
  private static func columnsWithoutModel(_ declared: [(name: String, type: String)], sharesTable: Bool)
    -> [CoreDataEntityLayout.Column]
  {
    declared.compactMap { name, type in
      let upper = name.uppercased()
      guard upper.hasPrefix("Z"), !["Z_PK", "Z_ENT", "Z_OPT"].contains(upper), !upper.hasPrefix("Z_FOK_"),
        upper.range(of: #"^Z[0-9]+_"#, options: .regularExpression) == nil
      else { return nil }
      return .init(
        key: String(name.dropFirst()).lowercased(), column: name, type: .from(declaredType: type), attribute: nil)
    }
  }

  private static func declaredColumns(of table: String, database: SQLiteDatabase) throws -> [(
    name: String, type: String
  )] {
    let info = try database.prepare("PRAGMA table_info(\(SQLiteRecordSchema.quoted(table)))", table: table)
    var declared: [(name: String, type: String)] = []
    while try info.step() { declared.append((info.text(1), info.text(2))) }
    return declared
  }

  private static func loadModel(
    _ database: SQLiteDatabase, location: SourceLocation, warnings: inout [Diagnostic]
  ) throws -> CoreDataModel? {
    guard database.tableExists("Z_MODELCACHE") else { return nil }
    let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE", table: "Z_MODELCACHE")
    guard try statement.step(), statement.columnType(0) == .blob else { return nil }
    do {
      return try CoreDataModel.decode(modelCache: statement.blob(0))
    } catch {
      warnings.append(
        Diagnostic(
          .modelCache, at: location.table("Z_MODELCACHE"),
          "the model cache does not decode (\(error.message)); property names and types come from the columns"))
      return nil
    }
  }

  private static func loadMetadata(_ database: SQLiteDatabase) throws -> (PlistDictionary?, String) {
    let statement = try database.prepare("SELECT Z_PLIST, Z_UUID FROM Z_METADATA", table: "Z_METADATA")
    guard try statement.step() else { return (nil, "") }
    let identifier = statement.optionalText(1) ?? ""
    guard statement.columnType(0) == .blob,
      case .dictionary(let dictionary)? = try? PlistDocument(data: statement.blob(0)).root
    else { return (nil, identifier) }
    return (dictionary, identifier)
  }
}
