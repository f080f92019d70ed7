import DeckCore

/// How records are written to a storage file.
public struct AppWriteOptions: Sendable, Hashable {
  /// Where in the file (plist key, record type, entity) and how (plist style).
  public var storage: AppStorageOptions
  /// What to do when the destination exists.
  public var existing: ExistingFilePolicy
  /// Do everything in a scratch copy, verify it, and write nothing.
  public var dryRun: Bool
  /// How the records are matched with those the destination already holds.
  public var matching: AppRecordMatching

  /// Creates options.
  public init(
    storage: AppStorageOptions = AppStorageOptions(), existing: ExistingFilePolicy = .refuse, dryRun: Bool = false,
    matching: AppRecordMatching = AppRecordMatching()
  ) {
    self.storage = storage
    self.existing = existing
    self.dryRun = dryRun
    self.matching = matching
  }
}

/// What a write did (or, for a dry run, would do).
public struct AppWriteReport: Sendable {
  /// The destination file.
  public var destination: String
  /// Its storage kind.
  public var kind: AppStorageKind
  /// Where the records went: `key 'Cards' (JSON data in a binary plist)`, `entity Card`.
  public var place: String
  /// How many records were written.
  public var recordCount: Int
  /// Whether the destination was created (it did not exist).
  public var created: Bool
  /// The copy of the old destination, with `--backup`.
  public var backupPath: String?
  /// Whether this was a dry run (nothing written).
  public var dryRun: Bool
  /// What changed type or had to be supplied.
  public var warnings: [Diagnostic]
  /// How the records met those the destination held: added, updated, unchanged, skipped.
  public var merge = AppRecordMergeSummary()
  /// Whether the destination already held every record as it would be written (none added or
  /// updated): it was left as it was, byte for byte, with no backup made. A dry run says so
  /// of what it would do.
  public var leftAsItWas = false
}
