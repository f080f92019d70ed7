import DeckCore
import DeckIO
import Foundation

/// How a migration runs.
public struct AppMigrationOptions: Sendable, Hashable {
  /// The plist key (or JSON object key) on both sides, unless ``destinationKey`` names another.
  public var key: String?
  /// The key to write under, when it differs from ``key``.
  public var destinationKey: String?
  /// The record type or entity on both sides, unless ``destinationEntity`` names another.
  public var entity: String?
  /// The record type or entity to write into, when it differs from ``entity``.
  public var destinationEntity: String?
  /// Which profile types the records.
  public var profile: AppProfileChoice
  /// How records are stored under a new plist key.
  public var plistStyle: PlistRecordStyle
  /// The date encoding of JSON-stored source records, when it is not to be guessed.
  public var jsonDates: JSONDateEncoding?
  /// The source's kind, when its content and extension should not decide.
  public var sourceKind: AppStorageKind?
  /// The destination's kind, when its content and extension should not decide.
  public var destinationKind: AppStorageKind?
  /// What to do when the destination exists.
  public var existing: ExistingFilePolicy
  /// Verify in a scratch copy and write nothing.
  public var dryRun: Bool
  /// How records are matched with those the destination already holds.
  public var matching: AppRecordMatching

  /// Creates options.
  public init(
    key: String? = nil, destinationKey: String? = nil, entity: String? = nil, destinationEntity: String? = nil,
    profile: AppProfileChoice = .automatic, plistStyle: PlistRecordStyle = .json, jsonDates: JSONDateEncoding? = nil,
    sourceKind: AppStorageKind? = nil, destinationKind: AppStorageKind? = nil, existing: ExistingFilePolicy = .refuse,
    dryRun: Bool = false, matching: AppRecordMatching = AppRecordMatching()
  ) {
    self.matching = matching
    self.key = key
    self.destinationKey = destinationKey
    self.entity = entity
    self.destinationEntity = destinationEntity
    self.profile = profile
    self.plistStyle = plistStyle
    self.jsonDates = jsonDates
    self.sourceKind = sourceKind
    self.destinationKind = destinationKind
    self.existing = existing
    self.dryRun = dryRun
  }
}

/// What a migration did.
public struct AppMigrationReport: Sendable {
  /// What was read.
  public var source: AppStorageContent
  /// What was written (or, for a dry run, would be).
  public var destination: AppWriteReport
  /// Every warning, reading and writing.
  public var warnings: [Diagnostic] { source.warnings + destination.warnings }
}

/// Moves app records from one storage to another (plist, JSON file, deckport SQLite, Core Data
/// store) without losing any: it reads every record, writes them with `AppStorageWriter`
/// (which verifies count and content before and after putting the file in place), and never
/// changes the source.
///
/// ```swift
/// let report = try AppMigrator().migrate(source: "prefs.plist", destination: "cards.json", options: .init(key: "Cards"))
/// print(report.destination.recordCount)
/// ```
public struct AppMigrator: Sendable {
  /// Creates a migrator.
  public init() {}

  /// Migrates the records at `source` to `destination`.
  ///
  /// - Throws: ``DeckError`` from reading or writing (see `AppStorageReader` and
  ///   `AppStorageWriter`), or when source and destination are the same file.
  public func migrate(source: String, destination: String, options: AppMigrationOptions = AppMigrationOptions()) throws
    -> AppMigrationReport
  {
    if SameFile.check(source, destination) {
      throw DeckError(
        .invalidRequest, at: SourceLocation(file: destination), "is the source file; deckport never changes its source")
    }
    var reading = AppStorageOptions(
      key: options.key, entity: options.entity, profile: options.profile, jsonDates: options.jsonDates)
    reading.keyOnlyWhereKeyed = true
    let content = try AppStorageReader().read(path: source, kind: options.sourceKind, options: reading)
    var destinationKey = options.destinationKey ?? options.key
    if destinationKey == nil, content.kind == .plist, !content.place.hasPrefix("the top-level") {
      destinationKey = content.records.name
    }
    let write = AppWriteOptions(
      storage: AppStorageOptions(
        key: destinationKey, entity: options.destinationEntity ?? options.entity, profile: options.profile,
        plistStyle: options.plistStyle),
      existing: options.existing, dryRun: options.dryRun, matching: options.matching)
    let report = try AppStorageWriter().write(
      content.records, to: destination, kind: options.destinationKind, options: write)
    return AppMigrationReport(source: content, destination: report)
  }
}
