import DeckCore
import DeckIO
import Foundation

/// Writes app records into an entity of a Core Data/SwiftData store the app itself created, the
/// way Core Data saves them:
///
/// - a new row's `Z_PK` comes from the hierarchy's **root** entity (`Z_PRIMARYKEY.Z_MAX` of the
///   root, above the table's largest key), which is raised to cover it; `Z_ENT` is the entity's
///   number, `Z_OPT` 1; an updated row keeps its key and its `Z_OPT` goes up by one;
/// - each value goes to its own column (``CoreDataColumnNaming``), converted to the attribute's
///   type; external-storage bytes are tagged, and large ones written to `_EXTERNAL_DATA` files;
/// - a composite attribute's object fills its elements' columns;
/// - a relationship is linked only to rows that ``CoreDataReferenceResolver`` finds in this store;
///   any other link is dropped with a warning naming it; a whole-store migration writes every
///   entity's rows first (``deferLinks``) and links them afterwards (``link(_:newRows:)``) through
///   the map of where each source object went (``remapped``);
/// - abstract entities, unknown keys, values an attribute cannot hold (Integer 16/32 out of
///   range, an integer a Double does not hold exactly, a number a Float does not hold among them)
///   and missing required values are refused, naming the record and property.
///
/// `Z_METADATA` and `Z_MODELCACHE` are never touched.
struct CoreDataRecordWriter {
  let database: SQLiteDatabase
  let schema: CoreDataSchema
  let entity: CoreDataEntityLayout
  let location: SourceLocation
  /// Where files of external-storage values are put until the store is in place.
  let stagingFolder: URL
  /// Write rows without their relationships, which ``link(_:newRows:)`` sets afterwards.
  var deferLinks = false
  /// Whether the records are a deck's notes (``AppRecords/valuesAreNoteText``), which a profile
  /// maps onto an entity's properties, rather than records another storage holds.
  var recordsAreNotes = false
  /// The store's own external-data folder, where the files of the values an update replaces are.
  var externalDataFolder: URL?
  /// Where the objects of a migrated store went (source object URI → row of this store).
  var remapped: [String: CoreDataReferenceResolver.Target] = [:]

  /// One record to write: a new row, or new content for the row `primaryKey`.
  struct Change {
    var label: String
    var record: AppRecord
    var primaryKey: Int64?
  }

  /// What was written.
  struct Result {
    /// The key of each change's row, in order.
    var primaryKeys: [Int64] = []
    /// The attributes and composites each row must read back as.
    var expected: [AppRecord] = []
    /// Relationship links made: row key → relationship → the keys of its targets, in order.
    var links: [Int64: [String: [Int64]]] = [:]
    /// Names of the files written to the staging folder.
    var externalFiles: [String] = []
    /// Names of files in the store's external-data folder whose values an update replaced;
    /// nothing names them once the new store is in place.
    var replacedExternalFiles: [String] = []
    var warnings: [Diagnostic] = []
  }

