import DeckCore
import DeckIO
import Foundation
import PlistCodec

/// Reads app records from any storage kind: a plist, a JSON file, deckport's SQLite schema, or a
/// Core Data/SwiftData store. SQLite files are read from a private copy (with their `-wal` and
/// `-shm`), never opened in place; a store another process holds locked is refused.
///
/// ```swift
/// let content = try AppStorageReader().read(path: "com.example.Flashzilla.plist", options: .init(key: "Cards"))
/// for card in content.records.records { print(card["prompt"] ?? .null) }
/// ```
package struct AppStorageReader: Sendable {
  /// Creates a reader.
  package init() {}

  /// Reads the records at `path` (of `kind`, or the kind its content or extension shows).
  ///
  /// - Throws: ``DeckError`` naming the file, the key, table or entity, and the record, for: a
  ///   file that is not the kind it claims to be, a key or record type that holds no records,
  ///   JSON that does not decode, an SQLite file of an unknown layout, a store locked by a running
  ///   app, records that do not fit a named profile.
  package func read(
    path namedPath: String, kind: AppStorageKind? = nil, options: AppStorageOptions = AppStorageOptions()
  )
    throws -> AppStorageContent
  {
    // Through a link, the file it leads to, with a store's external-storage folder beside it.
    let path = FileManager.default.linkTarget(ofPath: namedPath)
    let location = SourceLocation(file: path)
    let kind = try kind ?? AppStorageKind.detect(path: path)
    var content: AppStorageContent
    switch kind {
    case .plist:
      let found = try PlistRecordReader(location: location).read(
        try Self.contents(of: path), key: options.key, keyOnlyWhereKeyed: options.keyOnlyWhereKeyed)
      let keyPlace = found.key.map { "key '\($0)'" } ?? "the top-level array"
      content = AppStorageContent(
        kind: kind, records: found.records,
        place: "\(keyPlace) (\(found.form.description) in \(found.document.format.phrase))")
      content.holdsDataAsText = found.form.isJSON
    case .jsonFile:
      let file = JSONRecordFile(location: location)
      let found = try file.read(
        try file.document(), key: options.key, keyOnlyWhereKeyed: options.keyOnlyWhereKeyed, profile: options.profile)
      content = AppStorageContent(
        kind: kind, records: found.records, place: found.key.map { "key '\($0)'" } ?? "the top-level array")
      content.holdsDataAsText = true
    case .sqlite:
      let snapshot = try SQLiteSnapshot(of: path, location: location)
      let database = try snapshot.open(location: location)
      try Self.requireLayout(.deckport, of: database, location: location)
      let reader = SQLiteRecordReader(database: database, location: location)
      let records = try reader.read(recordType: options.entity)
      let warnings = try reader.unlistedColumnsWarning(ofRecordType: records.name).map { [$0] } ?? []
      content = AppStorageContent(
        kind: kind, records: records, place: "record type '\(records.name)'", warnings: warnings)
    case .coreData:
      let snapshot = try SQLiteSnapshot(of: path, location: location)
      let database = try snapshot.open(location: location)
      try Self.requireLayout(.coreData, of: database, location: location)
      let schema = try CoreDataSchema(database: database, location: location)
      let entity = try schema.entity(Self.entityName(options, schema: schema), location: location)
      let (records, warnings) = try CoreDataRecordReader(
        database: database, schema: schema, originalPath: path, location: location
      ).read(entity)
      content = AppStorageContent(
        kind: kind, records: records, place: "entity \(entity.name) (table \(entity.table))", warnings: warnings)
    }
    let untyped = content.records
    content.records = try Self.applyProfile(options, to: content.records, location: location.item(content.place))
    if options.jsonDates == nil,
      let mixed = content.records.profile?.mixedDateEncodingWarning(
        in: untyped, chosen: content.records.jsonDates, at: location.item(content.place))
    {
      content.warnings.append(mixed)
    }
    if let repeated = content.records.repeatedIdentityWarning(at: location.item(content.place)) {
      content.warnings.append(repeated)
    }
    return content
  }

  /// The record types at `path`: each plist key holding records, a JSON file's array, each
  /// record type of deckport's SQLite schema, each entity of a Core Data store.
  package func recordTypes(path namedPath: String, kind: AppStorageKind? = nil) throws -> [AppRecordTypeSummary] {
    let path = FileManager.default.linkTarget(ofPath: namedPath)
    let location = SourceLocation(file: path)
    let kind = try kind ?? AppStorageKind.detect(path: path)
    switch kind {
    case .plist:
      let document = try PlistRecordReader.document(try Self.contents(of: path), location: location)
      guard case .dictionary(let dictionary) = document.root else {
        return [try summary(read(path: path, kind: kind))]
      }
      return try PlistRecordReader.keysHoldingRecords(dictionary).map { key in
        try summary(read(path: path, kind: kind, options: AppStorageOptions(key: key)))
      }
    case .jsonFile:
      return [try summary(read(path: path, kind: kind))]
    case .sqlite:
      let snapshot = try SQLiteSnapshot(of: path, location: location)
      let database = try snapshot.open(location: location)
      try Self.requireLayout(.deckport, of: database, location: location)
      let reader = SQLiteRecordReader(database: database, location: location)
      return try reader.recordTypes().map { type in
        let records = try reader.read(recordType: type.name)
        return AppRecordTypeSummary(
          name: type.name, count: records.records.count, fields: records.shape.fields, profile: records.profile,
          detail: "table \(type.table)")
      }
    case .coreData:
      let snapshot = try SQLiteSnapshot(of: path, location: location)
      let database = try snapshot.open(location: location)
      try Self.requireLayout(.coreData, of: database, location: location)
      let schema = try CoreDataSchema(database: database, location: location)
      let reader = CoreDataRecordReader(database: database, schema: schema, originalPath: path, location: location)
      return try schema.entities.map { entity in
        var detail = "table \(entity.table), Z_ENT \(entity.entityNumber), Z_MAX \(entity.maximumPrimaryKey)"
        if entity.isAbstract { detail += ", abstract" }
        if entity.superentityNumber != 0, let parent = schema.entity(number: entity.superentityNumber) {
          detail += ", subentity of \(parent.name)"
        }
        if !entity.relationships.isEmpty {
          detail +=
            "; relationships: "
            + entity.relationships.map {
              "\($0.key) (\($0.model.isToMany ? "to-many" : "to-one") \($0.model.destination))"
            }
            .joined(separator: ", ")
        }
        if schema.model == nil { detail += "; no model cache: names and types from the columns" }
        let records = try Self.applyProfile(AppStorageOptions(), to: try reader.read(entity).0, location: location)
        return AppRecordTypeSummary(
          name: entity.name, count: try reader.count(entity), fields: records.shape.fields,
          profile: records.profile, detail: detail)
      }
    }
  }

  private func summary(_ content: AppStorageContent) -> AppRecordTypeSummary {
    AppRecordTypeSummary(
      name: content.records.name, count: content.records.records.count, fields: content.records.shape.fields,
      profile: content.records.profile, detail: content.place)
  }

  /// The whole file, or an error naming it.
  static func contents(of path: String) throws -> Data {
    let location = SourceLocation(file: path)
    guard FileManager.default.fileExists(atPath: path) else {
      throw DeckError(.unreadableFile, at: location, "no such file")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(error.localizedDescription))")
    }
  }

  /// Refuses a database whose layout is not `expected`.
  static func requireLayout(_ expected: SQLiteLayout, of database: SQLiteDatabase, location: SourceLocation) throws {
    let layout = try SQLiteLayout.detect(database, location: location)
    guard layout != expected else { return }
    switch layout {
    case .coreData:
      throw DeckError(
        .wrongFormat, at: location, "a Core Data/SwiftData store, not deckport's SQLite schema; read it as a store")
    case .deckport:
      throw DeckError(
        .wrongFormat, at: location, "an SQLite file in deckport's app-records schema, not a Core Data/SwiftData store")
    case .empty:
      throw DeckError(.missingPart, at: location, "the SQLite database holds no tables, so no records")
    }
  }

  /// The entity to read: the named one, else the only one, else the profile's record type.
  static func entityName(_ options: AppStorageOptions, schema: CoreDataSchema) -> String? {
    if let entity = options.entity { return entity }
    if schema.entities.count != 1, case .named(let profile) = options.profile,
      let name = profile.recordTypeNames.first(where: { name in schema.entities.contains { $0.name == name } })
    {
      return name
    }
    return nil
  }

  /// The profile `choice` types records with these keys by: the named one, the built-in one they
  /// fit, or none. Only the records' keys count, so a reader can tell before it reads the values.
  static func profile(_ choice: AppProfileChoice, forRecordsKeyed records: [AppRecord]) -> AppRecordProfile? {
    switch choice {
    case .generic: nil
    case .automatic: AppRecordProfile.detect(in: records)
    case .named(let profile): profile
    }
  }

  /// The records typed by the chosen profile.
  static func applyProfile(_ options: AppStorageOptions, to records: AppRecords, location: SourceLocation) throws
    -> AppRecords
  {
    var records = records
    if let dates = options.jsonDates { records.jsonDates = dates }
    switch options.profile {
    case .generic:
      records.profile = nil
      return records
    case .automatic:
      guard let profile = records.profile ?? profile(.automatic, forRecordsKeyed: records.records) else {
        return records
      }
      return profile.apply(to: records, dates: options.jsonDates)
    case .named(let profile):
      if let index = records.records.firstIndex(where: { !profile.fits($0) }) {
        let needed = profile.fields.filter { $0.required && !$0.mayBeMissing }.map(\.key)
        throw DeckError(
          .invalidRequest, at: location.item(records.label(ofRecord: index)),
          "does not fit the profile \(profile.title): its keys are \(records.records[index].keys.joined(separator: ", ")); the profile's are \(profile.keys.joined(separator: ", "))\(needed.isEmpty ? "" : " (required: \(needed.joined(separator: ", ")))")"
        )
      }
      return profile.apply(to: records, dates: options.jsonDates)
    }
  }
}
