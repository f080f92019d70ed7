import DeckCore
import DeckIO
import Foundation

/// The entities of a Core Data/SwiftData store, read generically: entity numbers, names and
/// parents from `Z_PRIMARYKEY`, columns from each table, property names and types from the model
/// cache (`Z_MODELCACHE`) when the store has one, else from the columns' declared types.
struct CoreDataSchema {
  let entities: [CoreDataEntityLayout]
  let model: CoreDataModel?
  /// The store's metadata (`Z_METADATA.Z_PLIST`), when it decodes.
  let metadata: PlistDictionary?
  /// Things that could not be read but did not stop reading (a model cache that does not decode).
  let warnings: [Diagnostic]

  /// Entity numbers from here on are Core Data's own (persistent history, CloudKit mirroring).
  static let firstPrivateEntityNumber: Int64 = 16000

  init(database: SQLiteDatabase, location: SourceLocation) throws {
    var warnings: [Diagnostic] = []
    let model = try Self.loadModel(database, location: location, warnings: &warnings)
    self.model = model
    self.metadata = try Self.loadMetadata(database, location: location)

    let rows = try database.prepare(
      "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", table: "Z_PRIMARYKEY")
    var raw: [(number: Int64, name: String, parent: Int64, max: Int64)] = []
    while try rows.step() {
      raw.append((rows.int64(0), rows.text(1), rows.int64(2), rows.int64(3)))
    }
    let byNumber = Dictionary(raw.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    var entities: [CoreDataEntityLayout] = []
    for entity in raw where entity.number < Self.firstPrivateEntityNumber {
      var root = entity
      var seen: Set<Int64> = [entity.number]
      while root.parent != 0, let parent = byNumber[root.parent], seen.insert(parent.number).inserted { root = parent }
      let table = "Z" + root.name.uppercased()
      guard database.tableExists(table) else {
        throw DeckError(
          .corrupt, at: location.table("Z_PRIMARYKEY").item("entity '\(entity.name)'"),
          "Z_PRIMARYKEY lists the entity, but the store has no table \(table)")
      }
      let sharesTable = entity.parent != 0 || raw.contains { $0.parent == entity.number }
      let columns = try Self.columns(
        of: table, entity: entity.name, sharesTable: sharesTable, database: database, model: model)
      entities.append(
        CoreDataEntityLayout(
          name: entity.name, entityNumber: entity.number, superentityNumber: entity.parent, table: table,
          maximumPrimaryKey: entity.max, columns: columns.attributes, relationships: columns.relationships,
          hasSubentities: raw.contains { $0.parent == entity.number }))
    }
    self.entities = entities
    self.warnings = warnings
  }

  /// The entity named `name`, or the only one when nil.
  func entity(_ name: String?, location: SourceLocation) throws -> CoreDataEntityLayout {
    let chosen = try SQLiteRecordReader.choose(name, among: entities.map(\.name), location: location, noun: "entity", plural: "entities")
    guard let entity = entities.first(where: { $0.name == chosen }) else {
      throw DeckError(.missingPart, at: location, "no entity '\(chosen)'")
    }
    return entity
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
          "model-cache", at: location.table("Z_MODELCACHE"),
          "the model cache does not decode (\(error.message)); property names and types come from the columns"))
      return nil
    }
  }

  private static func loadMetadata(_ database: SQLiteDatabase, location: SourceLocation) throws -> PlistDictionary? {
    let statement = try database.prepare("SELECT Z_PLIST FROM Z_METADATA", table: "Z_METADATA")
    guard try statement.step(), statement.columnType(0) == .blob,
      case .dictionary(let dictionary)? = try? PlistDocument(data: statement.blob(0)).root
    else { return nil }
    return dictionary
  }

  /// The attribute columns of `entity` in `table`, and its relationship names. Columns the model
  /// does not name (the parts of a composite attribute) are kept under their column names, unless
  /// the table is shared with parent or child entities, whose columns they may be.
  private static func columns(
    of table: String, entity: String, sharesTable: Bool, database: SQLiteDatabase, model: CoreDataModel?
  ) throws -> (attributes: [CoreDataEntityLayout.Column], relationships: [String]) {
    let info = try database.prepare("PRAGMA table_info(\(SQLiteRecordSchema.quoted(table)))", table: table)
    var declared: [(name: String, type: String)] = []
    while try info.step() { declared.append((info.text(1), info.text(2))) }
    let attributes = model?.allAttributes(of: entity) ?? []
    let relationships = model?.allRelationships(of: entity) ?? []
    let relationshipColumns = Set(relationships.map { "Z" + $0.name.uppercased() })
    let entityKnown = model?.entities[entity] != nil
    var result: [CoreDataEntityLayout.Column] = []
    for (name, type) in declared {
      let upper = name.uppercased()
      if ["Z_PK", "Z_ENT", "Z_OPT"].contains(upper) || upper.hasPrefix("Z_FOK_") || relationshipColumns.contains(upper) { continue }
      if upper.range(of: #"^Z[0-9]+_"#, options: .regularExpression) != nil { continue }
      guard upper.hasPrefix("Z") else { continue }
      if let attribute = attributes.first(where: { "Z" + $0.name.uppercased() == upper }) {
        let columnType =
          CoreDataColumnType.from(attributeType: attribute.typeCode, external: attribute.allowsExternalStorage)
          ?? CoreDataColumnType.from(declaredType: type)
        result.append(.init(key: attribute.name, column: name, type: columnType, attribute: attribute))
      } else if !entityKnown || !sharesTable {
        result.append(.init(key: String(name.dropFirst()).lowercased(), column: name, type: .from(declaredType: type), attribute: nil))
      }
    }
    // Keep the model's property order when there is one; columns are grouped by type in the DDL.
    if !attributes.isEmpty {
      let order = Dictionary(attributes.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
      result.sort { (order[$0.key] ?? Int.max) < (order[$1.key] ?? Int.max) }
    }
    return (result, relationships.map(\.name))
  }
}