  /// Writes `changes` (call inside a transaction).
  func write(_ changes: [Change], dates: JSONDateEncoding) throws -> Result {
    let tableLocation = location.table(entity.table)
    if entity.isAbstract {
      let concrete = schema.entities.filter { $0.superentityNumber == entity.entityNumber }.map(\.name)
      throw DeckError(
        .invalidRequest, at: tableLocation,
        "the entity \(entity.name) is abstract: Core Data keeps no rows of it; write into one of its subentities (\(concrete.joined(separator: ", ")))"
      )
    }
    let resolver = self.resolver
    var next: Int64? = try nextPrimaryKey()
    var result = Result()
    var lastInserted: Int64?
    for change in changes {
      var row = try rowValues(change.record, label: change.label, dates: dates, warnings: &result.warnings)
      let primaryKey: Int64
      if let existing = change.primaryKey {
        primaryKey = existing
        try keepUnchangedExternalFiles(&row, primaryKey: existing, replaced: &result.replacedExternalFiles)
        try update(row: row, primaryKey: existing, label: change.label)
      } else {
        guard let key = next else {
          throw DeckError(
            .corrupt, at: location.table("Z_PRIMARYKEY"),
            "the entity \(entity.rootName)'s keys reach the largest key; no key is left for \(change.label)")
        }
        primaryKey = key
        lastInserted = key
        let (following, overflow) = key.addingReportingOverflow(1)
        next = overflow ? nil : following
        var links: [String: [Int64]] = [:]
        try insert(
          row: &row, primaryKey: primaryKey, label: change.label, resolver: resolver, links: &links,
          warnings: &result.warnings)
        if !links.isEmpty { result.links[primaryKey] = links }
      }
      if !deferLinks {
        var links = result.links[primaryKey] ?? [:]
        if change.primaryKey != nil {
          try linkForeignKeys(
            row.toOne, primaryKey: primaryKey, label: change.label, resolver: resolver, links: &links,
            warnings: &result.warnings)
        }
        // An updated row's record is the row's whole new content: a to-many it has no key for
        // was emptied.
        try linkToMany(
          change.record, primaryKey: primaryKey, label: change.label, resolver: resolver, links: &links,
          absentIsEmpty: change.primaryKey != nil, warnings: &result.warnings)
        result.links[primaryKey] = links
      }
      for (name, _) in row.files { result.externalFiles.append(name) }
      try writeFiles(row.files)
      result.primaryKeys.append(primaryKey)
      result.expected.append(row.expected)
    }
    if let lastInserted {
      let update = try database.prepare(
        "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX < ?", table: "Z_PRIMARYKEY")
      update.bind(1, int64: lastInserted)
      update.bind(2, int64: entity.rootNumber)
      update.bind(3, int64: lastInserted)
      _ = try update.step()
    }
    return result
  }

  /// Sets the relationships of rows already written, those each change's record has a key for
  /// (a whole-store migration's second pass, once every entity's rows exist). A required to-one
  /// whose reference finds no target is refused; one the record leaves empty stays empty, with
  /// a warning for a row in `newRows`.
  func link(_ changes: [Change], newRows: Set<Int64>) throws -> Result {
    let resolver = self.resolver
    var result = Result()
    for change in changes {
      guard let primaryKey = change.primaryKey else { continue }
      var toOne: [(relationship: CoreDataEntityLayout.Relationship, reference: CoreDataReference?)] = []
      for relationship in entity.relationships where !relationship.model.isToMany {
        guard case .foreignKey = relationship.storage else { continue }
        guard let value = change.record[relationship.key], !value.isNull else {
          let required = !relationship.model.isOptional || relationship.model.minCount > 0
          if required, newRows.contains(primaryKey) {
            // The source holds the row so; Core Data checks required values only when the app saves that object.
            result.warnings.append(
              Diagnostic(
                .requiredLinkEmpty,
                at: location.table(entity.table).item("\(change.label), relationship '\(relationship.key)'"),
                "the model requires \(relationship.key), but the source row has none; the copy has none either"))
          }
          continue
        }
        toOne.append((relationship, try reference(value, relationship: relationship, label: change.label)))
      }
      var links: [String: [Int64]] = [:]
      try linkForeignKeys(
        toOne, primaryKey: primaryKey, label: change.label, resolver: resolver, links: &links,
        warnings: &result.warnings)
      try linkToMany(
        change.record, primaryKey: primaryKey, label: change.label, resolver: resolver, links: &links,
        warnings: &result.warnings)
      result.primaryKeys.append(primaryKey)
      result.links[primaryKey] = links
    }
    return result
  }

  /// The keys of the rows `record`'s relationships name in this store (those it has a key for),
  /// as ``link(_:newRows:)`` would set them; a reference that finds no row is left out, with a
  /// warning naming it.
  func targets(of record: AppRecord, label: String, warnings: inout [Diagnostic]) throws -> [String: [Int64]] {
    let resolver = self.resolver
    var targets: [String: [Int64]] = [:]
    for relationship in entity.relationships {
      guard let value = record[relationship.key] else { continue }
      let items: [AppValue]
      if relationship.model.isToMany {
        guard case .array(let array) = value else { continue }
        items = array
      } else {
        items = value.isNull ? [] : [value]
      }
      targets[relationship.key] = try items.compactMap { item in
        guard let reference = try reference(item, relationship: relationship, label: label) else { return nil }
        return try resolved(reference, relationship, label: label, resolver: resolver, warnings: &warnings)?.primaryKey
      }
    }
    return targets
  }

