import DeckCore
import DeckIO
import Foundation

/// A private copy of an SQLite database together with its `-wal`, `-shm` and `-journal` files,
/// so the original is never opened at all (opening it read-write would checkpoint and remove the
/// app's `-wal`; opening only the main file would miss what the `-wal` holds).
///
/// Before copying, it refuses a database another process holds locked; after copying, it refuses
/// one whose files changed meanwhile. The copy is removed when the snapshot is released.
final class SQLiteSnapshot {
  /// The original database, as the user named it.
  let originalPath: String
  /// The copy of the main file; its companions sit beside it.
  let path: String
  private let directory: TemporaryDirectory

  /// The companion files SQLite keeps beside a database.
  static let companionSuffixes = ["-wal", "-shm", "-journal"]

  /// Copies the database at `originalPath` and its companions into a new temporary directory.
  ///
  /// - Throws: ``DeckError`` `.unreadableFile` when the file is missing or unreadable, or when
  ///   the store is locked or changed while it was copied (a running app).
  init(of namedPath: String, location: SourceLocation) throws {
    self.originalPath = namedPath
    // Through a link, the database and its companions are the link's target and the files
    // beside it, as SQLite finds them (a copied link, relative, would lead nowhere).
    let originalPath = FileManager.default.linkTarget(ofPath: namedPath)
    guard FileManager.default.isReadableFile(atPath: originalPath) else {
      throw DeckError(
        .unreadableFile, at: location,
        FileManager.default.fileExists(atPath: originalPath)
          ? "cannot read the file (permission denied)" : "no such file")
    }
    try SQLiteLockProbe.requireUnlocked(originalPath, location: location)
    directory = try TemporaryDirectory(prefix: "deckport-store-")
    path = directory.path(for: "store.sqlite")
    let before = Self.fingerprint(originalPath)
    do {
      try FileManager.default.copyItem(atPath: originalPath, toPath: path)
      for suffix in Self.companionSuffixes where FileManager.default.fileExists(atPath: originalPath + suffix) {
        try FileManager.default.copyItem(atPath: originalPath + suffix, toPath: path + suffix)
      }
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot copy the store to read it (\(error.localizedDescription))")
    }
    guard Self.fingerprint(originalPath) == before else {
      throw DeckError(
        .unreadableFile, at: location,
        "the store changed while it was being copied (SQLITE_BUSY: its -wal is being written); quit the app that uses it and try again"
      )
    }
    try SQLiteLockProbe.requireUnlocked(originalPath, location: location)
  }

  /// Opens the copy (read-write: it is ours, and SQLite must be able to replay its `-wal`).
  func open(location: SourceLocation) throws -> SQLiteDatabase {
    try SQLiteDatabase(path: path, readOnly: false, location: location)
  }

  /// Sizes and modification times of the main file and its companions.
  private static func fingerprint(_ path: String) -> [String] {
    ([""] + companionSuffixes.filter { $0 != "-shm" }).map { suffix in
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix) else { return "-" }
      let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
      let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
      return "\(size)@\(modified)"
    }
  }
}
