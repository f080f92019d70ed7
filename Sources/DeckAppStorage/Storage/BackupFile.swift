import DeckCore
import Foundation

/// Keeps a copy of a file (and its SQLite companions) beside it before it is changed:
/// `NAME.backup-YYYYMMDD-HHMMSS`, with `-2`, `-3`, … when that exists.
enum BackupFile {
  /// Copies `path` (and `-wal`, `-shm`, `-journal` beside it) and returns the backup's path.
  static func make(of path: String) throws -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let base = "\(path).backup-\(formatter.string(from: Date()))"
    var candidate = base
    var suffix = 2
    while FileManager.default.fileExists(atPath: candidate) {
      candidate = "\(base)-\(suffix)"
      suffix += 1
    }
    do {
      try FileManager.default.copyItem(atPath: path, toPath: candidate)
      for companion in SQLiteSnapshot.companionSuffixes where FileManager.default.fileExists(atPath: path + companion) {
        try FileManager.default.copyItem(atPath: path + companion, toPath: candidate + companion)
      }
    } catch {
      remove(candidate)
      throw DeckError(
        .writeFailed, at: SourceLocation(file: candidate),
        "cannot keep a backup (\(error.localizedDescription)); nothing was changed")
    }
    return candidate
  }

  /// Removes a backup made by ``make(of:)`` (and its companions), when the change it was made
  /// for did not happen.
  static func remove(_ backupPath: String) {
    for suffix in [""] + SQLiteSnapshot.companionSuffixes {
      try? FileManager.default.removeItem(atPath: backupPath + suffix)
    }
  }
}