  /// The reference a relationship value holds (nil for null), or an error naming the record.
  private func reference(_ value: AppValue, relationship: CoreDataEntityLayout.Relationship, label: String) throws
    -> CoreDataReference?
  {
    if value.isNull { return nil }
    guard let reference = CoreDataReference(value) else {
      throw DeckError(
        .invalidRequest, at: location.table(entity.table).item("\(label), relationship '\(relationship.key)'"),
        "the relationship \(relationship.key) takes a reference (an object with entity and uri), not \(value)")
    }
    return reference
  }

  /// Finds link targets in this store, through ``remapped`` first.
  private var resolver: CoreDataReferenceResolver {
    var resolver = CoreDataReferenceResolver(database: database, schema: schema)
    resolver.remapped = remapped
    return resolver
  }

  /// The next key of the hierarchy: one above the root's `Z_MAX` and the table's largest key.
  private func nextPrimaryKey() throws -> Int64 {
    let maximum = try database.prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", table: "Z_PRIMARYKEY")
    maximum.bind(1, int64: entity.rootNumber)
    let rootMaximum = try maximum.step() ? maximum.int64(0) : 0
    let largest = try database.prepare("SELECT max(Z_PK) FROM \(quoted(entity.table))", table: entity.table)
    _ = try largest.step()
    let (sum, overflow) = max(rootMaximum, largest.int64(0)).addingReportingOverflow(1)
    guard !overflow else {
      throw DeckError(
        .corrupt, at: location.table("Z_PRIMARYKEY"),
        "the entity \(entity.rootName)'s Z_MAX is at the largest key; no key is left")
    }
    return sum
  }

  /// The values of one row: every attribute and composite-element column, the to-one
  /// references, the files of external-storage values, and what the row reads back as.
  private struct Row {
    var cells: [(column: String, value: SQLiteValue)] = []
    var toOne: [(relationship: CoreDataEntityLayout.Relationship, reference: CoreDataReference?)] = []
    var files: [(name: String, data: Data)] = []
    var expected = AppRecord()
  }

  private func rowValues(_ record: AppRecord, label: String, dates: JSONDateEncoding, warnings: inout [Diagnostic])
    throws -> Row
  {
    let known = Set(entity.members.map(\.key))
    for field in record where !known.contains(field.key) {
      throw DeckError(
        .invalidRequest, at: location.table(entity.table).item("\(label), key '\(field.key)'"),
        recordsAreNotes
          ? "the entity \(entity.name) has no property for this key (its properties: \(entity.members.map(\.key).joined(separator: ", "))); a deck whose fields are not these goes in through the profile that maps them: name it with \(setting: .recordProfile)"
          : "the entity \(entity.name) has no property for this key (its properties: \(entity.members.map(\.key).joined(separator: ", "))), so the records do not fit it; write them into storage of their own keys (a JSON file, a plist, deckport's SQLite)"
      )
    }
    var row = Row()
    for member in entity.members {
      let here = location.table(entity.table).item("\(label), key '\(member.key)'")
      switch member {
      case .attribute(let column) where column.attribute?.isDerived == true:
        continue  // the store's triggers compute it
      case .attribute(let column):
        let value = try attributeValue(
          record[column.key] ?? .null, column: column, record: record, label: label, at: here, dates: dates,
          warnings: &warnings)
        append(value, column: column, to: &row)
        if !value.isNull { row.expected.append(.init(key: column.key, value: value)) }
      case .composite(let composite):
        let object: AppRecord
        switch record[composite.key] {
        case .object(let given)?: object = given
        case nil, .null?:
          guard composite.isOptional else {
            throw DeckError(
              .invalidRequest, at: here, "the entity \(entity.name) requires \(composite.key), which the record lacks")
          }
          object = AppRecord()
        case let other?:
          throw DeckError(
            .invalidRequest, at: here,
            "the composite attribute \(composite.key) takes an object of its elements, not \(other)")
        }
        let elementNames = Set(composite.elements.map(\.key))
        if let stray = object.first(where: { !elementNames.contains($0.key) }) {
          throw DeckError(
            .invalidRequest, at: here,
            "the composite attribute \(composite.key) has no element \(stray.key) (its elements: \(composite.elements.map(\.key).joined(separator: ", ")))"
          )
        }
        var expectedObject = AppRecord()
        for element in composite.elements {
          let value = try convert(object[element.key] ?? .null, column: element, at: here)
          append(value, column: element, to: &row)
          if !value.isNull { expectedObject.append(.init(key: element.key, value: value)) }
        }
        if !expectedObject.isEmpty {
          row.expected.append(.init(key: composite.key, value: .object(expectedObject)))
        }
      case .relationship(let relationship):
        guard !relationship.model.isToMany, case .foreignKey = relationship.storage else { continue }
        row.toOne.append(
          (relationship, try reference(record[relationship.key] ?? .null, relationship: relationship, label: label)))
      }
    }
    return row
  }

