import DeckCore
import DeckIO
import Foundation

/// Copies every entity of one Core Data/SwiftData store into another store the app created
/// (a whole-store migration), relinking relationships to the rows they go to:
///
/// 1. each entity's records are matched with the rows the destination holds (``AppRecordMatching``:
///    the keys given, else the entity's first uniqueness constraint, else the whole record), and
///    the new and changed ones are written without their relationships, which gives every source
///    object a row in the destination: the source's object URI → destination `Z_PK` map;
/// 2. then each record's relationships are set through that map, so a link reaches the row its
///    target was copied to whatever key it got; a target that was not copied resolves by its
///    unique values or is dropped with a warning naming it. A matched record whose links already
///    equal the source's is left as it is, so a second migration changes nothing.
///
/// Entities the destination's model lacks are not copied, with a warning naming them and their
/// record count. Everything happens in one transaction on a private copy, verified before and
/// after it replaces the destination, as ``CoreDataFileWriter`` does for one entity.
struct CoreDataStoreFileWriter: StorageFileWriter {
  private(set) var place: String
  private(set) var warnings: [Diagnostic]
  /// What each entity's write did, known once the write has run (or, when the write
  /// ``changesNothing``, at once).
  private(set) var outcomes: [AppStoreMigrationReport.EntityOutcome] = []
  /// Whether the destination already holds every record, and every link, as the migration would
  /// write them: nothing to add, update or link, so the store is left as it is.
  private(set) var changesNothing = false
  private let content: CoreDataStoreContent
  private let destination: String
  private let location: SourceLocation
  private let policy: ExistingRecordPolicy
  private let plans: [EntityPlan]
  private let metadataBefore: [Data]
  private let staging: TemporaryDirectory
  private var written: [EntityWrite] = []

  /// How one entity's records meet the destination.
  private struct EntityPlan {
    /// The entity's records as read from the source.
    var source: AppRecords
    var entity: CoreDataEntityLayout
    /// The destination rows' keys, in the order the plan's held records are.
    var existingKeys: [Int64]
    /// The destination rows' links (relationship → target keys), in the same order.
    var existingLinks: [[String: [Int64]]]
    var plan: AppRecordMergePlan
    var countBefore: Int
  }

  /// What was written into one entity.
  private struct EntityWrite {
    var rows: CoreDataRecordWriter.Result
    var links: CoreDataRecordWriter.Result
  }

  init(content: CoreDataStoreContent, destination: String, exists: Bool, matching: AppRecordMatching) throws {
    let location = SourceLocation(file: destination)
    try CoreDataStoreEdit.requireExisting(exists, location: location)
    self.content = content
    self.destination = destination
    self.location = location
    self.policy = matching.policy
    var warnings: [Diagnostic] = []
    var changesNothing = false
    let staging = try TemporaryDirectory(prefix: "deckport-external-")
    let stagingFolder = URL(fileURLWithPath: staging.path(for: "_EXTERNAL_DATA"))
    (plans, metadataBefore, warnings) = try CoreDataStoreEdit.inspect(destination, location: location) {
      database, schema in
      let reader = CoreDataRecordReader(
        database: database, schema: schema, originalPath: destination, location: location)
      var plans: [EntityPlan] = []
      var warnings = schema.warnings
      for source in content.entities {
        guard let entity = schema.entities.first(where: { $0.name == source.name }) else {
          warnings.append(
            Diagnostic(
              .entityNotKept, at: location.item("entity \(source.name)"),
              "\(CountedNoun.phrase(source.records.count, "record")) of entity \(source.name) are not copied: the destination's model has no entity \(source.name)"
            ))
          continue
        }
        let relationships = Set(entity.relationships.map(\.key))
        let (held, _) = try reader.read(entity)
        let keys = Self.identityKeys(for: entity, model: schema.model, given: matching.keys)
        let plan = try AppRecordMergePlan(
          existing: held.records.map { Self.withoutRelationships($0, relationships) },
          existingKeys: held.primaryKeys ?? [],
          incoming: source.replacingRecords(
            source.records.map { Self.withoutRelationships(entity.spellingKeys(of: $0), relationships) }),
          matching: AppRecordMatching(policy: matching.policy, keys: keys),
          location: location.item("entity \(entity.name)"))
        let existingLinks = held.records.map { record in
          Dictionary(
            uniqueKeysWithValues: entity.relationships.map { ($0.key, CoreDataLinkCheck.targets(record[$0.key])) })
        }
        plans.append(
          EntityPlan(
            source: source, entity: entity, existingKeys: held.primaryKeys ?? [], existingLinks: existingLinks,
            plan: plan,
            countBefore: try reader.count(entity)))
      }
      if plans.allSatisfy({ $0.plan.changes.isEmpty }),
        let linkWarnings = try Self.linksAsHeld(
          plans, content: content, policy: matching.policy, database, schema, location, stagingFolder: stagingFolder)
      {
        changesNothing = true
        warnings += linkWarnings
      }
      return (plans, try CoreDataStoreEdit.bookkeeping(database), warnings)
    }
    self.warnings = warnings
    self.staging = staging
    self.changesNothing = changesNothing
    if changesNothing {
      outcomes = plans.map { plan in
        AppStoreMigrationReport.EntityOutcome(
          entity: plan.entity.name, table: plan.entity.table, read: plan.source.records.count,
          merge: plan.plan.summary, links: 0)
      }
    }
    place = CountedNoun.phrase(plans.count, "entity", plural: "entities")
  }

