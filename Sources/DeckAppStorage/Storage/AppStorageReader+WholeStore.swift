import DeckCore
import DeckIO
import Foundation

/// Every entity of a Core Data/SwiftData store that holds rows, read for a whole-store migration.
public struct CoreDataStoreContent: Sendable {
  /// The store's identifier (`Z_METADATA.Z_UUID`), which the URIs of its objects carry.
  public var storeIdentifier: String
  /// Each entity's records (every property under the model's name, relationships as references),
  /// with their `Z_PK`s, in entity-number order.
  public var entities: [AppRecords]
  /// What could not be read.
  public var warnings: [Diagnostic]

  /// How many records the store holds, over all entities.
  public var recordCount: Int { entities.reduce(0) { $0 + $1.records.count } }

  /// The object URI of record `index` of `entity`, as references to it name it.
  func uri(entity: AppRecords, record index: Int) -> String? {
    guard let keys = entity.primaryKeys, index < keys.count else { return nil }
    return CoreDataReference(
      entity: entity.name, storeIdentifier: storeIdentifier, primaryKey: keys[index], unique: nil
    ).uri
  }
}

extension AppStorageReader {
  /// Reads every entity of the Core Data/SwiftData store at `path` that holds rows (abstract
  /// entities hold none; each row is read as the entity it is).
  ///
  /// - Throws: ``DeckError`` when the file is not a Core Data store or cannot be read.
  package func readStore(path namedPath: String) throws -> CoreDataStoreContent {
    let path = FileManager.default.linkTarget(ofPath: namedPath)
    let location = SourceLocation(file: path)
    let snapshot = try SQLiteSnapshot(of: path, location: location)
    let database = try snapshot.open(location: location)
    try Self.requireLayout(.coreData, of: database, location: location)
    let schema = try CoreDataSchema(database: database, location: location)
    let reader = CoreDataRecordReader(database: database, schema: schema, originalPath: path, location: location)
    var content = CoreDataStoreContent(storeIdentifier: schema.storeIdentifier, entities: [], warnings: schema.warnings)
    for entity in schema.entities where !entity.isAbstract {
      let (records, warnings) = try reader.read(entity)
      // Entities of one hierarchy share a table: what is said of the table is said once.
      for warning in warnings.dropFirst(schema.warnings.count) where !content.warnings.contains(warning) {
        content.warnings.append(warning)
      }
      if !records.records.isEmpty { content.entities.append(records) }
    }
    return content
  }
}