  private func attributeValue(
    _ given: AppValue, column: CoreDataEntityLayout.Column, record: AppRecord, label: String, at here: SourceLocation,
    dates: JSONDateEncoding, warnings: inout [Diagnostic]
  ) throws -> AppValue {
    let value = try convert(given, column: column, at: here, dates: dates)
    guard value.isNull, let attribute = column.attribute, !attribute.isOptional else { return value }
    if column.type == .uuid {
      let uuid = CoreDataValueEncoding.derivedUUID(for: record, entity: entity.name)
      warnings.append(
        Diagnostic(
          .generatedUUID, at: here,
          "the record has no \(column.key); it gets \(uuid.uuidString), derived from its content so the same record always gets the same UUID"
        ))
      return .uuid(uuid)
    }
    if let fallback = attribute.defaultValue,
      let converted = CoreDataValueEncoding.convert(fallback, to: column.type, dates: dates)
    {
      warnings.append(
        Diagnostic(
          .defaultValue, at: here, "the record has no \(column.key); it gets the model's default \(fallback)"))
      return converted
    }
    throw DeckError(
      .invalidRequest, at: here,
      "the entity \(entity.name) requires \(column.key), which the record lacks, and the model gives no default")
  }

  private func convert(
    _ value: AppValue, column: CoreDataEntityLayout.Column, at here: SourceLocation,
    dates: JSONDateEncoding = .secondsSince2001
  )
    throws -> AppValue
  {
    guard let converted = CoreDataValueEncoding.convert(value, to: column.type, dates: dates) else {
      if let problem = CoreDataValueEncoding.precisionProblem(value, column: column) {
        throw DeckError(.invalidRequest, at: here, problem)
      }
      throw DeckError(
        .invalidRequest, at: here,
        "the attribute \(column.key) (\(column.type.valueType.rawValue)) cannot hold \(value)")
    }
    if let problem = CoreDataValueEncoding.rangeProblem(converted, column: column) {
      throw DeckError(.invalidRequest, at: here, problem)
    }
    return converted
  }

  private func append(_ value: AppValue, column: CoreDataEntityLayout.Column, to row: inout Row) {
    switch CoreDataValueEncoding.stored(value, column: column) {
    case .cell(let cell): row.cells.append((column.column, cell))
    case .file(let blob, let name, let data):
      row.cells.append((column.column, .blob(blob)))
      row.files.append((name, data))
    }
  }

  private func insert(
    row: inout Row, primaryKey: Int64, label: String, resolver: CoreDataReferenceResolver,
    links: inout [String: [Int64]],
    warnings: inout [Diagnostic]
  ) throws {
    var cells: [(String, SQLiteValue)] = [
      ("Z_PK", .integer(primaryKey)), ("Z_ENT", .integer(entity.entityNumber)), ("Z_OPT", .integer(1)),
    ]
    cells += row.cells
    if !deferLinks {
      cells += try foreignKeyCells(row.toOne, label: label, resolver: resolver, links: &links, warnings: &warnings)
    }
    let statement = try database.prepare(
      "INSERT INTO \(quoted(entity.table)) (\(cells.map { quoted($0.0) }.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: cells.count).joined(separator: ", ")))",
      table: entity.table)
    for (index, cell) in cells.enumerated() { statement.bind(Int32(index + 1), cell.1) }
    try step(statement, label: label)
    row.toOne = []
  }

