import DeckCore
import DeckIO
import Foundation

/// Fills an entity of a Core Data/SwiftData store the app created: a copy of the store (with
/// its `-wal` and `-shm`) gets the new and updated rows in one transaction, is checked with
/// `PRAGMA integrity_check`, and its `-wal` is folded into the main file. Files of large
/// external-storage values wait in a staging folder and join the store's `_EXTERNAL_DATA` folder
/// just before the store is put in place. Stores that sync with CloudKit are refused: rows
/// written outside the app are never uploaded and may be overwritten.
struct CoreDataFileWriter: StorageFileWriter {
  private(set) var place: String
  private(set) var warnings: [Diagnostic]
  private let records: AppRecords
  private let plan: AppRecordMergePlan
  private let destination: String
  private let location: SourceLocation
  private let entity: CoreDataEntityLayout
  private let countBefore: Int
  private let metadataBefore: [Data]
  private let staging: TemporaryDirectory
  private var written: CoreDataRecordWriter.Result?

  init(records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions, matching: AppRecordMatching)
    throws
  {
    location = SourceLocation(file: destination)
    try CoreDataStoreEdit.requireExisting(exists, location: location)
    self.destination = destination
    let location = location
    var dates = records.jsonDates
    (entity, countBefore, plan, metadataBefore, warnings) = try CoreDataStoreEdit.inspect(
      destination, location: location
    ) {
      database, schema in
      let names = schema.entities.map(\.name)
      let wanted =
        options.entity ?? ((records.profile?.recordTypeNames ?? []) + [records.name]).first(where: names.contains)
      let entity = try schema.entity(wanted, location: location)
      let reader = CoreDataRecordReader(
        database: database, schema: schema, originalPath: destination, location: location)
      let (existing, _) = try reader.read(entity)
      // A deck's note text is typed by the entity's model, and matched by its text. Derived
      // attributes are the store's (its triggers compute them): a record's own values of them
      // are neither written nor compared.
      let restoredKeys = NoteTextTyping.restoredKeys(for: entity.members.map(\.key))
      let derived = entity.derivedKeys
      func withoutDerived(_ record: AppRecord) -> AppRecord {
        derived.isEmpty ? record : AppRecord(fields: record.fields.filter { !derived.contains($0.key) })
      }
      let spelled = records.records.map { record in
        entity.spellingKeys(
          of: records.valuesAreNoteText ? NoteTextTyping.restoringKeys(of: record, by: restoredKeys) : record)
      }
      let targets = CoreDataNoteText.targets(for: entity)
      let guessed = Self.guessedDates(spelled, of: records, entity: entity, named: options.jsonDates, at: location)
      dates = guessed.dates
      let typedWithDerived = spelled.map { record in
        let values = records.valuesAreNoteText ? NoteTextTyping.values(of: record, targets: targets).record : record
        return CoreDataValueEncoding.typed(values, as: entity, dates: guessed.dates)
      }
      let typed = records.replacingRecords(typedWithDerived.map(withoutDerived))
      // A note made from one of the entity's rows goes back into that row, whatever was edited
      // (its GUID keeps the row's object URI), unless keys are named. Other records are the same
      // by the keys named, else by the profile's, else by the entity's uniqueness constraint, as
      // the app's own save would take them.
      let knownRows =
        matching.keys == nil
        ? NoteIdentity.rows(ofNotes: records.noteGUIDs ?? [], in: existing) : [:]
      var matching = matching
      if matching.keys == nil, records.profile?.identityKeys.isEmpty ?? true {
        matching.keys = entity.uniqueAttributes(in: schema.model)
      }
      let plan = try AppRecordMergePlan(
        existing: existing.records.map(withoutDerived), existingKeys: existing.primaryKeys ?? [], incoming: typed,
        matching: matching, location: location.item("entity \(entity.name)"),
        noteText: records.valuesAreNoteText
          ? NoteTextComparison(
            text: spelled.map(withoutDerived), keptWhenEmpty: CoreDataNoteText.keptWhenEmpty(in: entity),
            unorderedKeys: CoreDataNoteText.unorderedKeys(in: entity)) : nil,
        knownRows: knownRows)
      let derivedWarnings = Self.derivedValuesNotWritten(
        typedWithDerived, matched: plan.matchedExisting, existing: existing.records, keys: derived,
        at: location.item("entity \(entity.name)"))
      return (
        entity, try reader.count(entity), plan, try CoreDataStoreEdit.bookkeeping(database),
        schema.warnings + (guessed.mixed.map { [$0] } ?? []) + derivedWarnings
      )
    }
    var records = records
    records.jsonDates = dates
    self.records = records
    staging = try TemporaryDirectory(prefix: "deckport-external-")
    place = "entity \(entity.name) (table \(entity.table))"
  }

  /// The encoding of the numbers and text that `records` (keys spelled as the entity's) give
  /// its Date attributes: the one named (`--json-dates`), or the records' own when a profile or
  /// deckport's SQLite file typed their dates, else guessed from those values as a profile's
  /// JSON dates are (a JSON file of `1700000000123`s holds milliseconds since 1970, not seconds
  /// since 2001, which would put the dates 54,000 years ahead); with a `[dates-mixed]` warning
  /// when they fit no one encoding.
  private static func guessedDates(
    _ records: [AppRecord], of source: AppRecords, entity: CoreDataEntityLayout, named: JSONDateEncoding?,
    at location: SourceLocation
  ) -> (dates: JSONDateEncoding, mixed: Diagnostic?) {
    let typedBySource = source.profile.map { profile in profile.fields.contains { $0.type == .date } } ?? false
    guard named == nil, !typedBySource, !source.valuesAreNoteText else { return (named ?? source.jsonDates, nil) }
    let dateKeys = Set(entity.columns.filter { $0.type == .date }.map(\.key))
    let raw = records.flatMap { record in
      record.fields.filter { dateKeys.contains($0.key) }.map(\.value).filter {
        if case .date = $0 { false } else { true }
      }
    }
    guard !raw.isEmpty, let guess = JSONDateEncoding.guess(from: raw) else {
      let mixed = source.replacingRecords(records).mixedDateEncodingWarning(
        keys: Set(dateKeys.map { $0.lowercased() }), chosen: source.jsonDates,
        at: location.item("entity \(entity.name)"))
      return (source.jsonDates, mixed)
    }
    return (guess, nil)
  }

