import DeckCore
import DeckIO
import Foundation

/// What a whole-store migration did.
public struct AppStoreMigrationReport: Sendable {
  /// What one entity's copy did.
  public struct EntityOutcome: Sendable, Hashable {
    /// The entity.
    public var entity: String
    /// Its table in the destination.
    public var table: String
    /// How many records the source holds.
    public var read: Int
    /// How many were added, updated, left unchanged or skipped.
    public var merge: AppRecordMergeSummary
    /// How many relationship links were set.
    public var links: Int
  }

  /// What was read.
  public var source: CoreDataStoreContent
  /// The destination store.
  public var destination: String
  /// Each entity copied, in the destination's entity order.
  public var entities: [EntityOutcome]
  /// Where the old destination was kept, with ``ExistingFilePolicy/backup``.
  public var backupPath: String?
  /// Whether nothing was written (only verified in a scratch copy).
  public var dryRun: Bool
  /// Whether the destination already held every record and link as the migration would write
  /// them, so it was left as it was (no rewrite, no backup).
  public var leftAsItWas: Bool
  /// Every warning, reading and writing.
  public var warnings: [Diagnostic]
}

extension AppMigrator {
  /// Copies every entity of the Core Data/SwiftData store at `source` into the store at
  /// `destination` (which the app created with the same entities), relinking each relationship
  /// to the rows its targets were copied to (keys are remapped, never copied as numbers).
  /// Records the destination already holds are matched (``AppMigrationOptions/matching``: its
  /// keys, else each entity's uniqueness constraint, else the whole record) and updated,
  /// skipped, added or refused as it says, so migrating the same store twice changes nothing
  /// the second time: the destination is then left as it was, not rewritten
  /// (``AppStoreMigrationReport/leftAsItWas``).
  ///
  /// ```swift
  /// let report = try AppMigrator().migrateStore(source: "Old.sqlite", destination: "default.store", options: .init(existing: .backup))
  /// for entity in report.entities { print(entity.entity, entity.merge) }
  /// ```
  ///
  /// - Throws: ``DeckError`` when either file is not a Core Data store, when source and
  ///   destination are the same file, when a record does not fit the destination's model
  ///   (naming the entity, record and property), or when verification finds a difference; the
  ///   destination is then left as it was.
  public func migrateStore(source: String, destination: String, options: AppMigrationOptions = AppMigrationOptions())
    throws
    -> AppStoreMigrationReport
  {
    // A destination that is a link is written through it, as every app-storage write is.
    let destination = FileManager.default.linkTarget(ofPath: destination)
    if SameFile.check(source, destination) {
      throw DeckError(
        .invalidRequest, at: SourceLocation(file: destination), "is the source file; deckport never changes its source")
    }
    for (path, kind) in [(source, options.sourceKind), (destination, options.destinationKind)] {
      let found = try kind ?? AppStorageKind.detect(path: path)
      guard found == .coreData else {
        throw DeckError(
          .invalidRequest, at: SourceLocation(file: path),
          "is \(found.displayName), not a Core Data/SwiftData store; a whole-store migration copies one store into another (use \(setting: .recordEntity) for one record type)"
        )
      }
    }
    let content = try AppStorageReader().readStore(path: source)
    let write = AppWriteOptions(existing: options.existing, dryRun: options.dryRun, matching: options.matching)
    let writer = AppStorageWriter()
    let exists = try AppStorageWriter.destinationExists(destination, options: write)
    if exists { try SQLiteLockProbe.requireUnlocked(destination, location: SourceLocation(file: destination)) }
    var storeWriter = try CoreDataStoreFileWriter(
      content: content, destination: destination, exists: exists, matching: options.matching)
    // A store that already holds every record and link is left as it was: rewriting it would
    // change its inode and time, and leave a backup of an unchanged store, for nothing.
    let backupPath =
      storeWriter.changesNothing
      ? nil : try writer.commit(&storeWriter, to: destination, kind: .coreData, exists: exists, options: write)
    return AppStoreMigrationReport(
      source: content, destination: destination, entities: storeWriter.outcomes, backupPath: backupPath,
      dryRun: options.dryRun, leftAsItWas: storeWriter.changesNothing,
      warnings: content.warnings + storeWriter.warnings)
  }
}