  /// For an updated row: an external-storage value whose file already holds the same bytes
  /// keeps its file (and blob); a file whose value changes is noted as replaced.
  private func keepUnchangedExternalFiles(_ row: inout Row, primaryKey: Int64, replaced: inout [String]) throws {
    let external = Set(entity.columns.filter { $0.type == .data(external: true) }.map(\.column))
    for index in row.cells.indices where external.contains(row.cells[index].column) {
      let column = row.cells[index].column
      let statement = try database.prepare(
        "SELECT \(quoted(column)) FROM \(quoted(entity.table)) WHERE Z_PK = ?", table: entity.table)
      statement.bind(1, int64: primaryKey)
      guard try statement.step(), statement.columnType(0) == .blob,
        case .file(let oldName) = CoreDataExternalStorage.decode(statement.blob(0))
      else { continue }
      let newName: String? =
        if case .blob(let blob) = row.cells[index].value, case .file(let name) = CoreDataExternalStorage.decode(blob) {
          name
        } else { nil }
      let newData = newName.flatMap { name in row.files.first { $0.name == name }?.data }
      if let newName, let newData, let folder = externalDataFolder,
        let oldData = try? Data(contentsOf: folder.appendingPathComponent(oldName)), oldData == newData
      {
        row.cells[index].value = .blob(statement.blob(0))
        row.files.removeAll { $0.name == newName }
      } else {
        replaced.append(oldName)
      }
    }
  }

  private func update(row: Row, primaryKey: Int64, label: String) throws {
    let assignments = row.cells.map { "\(quoted($0.column)) = ?" } + ["Z_OPT = Z_OPT + 1"]
    let statement = try database.prepare(
      "UPDATE \(quoted(entity.table)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_ENT = ?",
      table: entity.table)
    for (index, cell) in row.cells.enumerated() { statement.bind(Int32(index + 1), cell.value) }
    statement.bind(Int32(row.cells.count + 1), int64: primaryKey)
    statement.bind(Int32(row.cells.count + 2), int64: entity.entityNumber)
    try step(statement, label: label)
  }

  /// The foreign-key cells of to-one relationships (NULL where the target does not resolve).
  private func foreignKeyCells(
    _ toOne: [(relationship: CoreDataEntityLayout.Relationship, reference: CoreDataReference?)], label: String,
    resolver: CoreDataReferenceResolver, links: inout [String: [Int64]], warnings: inout [Diagnostic]
  ) throws -> [(String, SQLiteValue)] {
    var cells: [(String, SQLiteValue)] = []
    for (relationship, reference) in toOne {
      guard case .foreignKey(let column, let entityColumn) = relationship.storage else { continue }
      let target = try reference.flatMap { reference in
        try resolved(reference, relationship, label: label, resolver: resolver, warnings: &warnings)
      }
      if target == nil, !relationship.model.isOptional || relationship.model.minCount > 0 {
        throw DeckError(
          .invalidRequest, at: location.table(entity.table).item("\(label), relationship '\(relationship.key)'"),
          "the entity \(entity.name) requires \(relationship.key), and no \(relationship.model.destination) in this store matches the record's reference"
        )
      }
      cells.append((column, target.map { .integer($0.primaryKey) } ?? .null))
      links[relationship.key] = target.map { [$0.primaryKey] } ?? []
      if let entityColumn { cells.append((entityColumn, target.map { .integer($0.entityNumber) } ?? .null)) }
    }
    return cells
  }

  /// For a row already in the table: set the to-one columns given.
  private func linkForeignKeys(
    _ toOne: [(relationship: CoreDataEntityLayout.Relationship, reference: CoreDataReference?)], primaryKey: Int64,
    label: String,
    resolver: CoreDataReferenceResolver, links: inout [String: [Int64]], warnings: inout [Diagnostic]
  ) throws {
    let cells = try foreignKeyCells(toOne, label: label, resolver: resolver, links: &links, warnings: &warnings)
    guard !cells.isEmpty else { return }
    let statement = try database.prepare(
      "UPDATE \(quoted(entity.table)) SET \(cells.map { "\(quoted($0.0)) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?",
      table: entity.table)
    for (index, cell) in cells.enumerated() { statement.bind(Int32(index + 1), cell.1) }
    statement.bind(Int32(cells.count + 1), int64: primaryKey)
    try step(statement, label: label)
  }