  /// One warning per derived attribute to which records give other values than the store holds
  /// (or any value, for a new record): the store computes them, so those are not written.
  private static func derivedValuesNotWritten(
    _ records: [AppRecord], matched: [Int?], existing: [AppRecord], keys: Set<String>, at location: SourceLocation
  ) -> [Diagnostic] {
    keys.sorted().compactMap { key in
      let differing = records.indices.filter { index in
        guard let value = records[index][key], !value.isNull else { return false }
        guard let held = matched[index] else { return true }
        return value.noteText != existing[held][key]?.noteText
      }
      guard !differing.isEmpty else { return nil }
      return Diagnostic(
        .derivedNotWritten, at: location.item("key '\(key)'"),
        "\(differing.count) record\(differing.count == 1 ? " gives" : "s give") \(key) a value the store does not hold; \(key) is a derived attribute, which the store's triggers compute, so the value is not written"
      )
    }
  }

  /// What the write does with each record: added, updated, unchanged or skipped.
  var mergeSummary: AppRecordMergeSummary { plan.summary }

  /// Whether the write adds and updates no row.
  var changesNothing: Bool { plan.changes.isEmpty }

  mutating func produce(at path: String) throws {
    let changes = plan.changes.map { change in
      CoreDataRecordWriter.Change(
        label: records.label(ofRecord: change.incomingIndex), record: change.record, primaryKey: change.existingKey)
    }
    let (entity, location, stagingFolder, dates) = (entity, location, stagingFolder, records.jsonDates)
    let externalDataFolder = CoreDataExternalStorage.folder(forStore: destination)
    let recordsAreNotes = records.valuesAreNoteText
    let result = try CoreDataStoreEdit.apply(to: destination, writingAt: path, location: location) { database, schema in
      var writer = CoreDataRecordWriter(
        database: database, schema: schema, entity: entity, location: location, stagingFolder: stagingFolder)
      writer.externalDataFolder = externalDataFolder
      writer.recordsAreNotes = recordsAreNotes
      return try writer.write(changes, dates: dates)
    }
    written = result
    warnings += result.warnings
  }

  func verify(at path: String) throws {
    guard let written else { throw DeckError(.writeFailed, at: location, "verification failed: nothing was written") }
    let snapshot = try SQLiteSnapshot(of: path, location: location)
    let database = try snapshot.open(location: location)
    let schema = try CoreDataSchema(database: database, location: location)
    let reread = try schema.entity(entity.name, location: location)
    var reader = CoreDataRecordReader(database: database, schema: schema, originalPath: destination, location: location)
    reader.extraExternalDataFolders = [stagingFolder]
    let count = try reader.count(reread)
    let added = plan.changes.filter { $0.existingKey == nil }.count
    guard count == countBefore + added else {
      throw DeckError(
        .writeFailed, at: location,
        "verification failed: entity \(entity.name) had \(countBefore) rows, \(added) were added, but it has \(count)")
    }
    try CoreDataRowAudit(database: database, model: schema.model, entity: reread, location: location).check(
      primaryKeys: written.primaryKeys)
    let (all, _) = try reader.read(reread, primaryKeys: Set(written.primaryKeys))
    let byKey = Dictionary(zip(all.primaryKeys ?? [], all.records), uniquingKeysWith: { first, _ in first })
    let relationshipKeys = reread.keysNotWrittenAsValues
    let actual = written.primaryKeys.map { key in
      AppRecord(fields: (byKey[key] ?? AppRecord()).fields.filter { !relationshipKeys.contains($0.key) })
    }
    try requireEqual(
      expected: written.expected, actual: actual,
      labels: { records.label(ofRecord: plan.changes[$0].incomingIndex) + " (Z_PK \(written.primaryKeys[$0]))" },
      at: location)
    try CoreDataLinkCheck.require(written.links, readBack: byKey, entity: reread, location: location)
    guard try CoreDataStoreEdit.bookkeeping(database) == metadataBefore else {
      throw DeckError(.writeFailed, at: location, "verification failed: Z_METADATA or Z_MODELCACHE changed")
    }
  }

  /// Moves the staged external-storage files into the store's `_EXTERNAL_DATA` folder (before
  /// the store that names them is put in place); returns their new paths, for removal if that fails.
  func placeCompanionFiles() throws -> [String] {
    try CoreDataStoreEdit.placeExternalFiles(
      written?.externalFiles ?? [], from: stagingFolder, destination: destination, location: location)
  }

  /// Removes the files of external-storage values the write replaced (once the new store, which
  /// no longer names them, is in place).
  func discardReplacedCompanionFiles() {
    let folder = CoreDataExternalStorage.folder(forStore: destination)
    for name in written?.replacedExternalFiles ?? [] {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  private var stagingFolder: URL { URL(fileURLWithPath: staging.path(for: "_EXTERNAL_DATA")) }
}