  /// The keys that identify a record of `entity`: those given (when the entity has them all),
  /// else its uniqueness constraint's attributes, else none (the whole record).
  private static func identityKeys(for entity: CoreDataEntityLayout, model: CoreDataModel?, given: [String]?)
    -> [String]?
  {
    if let given, given.allSatisfy(entity.attributeKeys.contains) { return given }
    return entity.uniqueAttributes(in: model)
  }

  private static func withoutRelationships(_ record: AppRecord, _ relationships: Set<String>) -> AppRecord {
    AppRecord(fields: record.fields.filter { !relationships.contains($0.key) })
  }

  private static func label(_ records: AppRecords, _ index: Int) -> String {
    "entity \(records.name) " + records.label(ofRecord: index).replacingOccurrences(of: "(Z_PK ", with: "(source Z_PK ")
  }

  mutating func produce(at path: String) throws {
    let (plans, content, location, staging, policy) = (plans, content, location, stagingFolder, policy)
    let externalDataFolder = CoreDataExternalStorage.folder(forStore: destination)
    let (written, outcomes, warnings) = try CoreDataStoreEdit.apply(
      to: destination, writingAt: path, location: location
    ) {
      database, schema in
      var warnings: [Diagnostic] = []
      var remapped: [String: CoreDataReferenceResolver.Target] = [:]
      var rowsWritten: [CoreDataRecordWriter.Result] = []
      var destinationKeys: [[Int64?]] = []
      // 1. Rows, without relationships; every source object gets its destination key.
      for plan in plans {
        guard let entity = schema.entities.first(where: { $0.name == plan.entity.name }) else { continue }
        var writer = CoreDataRecordWriter(
          database: database, schema: schema, entity: entity, location: location, stagingFolder: staging)
        writer.deferLinks = true
        writer.externalDataFolder = externalDataFolder
        let changes = plan.plan.changes.map { change in
          CoreDataRecordWriter.Change(
            label: Self.label(plan.source, change.incomingIndex), record: change.record, primaryKey: change.existingKey)
        }
        let result = try writer.write(changes, dates: plan.source.jsonDates)
        warnings += result.warnings
        var keys: [Int64?] = plan.plan.matchedExisting.map { held in
          held.flatMap { $0 < plan.existingKeys.count ? plan.existingKeys[$0] : nil }
        }
        for (position, change) in plan.plan.changes.enumerated() {
          keys[change.incomingIndex] = result.primaryKeys[position]
        }
        for (index, key) in keys.enumerated() {
          guard let key, let uri = content.uri(entity: plan.source, record: index) else { continue }
          remapped[uri] = CoreDataReferenceResolver.Target(primaryKey: key, entityNumber: entity.entityNumber)
        }
        rowsWritten.append(result)
        destinationKeys.append(keys)
      }
      // 2. Links, through the map.
      var written: [EntityWrite] = []
      var outcomes: [AppStoreMigrationReport.EntityOutcome] = []
      for (planIndex, plan) in plans.enumerated() {
        guard let entity = schema.entities.first(where: { $0.name == plan.entity.name }) else { continue }
        var writer = CoreDataRecordWriter(
          database: database, schema: schema, entity: entity, location: location, stagingFolder: staging)
        writer.remapped = remapped
        let relationships = Set(entity.relationships.map(\.key))
        var summary = plan.plan.summary
        var changes: [CoreDataRecordWriter.Change] = []
        var newRows: Set<Int64> = []
        let updatedRows = Set(plan.plan.changes.compactMap(\.existingKey))
        for (index, record) in plan.source.records.enumerated() {
          guard let key = destinationKeys[planIndex][index] else { continue }
          let links = AppRecord(fields: record.fields.filter { relationships.contains($0.key) })
          let label = Self.label(plan.source, index)
          guard let held = plan.plan.matchedExisting[index] else {
            newRows.insert(key)
            changes.append(.init(label: label, record: links, primaryKey: key))
            continue
          }
          if links.isEmpty || policy == .skip { continue }
          // Links already as the source has them change nothing (a link that finds no target
          // is still reported, each time).
          if let dropped = try Self.linksAsHeld(links, of: plan, held: held, writer: writer, label: label) {
            warnings += dropped
            continue
          }
          if !updatedRows.contains(key), summary.unchanged > 0 {
            summary.unchanged -= 1
            summary.updated += 1
          }
          changes.append(.init(label: label, record: links, primaryKey: key))
        }
        let links = try writer.link(changes, newRows: newRows)
        warnings += links.warnings
        written.append(EntityWrite(rows: rowsWritten[planIndex], links: links))
        outcomes.append(
          AppStoreMigrationReport.EntityOutcome(
            entity: entity.name, table: entity.table, read: plan.source.records.count, merge: summary,
            links: links.links.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }))
      }
      return (written, outcomes, warnings)
    }
    self.written = written
    self.outcomes = outcomes
    self.warnings += warnings
  }

  /// The warnings of the links that find no target when the links `links` (a source record's
  /// relationships) already equal those the destination's matched row `held` of `plan` has, as
  /// `writer` resolves them (ordered relationships in order, others as sets); nil when they
  /// differ.
  private static func linksAsHeld(
    _ links: AppRecord, of plan: EntityPlan, held: Int, writer: CoreDataRecordWriter, label: String
  ) throws -> [Diagnostic]? {
    let current = held < plan.existingLinks.count ? plan.existingLinks[held] : [:]
    var dropped: [Diagnostic] = []
    let wanted = try writer.targets(of: links, label: label, warnings: &dropped)
    let ordered = Set(writer.entity.relationships.filter(\.model.isOrdered).map(\.key))
    let same = wanted.allSatisfy { relationship, targets in
      let now = current[relationship] ?? []
      return ordered.contains(relationship) ? now == targets : Set(now) == Set(targets)
    }
    return same ? dropped : nil
  }

  /// For plans that add and update no row (every source record matched one the destination
  /// holds, so its key is that row's): the warnings of links that find no target when every
  /// matched record's links already equal its row's in `database` (the destination), nil when
  /// one differs, so that the migration would change the store.
  private static func linksAsHeld(
    _ plans: [EntityPlan], content: CoreDataStoreContent, policy: ExistingRecordPolicy, _ database: SQLiteDatabase,
    _ schema: CoreDataSchema, _ location: SourceLocation, stagingFolder: URL
  ) throws -> [Diagnostic]? {
    var remapped: [String: CoreDataReferenceResolver.Target] = [:]
    for plan in plans {
      for (index, held) in plan.plan.matchedExisting.enumerated() {
        guard let held, held < plan.existingKeys.count, let uri = content.uri(entity: plan.source, record: index)
        else { continue }
        remapped[uri] = CoreDataReferenceResolver.Target(
          primaryKey: plan.existingKeys[held], entityNumber: plan.entity.entityNumber)
      }
    }
    var warnings: [Diagnostic] = []
    guard policy != .skip else { return warnings }
    for plan in plans {
      var writer = CoreDataRecordWriter(
        database: database, schema: schema, entity: plan.entity, location: location, stagingFolder: stagingFolder)
      writer.remapped = remapped
      let relationships = Set(plan.entity.relationships.map(\.key))
      for (index, record) in plan.source.records.enumerated() {
        guard let held = plan.plan.matchedExisting[index] else { continue }
        let links = AppRecord(fields: record.fields.filter { relationships.contains($0.key) })
        if links.isEmpty { continue }
        guard
          let dropped = try linksAsHeld(
            links, of: plan, held: held, writer: writer, label: label(plan.source, index))
        else { return nil }
        warnings += dropped
      }
    }
    return warnings
  }

  func verify(at path: String) throws {
    guard written.count == plans.count else {
      throw DeckError(.writeFailed, at: location, "verification failed: nothing was written")
    }
    let snapshot = try SQLiteSnapshot(of: path, location: location)
    let database = try snapshot.open(location: location)
    let schema = try CoreDataSchema(database: database, location: location)
    var reader = CoreDataRecordReader(database: database, schema: schema, originalPath: destination, location: location)
    reader.extraExternalDataFolders = [stagingFolder]
    for (plan, write) in zip(plans, written) {
      let entity = try schema.entity(plan.entity.name, location: location)
      let count = try reader.count(entity)
      let added = plan.plan.changes.filter { $0.existingKey == nil }.count
      guard count == plan.countBefore + added else {
        throw DeckError(
          .writeFailed, at: location,
          "verification failed: entity \(entity.name) had \(plan.countBefore) rows, \(added) were added, but it has \(count)"
        )
      }
      try CoreDataRowAudit(database: database, model: schema.model, entity: entity, location: location).check(
        primaryKeys: write.rows.primaryKeys)
      let (rows, _) = try reader.read(entity, primaryKeys: Set(write.rows.primaryKeys + write.links.primaryKeys))
      let byKey = Dictionary(zip(rows.primaryKeys ?? [], rows.records), uniquingKeysWith: { first, _ in first })
      let relationships = entity.keysNotWrittenAsValues
      let actual = write.rows.primaryKeys.map { key in
        AppRecord(fields: (byKey[key] ?? AppRecord()).fields.filter { !relationships.contains($0.key) })
      }
      try requireEqual(
        expected: write.rows.expected, actual: actual,
        labels: {
          Self.label(plan.source, plan.plan.changes[$0].incomingIndex) + " (Z_PK \(write.rows.primaryKeys[$0]))"
        }, at: location)
      try CoreDataLinkCheck.require(write.links.links, readBack: byKey, entity: entity, location: location)
    }
    guard try CoreDataStoreEdit.bookkeeping(database) == metadataBefore else {
      throw DeckError(.writeFailed, at: location, "verification failed: Z_METADATA or Z_MODELCACHE changed")
    }
  }

  func placeCompanionFiles() throws -> [String] {
    try CoreDataStoreEdit.placeExternalFiles(
      written.flatMap(\.rows.externalFiles), from: stagingFolder, destination: destination, location: location)
  }

  func discardReplacedCompanionFiles() {
    let folder = CoreDataExternalStorage.folder(forStore: destination)
    for name in written.flatMap(\.rows.replacedExternalFiles) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  private var stagingFolder: URL { URL(fileURLWithPath: staging.path(for: "_EXTERNAL_DATA")) }
}
