import DeckCore
import DeckIO
import Foundation

/// Moves what a store's write-ahead log (`-wal`) holds into its main file, before a new file
/// replaces the store.
///
/// The old `-wal` must go before the new file is renamed into place (SQLite would replay a stale
/// log onto the new file), and until the rename the old main file is the store. Folded first, the
/// log can go without taking anything with it: a process that ends between the two steps (a
/// crash, a power cut) leaves the old store whole, not its main file without the transactions
/// only its log held.
enum SQLiteLogFold {
  /// Checkpoints the log beside `path` into the main file and truncates it; nothing to do when
  /// there is no log or it is empty. Call it once the store is known not to be open elsewhere
  /// (``SQLiteLockProbe``).
  ///
  /// - Throws: ``DeckError`` `.writeFailed` when SQLite cannot open the store or cannot fold
  ///   the whole log (another connection is reading it).
  static func fold(_ path: String, location: SourceLocation) throws {
    let logSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    guard logSize > 0 else { return }
    do {
      let database = try SQLiteDatabase(path: path, readOnly: false, location: location)
      let checkpoint = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
      // One row: whether the checkpoint was blocked, the log's frames, the frames folded.
      guard try checkpoint.step(), checkpoint.int64(0) == 0 else {
        throw DeckError(.writeFailed, at: location, "another connection is reading the store")
      }
    } catch let error as DeckError {
      throw DeckError(
        .writeFailed, at: location,
        "cannot fold the old -wal into the store before replacing it (\(error.message)); nothing was changed")
    }
  }
}
