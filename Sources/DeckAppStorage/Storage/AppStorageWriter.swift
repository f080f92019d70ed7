import DeckCore
import DeckIO
import Foundation

/// Writes app records to any storage kind, safely:
///
/// - an existing destination is changed only with ``ExistingFilePolicy/replace`` (`--force`) or
///   ``ExistingFilePolicy/backup`` (`--backup`, which first copies it to
///   `NAME.backup-YYYYMMDD-HHMMSS` beside it, and then keeps the external-storage files of a
///   store that the backup names, so that the backup, put back, reads as the store did);
/// - the new file is written under a temporary name beside the destination, read back and
///   verified (record count and every value, and everything else the file held), and only then
///   renamed over the destination; the destination is then read back and verified again;
/// - a destination that already holds every record as it would be written (none added or
///   updated) is left as it was, byte for byte, and no backup is made
///   (``AppWriteReport/leftAsItWas``);
/// - a dry run does all of that in a scratch folder and writes nothing beside the destination;
/// - SQLite files are changed on a private copy, never opened in place.
///
/// ```swift
/// let report = try AppStorageWriter().write(cards, to: "cards.json", options: AppWriteOptions(existing: .backup))
/// ```
package struct AppStorageWriter: Sendable {
  /// Reads the records a file holds at a place (`options`), as ``AppStorageReader`` does.
  typealias HeldReader =
    @Sendable (_ path: String, _ kind: AppStorageKind, _ options: AppStorageOptions) throws ->
    AppStorageContent

  /// Reads the records a destination holds where the new ones go, to merge them: the storage
  /// reader. A test gives one that fails as a read can fail at any time (an I/O error, a store
  /// an app changed while it was being copied), to check that nothing is written then.
  var readHeld: HeldReader = { try AppStorageReader().read(path: $0, kind: $1, options: $2) }

  /// Creates a writer.
  package init() {}

  /// Writes `records` to `path` (of `kind`, or the kind the file's content or extension shows).
  ///
  /// - Throws: ``DeckError`` when the destination exists and the policy refuses, when it is of
  ///   a kind or layout deckport cannot write into, when a value cannot be stored (naming the
  ///   record and key), when a store is locked or syncs with CloudKit, or when verification
  ///   finds a difference; in every case the destination is left as it was.
  package func write(
    _ records: AppRecords, to namedPath: String, kind: AppStorageKind? = nil,
    options: AppWriteOptions = AppWriteOptions()
  ) throws -> AppWriteReport {
    // A destination that is a link is written through it, whatever its kind: the app reads the
    // file the link leads to, and the link stays.
    let path = FileManager.default.linkTarget(ofPath: namedPath)
    let location = SourceLocation(file: path)
    let exists = try Self.destinationExists(path, options: options)
    let kind = try kind ?? AppStorageKind.detect(path: path)
    if exists, [.sqlite, .coreData].contains(kind) { try SQLiteLockProbe.requireUnlocked(path, location: location) }
    var merge = AppRecordMergeSummary(added: records.records.count)
    var toWrite = records
    var unlike: Diagnostic?
    // Whether the destination already holds every record as it would be written.
    var changesNothing = false
    if exists, kind != .coreData,
      let heldContent = try heldRecords(at: path, kind: kind, like: records, options: options.storage)
    {
      let held = heldContent.records
      // Whole-file kinds are written with every record they hold; a store is changed row by row.
      // A deck's note text goes back under the file's keys, with the types of its values there.
      let restoredKeys = NoteTextTyping.restoredKeys(for: held.shape.keys)
      let text =
        records.valuesAreNoteText
        ? records.records.map { NoteTextTyping.restoringKeys(of: $0, by: restoredKeys) } : nil
      let incoming =
        try text.map {
          try Self.typed(
            records.replacingRecords($0), like: held, dataAsText: heldContent.holdsDataAsText, location: location)
        } ?? records
      // A note made from one of the file's records goes back into it (its GUID says which, when
      // no other record shares its identity), unless keys are named.
      let knownRows =
        options.matching.keys == nil ? NoteIdentity.rows(ofNotes: records.noteGUIDs ?? [], in: held) : [:]
      let plan = try AppRecordMergePlan(
        existing: held.records, existingKeys: [], incoming: incoming, matching: options.matching, location: location,
        noteText: text.map { NoteTextComparison(text: $0) }, knownRows: knownRows,
        heldDates: [nil, held.jsonDates].contains(options.storage.jsonDates) ? held.jsonDates : nil)
      unlike = Self.unlikeRecordsWarning(incoming, held: held, location: location)
      toWrite = records.replacingRecords(plan.merged)
      // Dates go in as the file holds them (ISO 8601 strings stay strings), unless named.
      if options.storage.jsonDates == nil { toWrite.jsonDates = held.jsonDates }
      merge = plan.summary
      changesNothing = plan.changes.isEmpty && toWrite.jsonDates == held.jsonDates
    }
    var writer = try Self.writer(
      for: kind, records: toWrite, destination: path, exists: exists, options: options.storage,
      matching: options.matching)
    if let storeWriter = writer as? CoreDataFileWriter {
      merge = storeWriter.mergeSummary
      changesNothing = exists && storeWriter.changesNothing
    }
    var report = AppWriteReport(
      destination: path, kind: kind, place: writer.place, recordCount: records.records.count, created: !exists,
      backupPath: nil, dryRun: options.dryRun, warnings: [], merge: merge)

    if changesNothing {
      // Rewriting would change the file's bytes (its layout, an app's own JSON style), its
      // modification time and its inode, and leave a backup of an unchanged file, for nothing.
      report.leftAsItWas = true
      report.warnings = [unlike].compactMap { $0 } + writer.warnings
      return report
    }
    report.backupPath = try commit(&writer, to: path, kind: kind, exists: exists, options: options)
    report.place = writer.place
    report.warnings = [unlike].compactMap { $0 } + writer.warnings
    return report
  }

  /// Whether the destination exists; throws when it is a directory, or exists and `options`
  /// refuse to change it.
  static func destinationExists(_ path: String, options: AppWriteOptions) throws -> Bool {
    let location = SourceLocation(file: path)
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if isDirectory.boolValue { throw DeckError(.invalidRequest, at: location, "is a directory; name a file") }
    if exists && options.existing == .refuse && !options.dryRun {
      throw DeckError(
        .invalidRequest, at: location,
        "already exists; pass \(setting: .keepBackup) to keep the old file beside it, or \(setting: .replaceExisting) to change it"
      )
    }
    return exists
  }

  /// Runs `writer` safely: for a dry run, in a scratch folder only; otherwise (after a backup,
  /// when asked) under a temporary name beside `path`, verified, renamed over it, and verified
  /// again. Returns the backup's path, if one was made.
  func commit(
    _ writer: inout some StorageFileWriter, to path: String, kind: AppStorageKind, exists: Bool,
    options: AppWriteOptions
  )
    throws -> String?
  {
    let location = SourceLocation(file: path)
    if options.dryRun {
      let scratch = try TemporaryDirectory(prefix: "deckport-dry-run-")
      let trial = scratch.path(for: "trial")
      try writer.produce(at: trial)
      try writer.verify(at: trial)
      return nil
    }
    let backupPath = exists && options.existing == .backup ? try BackupFile.make(of: path) : nil
    // Until the change is committed, the backup is a copy of an unchanged file: a process told to
    // stop removes it.
    if let backupPath { TemporaryItems.register(backupPath) }
    var placedFiles: [String] = []
    do {
      try AtomicOutput.write(to: path, replacing: exists) { temporaryPath in
        defer {
          for suffix in SQLiteSnapshot.companionSuffixes {
            try? FileManager.default.removeItem(atPath: temporaryPath + suffix)
          }
        }
        try writer.produce(at: temporaryPath)
        try writer.verify(at: temporaryPath)
      } commit: { _ in
        // From here to the rename, a process told to stop waits: the companion files, the old
        // -wal and -shm and the store change together.
        placedFiles = try writer.placeCompanionFiles()
        if let backupPath { TemporaryItems.unregister(backupPath) }
        if exists, [.sqlite, .coreData].contains(kind) {
          try SQLiteLockProbe.requireUnlocked(path, location: location)
          // The old -wal and -shm belong to the old file; their content is in the new one, and
          // folded into the old file first, so removing them loses nothing before the rename.
          try SQLiteLogFold.fold(path, location: location)
          for suffix in SQLiteSnapshot.companionSuffixes where FileManager.default.fileExists(atPath: path + suffix) {
            do {
              try FileManager.default.removeItem(atPath: path + suffix)
            } catch {
              throw DeckError(
                .writeFailed, at: location,
                "cannot remove the old \(suffix) file (\(error.localizedDescription)); nothing was changed")
            }
          }
        }
      }
    } catch {
      // The store that names these files was not put in place, and the original is untouched,
      // so the backup of it holds nothing the original does not.
      for file in placedFiles { try? FileManager.default.removeItem(atPath: file) }
      if let backupPath {
        BackupFile.remove(backupPath)
        TemporaryItems.unregister(backupPath)
      }
      throw error
    }
    do {
      try writer.verify(at: path)
    } catch let error as DeckError {
      let restore = backupPath.map { "; the old file is kept at \($0)" } ?? ""
      throw DeckError(
        .writeFailed, at: location, "\(error.wording) (after the file was put in place\(restore))" as DeckMessage)
    }
    // The backup of a store names the external-storage files of the values the write replaced:
    // they stay, so that the backup reads (and restores) as the store did.
    if backupPath == nil { writer.discardReplacedCompanionFiles() }
    return backupPath
  }

  /// `records` (a deck's note text) with each text read as the type of the values `held` has
  /// under its key; with `dataAsText` (a destination of JSON text), a picture under a key of
  /// text as its base64 text.
  ///
  /// - Throws: ``DeckError`` naming the first record and key whose text is not of that type:
  ///   the app decodes the file by those types, so such a record would break the whole file.
  private static func typed(_ records: AppRecords, like held: AppRecords, dataAsText: Bool, location: SourceLocation)
    throws -> AppRecords
  {
    let targets = NoteTextTyping.targets(for: held.shape)
    var typed: [AppRecord] = []
    typed.reserveCapacity(records.records.count)
    for (index, record) in records.records.enumerated() {
      let (values, unreadable) = NoteTextTyping.values(of: record, targets: targets, dataAsText: dataAsText)
      if let key = unreadable.first, let type = targets[ExactKey(key)]?.type, let text = record[key] {
        throw DeckError(
          .invalidRequest, at: location.item("\(records.label(ofRecord: index)), key '\(key)'"),
          "the file's records hold \(type.rawValue) values under \(key), and \(text) is not one; nothing was written")
      }
      typed.append(values)
    }
    return records.replacingRecords(typed)
  }

  /// A warning when none of the keys of the records being added is a key of the records the file
  /// holds: they go beside them, and an app decoding the file by its own keys may fail on them.
  private static func unlikeRecordsWarning(_ records: AppRecords, held: AppRecords, location: SourceLocation)
    -> Diagnostic?
  {
    let heldKeys = Set(held.shape.keys)
    guard !held.records.isEmpty, !records.records.isEmpty, !records.shape.keys.contains(where: heldKeys.contains)
    else { return nil }
    return Diagnostic(
      .recordsUnlike, at: location,
      "none of the keys of the records written (\(ShortList.text(records.shape.keys))) is a key of the records the file holds (\(ShortList.text(held.shape.keys))): they are added beside them, and an app that decodes the file by its own keys may fail on them"
    )
  }

  /// The records the destination holds where these records would go, read as the records are
  /// typed (their profile, or none); nil when it holds none there, or, for a plist or a JSON
  /// file, when it cannot be read (the writer, which reads it again, then reports what is wrong
  /// with it).
  ///
  /// For an SQLite file, the record type being replaced is read whole only here (its writer reads
  /// the other ones), and the records read replace its table: nil only when the file holds no
  /// such record type, or no tables, or its table (``DeckError/Kind/missingPart``), or is of
  /// another layout (``DeckError/Kind/wrongFormat``: a Core Data store, which the SQLite writer
  /// refuses itself, naming the format to write it in); every other failure to read it refuses
  /// the write, since replacing the table would lose the records it holds.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` when records of a profile would go where the
  ///   destination holds records that do not fit it (another app's): the file cannot hold both
  ///   kinds in one place for either app, and writing only the new ones would lose the held ones.
  ///   For an SQLite file, the refusal (``UnreadableDestination``) of a record type deckport
  ///   cannot read, with the error's kind, place and wording (a cell it cannot read names its
  ///   table, row and column; an I/O error or a store changed while it was copied, the file); an
  ///   error that is not a ``DeckError`` as an ``DeckError/Kind/unreadableFile`` refusal naming
  ///   the file; a `CancellationError` as it is.
  private func heldRecords(
    at path: String, kind: AppStorageKind, like records: AppRecords, options: AppStorageOptions
  ) throws
    -> AppStorageContent?
  {
    var reading = options
    // A key names the place on a side that has keys: a file that is one array of records is
    // read whole, so its records are kept beside the new ones.
    reading.keyOnlyWhereKeyed = true
    reading.profile = records.profile.map { .named($0) } ?? .generic
    if kind == .sqlite, reading.entity == nil { reading.entity = records.name }
    // An SQLite record type is read whole only here (its writer reads the other ones), and the
    // records read replace its table: a failure to read it, whatever its kind, would lose its
    // records, so nothing is written. Only a record type or tables the file lacks hold nothing;
    // a file of another layout (a Core Data store) is refused by the writer, which says what to
    // write into it instead.
    let misfit: DeckMessage
    do {
      return try readHeld(path, kind, reading)
    } catch let error as DeckError {
      if kind == .sqlite {
        if error.kind == .missingPart || error.kind == .wrongFormat { return nil }
        // Held records that do not fit the records' profile (``AppStorageReader/applyProfile``)
        // are read again without it, below, to say what they are.
        guard error.kind == .invalidRequest, records.profile != nil else {
          throw UnreadableDestination.refusal(error)
        }
      }
      misfit = error.wording
    } catch {
      if kind == .sqlite { throw Self.sqliteRefusal(error, at: path) }
      return nil
    }
    guard let profile = records.profile else { return nil }
    reading.profile = .generic
    let held: AppStorageContent
    do {
      held = try readHeld(path, kind, reading)
    } catch let error as DeckError where kind == .sqlite && error.kind == .missingPart {
      return nil
    } catch let error where kind == .sqlite {
      throw Self.sqliteRefusal(error, at: path)
    } catch {
      return nil
    }
    guard !held.records.records.isEmpty else { return nil }
    throw DeckError(
      .invalidRequest, at: SourceLocation(file: path).item(held.place),
      "holds \(CountedNoun.phrase(held.records.records.count, "record")) with the keys \(ShortList.text(held.records.shape.keys)), which do not fit the profile \(profile.title) (\(misfit)): written together, an app could decode neither kind, and writing only the new ones would lose these; nothing was written (name another place with \(setting: .recordKey) or \(setting: .recordEntity), or write the records without a profile, \(setting: .recordProfile) generic, to put them beside)"
    )
  }

  /// What refuses a write into an SQLite file whose record type being replaced could not be read
  /// (`error`): a ``DeckError`` as ``UnreadableDestination`` words it, keeping its kind and place;
  /// any other error as an ``DeckError/Kind/unreadableFile`` refusal naming the file at `path`; a
  /// `CancellationError` as it is, so that the work stops as asked.
  ///
  /// ```swift
  /// // s.sqlite: the store changed while it was being copied (…); deckport changes only a file it can read whole, so nothing was written
  /// throw Self.sqliteRefusal(error, at: path)
  /// ```
  private static func sqliteRefusal(_ error: any Error, at path: String) -> any Error {
    switch error {
    case let error as DeckError: UnreadableDestination.refusal(error)
    case is CancellationError: error
    default:
      UnreadableDestination.refusal(
        DeckError(
          .unreadableFile, at: SourceLocation(file: path),
          "cannot read the records it holds (\(error.localizedDescription))"))
    }
  }

  private static func writer(
    for kind: AppStorageKind, records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions,
    matching: AppRecordMatching
  ) throws -> any StorageFileWriter {
    switch kind {
    case .plist: try PlistFileWriter(records: records, destination: destination, exists: exists, options: options)
    case .jsonFile: try JSONFileWriter(records: records, destination: destination, exists: exists, options: options)
    case .sqlite: try SQLiteFileWriter(records: records, destination: destination, exists: exists, options: options)
    case .coreData:
      try CoreDataFileWriter(
        records: records, destination: destination, exists: exists, options: options, matching: matching)
    }
  }
}