  /// Links the record's to-many relationships (those it has a key for, or every one when
  /// `absentIsEmpty`: an updated row whose record has no links left) to the targets it lists,
  /// and only those, and notes every target.
  private func linkToMany(
    _ record: AppRecord, primaryKey: Int64, label: String, resolver: CoreDataReferenceResolver,
    links: inout [String: [Int64]], absentIsEmpty: Bool = false,
    warnings: inout [Diagnostic]
  ) throws {
    for relationship in entity.relationships where relationship.model.isToMany {
      let given = record[relationship.key].flatMap { $0.isNull ? nil : $0 }
      guard let value = given ?? (absentIsEmpty ? .array([]) : nil) else { continue }
      let here = location.table(entity.table).item("\(label), relationship '\(relationship.key)'")
      guard case .array(let items) = value else {
        throw DeckError(
          .invalidRequest, at: here,
          "the to-many relationship \(relationship.key) takes an array of references, not \(value)")
      }
      var targets: [Int64] = []
      for item in items {
        guard let reference = CoreDataReference(item) else {
          throw DeckError(
            .invalidRequest, at: here,
            "the relationship \(relationship.key) takes references (objects with entity and uri), not \(item)")
        }
        if let target = try resolved(reference, relationship, label: label, resolver: resolver, warnings: &warnings) {
          targets.append(target.primaryKey)
        }
      }
      switch relationship.storage {
      case .destinationColumn(let column, let order, let entityColumn, let inverseRequired):
        try unlinkOthers(
          than: targets, from: relationship, column: column, order: order, entityColumn: entityColumn,
          inverseRequired: inverseRequired, primaryKey: primaryKey, label: label, at: here)
        let current = try database.prepare(
          "SELECT \(quoted(column)) FROM \(quoted(relationship.destinationTable)) WHERE Z_PK = ?",
          table: relationship.destinationTable)
        for target in targets {
          current.reset()
          current.bind(1, int64: target)
          if try current.step(), current.columnType(0) != .null, current.int64(0) != primaryKey {
            warnings.append(
              Diagnostic(
                .relationshipMoved, at: here,
                "\(relationship.model.destination) Z_PK \(target) belonged to the row Z_PK \(current.int64(0)); each \(relationship.model.destination) belongs to one \(entity.name) at a time, so it now belongs to this record"
              ))
          }
        }
        for (index, target) in targets.enumerated() {
          // A target already linked here, in its place, is left as it is (its Z_OPT too).
          let kept =
            [(column, "?1")] + (entityColumn.map { [($0, String(entity.entityNumber))] } ?? [])
            + (order.map { [($0, String(index))] } ?? [])
          let assignments = kept.map { "\(quoted($0.0)) = \($0.1)" } + ["Z_OPT = Z_OPT + 1"]
          let differs = kept.map { "\(quoted($0.0)) IS NOT \($0.1)" }
          let statement = try database.prepare(
            "UPDATE \(quoted(relationship.destinationTable)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?2 AND (\(differs.joined(separator: " OR ")))",
            table: relationship.destinationTable)
          statement.bind(1, int64: primaryKey)
          statement.bind(2, int64: target)
          try step(statement, label: label)
        }
      case .joinTable(let table, let own, let destination, let order):
        // Pairs are kept, added or removed one by one, so linking the other side of a
        // many-to-many leaves the order this side's column keeps.
        let held = try database.prepare(
          "SELECT \(quoted(destination)) FROM \(quoted(table)) WHERE \(quoted(own)) = ?", table: table)
        held.bind(1, int64: primaryKey)
        var existing: Set<Int64> = []
        while try held.step() { existing.insert(held.int64(0)) }
        let wanted = Set(targets)
        for stale in existing.subtracting(wanted).sorted() {
          let remove = try database.prepare(
            "DELETE FROM \(quoted(table)) WHERE \(quoted(own)) = ? AND \(quoted(destination)) = ?", table: table)
          remove.bind(1, int64: primaryKey)
          remove.bind(2, int64: stale)
          try step(remove, label: label)
        }
        for (index, target) in targets.enumerated() {
          let statement: SQLiteStatement
          if existing.contains(target) {
            guard let order else { continue }
            statement = try database.prepare(
              "UPDATE \(quoted(table)) SET \(quoted(order)) = \(index) WHERE \(quoted(own)) = ? AND \(quoted(destination)) = ?",
              table: table)
          } else {
            let columns = [own, destination] + (order.map { [$0] } ?? [])
            statement = try database.prepare(
              "INSERT OR IGNORE INTO \(quoted(table)) (\(columns.map(quoted).joined(separator: ", "))) VALUES (?, ?\(order == nil ? "" : ", \(index)"))",
              table: table)
            existing.insert(target)
          }
          statement.bind(1, int64: primaryKey)
          statement.bind(2, int64: target)
          try step(statement, label: label)
        }
      case .foreignKey, .missing:
        continue
      }
      links[relationship.key] = targets
    }
  }

  /// Takes from the row `primaryKey` the targets of a to-many kept in the destination's `column`
  /// that `targets` does not list: their column (with its entity number and order) is emptied,
  /// as Core Data's save empties an inverse. Refused when the inverse to-one is required, since
  /// such a target cannot be without this row.
  private func unlinkOthers(
    than targets: [Int64], from relationship: CoreDataEntityLayout.Relationship, column: String, order: String?,
    entityColumn: String?, inverseRequired: Bool, primaryKey: Int64, label: String, at here: SourceLocation
  ) throws {
    let table = relationship.destinationTable
    let linked = try database.prepare(
      "SELECT Z_PK FROM \(quoted(table)) WHERE \(quoted(column)) = ? ORDER BY Z_PK", table: table)
    linked.bind(1, int64: primaryKey)
    let wanted = Set(targets)
    var leaving: [Int64] = []
    while try linked.step() {
      let target = linked.int64(0)
      if !wanted.contains(target) { leaving.append(target) }
    }
    guard let first = leaving.first else { return }
    if inverseRequired {
      throw DeckError(
        .invalidRequest, at: here,
        "\(relationship.model.destination) Z_PK \(first) is linked to this record, and the model requires its \(relationship.model.inverse ?? "inverse"); the record must keep it in \(relationship.key)"
      )
    }
    let emptied = ([column] + (entityColumn.map { [$0] } ?? []) + (order.map { [$0] } ?? [])).map {
      "\(quoted($0)) = NULL"
    }
    let unlink = try database.prepare(
      "UPDATE \(quoted(table)) SET \((emptied + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")) WHERE Z_PK = ?",
      table: table)
    for target in leaving {
      unlink.reset()
      unlink.bind(1, int64: target)
      try step(unlink, label: label)
    }
  }

  /// The target of a reference in this store, or nil with a warning naming the dropped link.
  private func resolved(
    _ reference: CoreDataReference, _ relationship: CoreDataEntityLayout.Relationship, label: String,
    resolver: CoreDataReferenceResolver, warnings: inout [Diagnostic]
  ) throws -> CoreDataReferenceResolver.Target? {
    if let target = try resolver.resolve(reference, destination: relationship.model.destination) { return target }
    warnings.append(
      Diagnostic(
        .relationshipDropped, at: location.table(entity.table).item("\(label), relationship '\(relationship.key)'"),
        "the link to \(reference.uri) is dropped: no \(relationship.model.destination) in this store is that object\(reference.unique == nil ? "" : " or has its unique values")"
      ))
    return nil
  }

  private func writeFiles(_ files: [(name: String, data: Data)]) throws {
    guard !files.isEmpty else { return }
    do {
      try FileManager.default.createDirectory(at: stagingFolder, withIntermediateDirectories: true)
      for file in files { try file.data.write(to: stagingFolder.appendingPathComponent(file.name)) }
    } catch {
      throw DeckError(
        .writeFailed, at: location, "cannot write an external-storage file (\(error.localizedDescription))")
    }
  }

  private func step(_ statement: SQLiteStatement, label: String) throws {
    do {
      _ = try statement.step()
    } catch let error as DeckError {
      throw DeckError(error.kind, at: location.table(entity.table), "\(label): \(error.wording)" as DeckMessage)
    }
  }

  private func quoted(_ name: String) -> String { SQLiteRecordSchema.quoted(name) }
}
