import Foundation

/// Every temporary file and folder the process has made and not yet removed or renamed into
/// place (outputs being written, scratch folders, copies of standard input), so that a process
/// told to stop at once can remove them before it exits (``removeAllAndHold()``).
///
/// Renaming a finished output into place is a commit (``committing(_:)``): a stop waits for a
/// commit under way, so an output is either wholly in place or wholly absent, and an app
/// store's files are never left half replaced.
package enum TemporaryItems {
  private static let lock = NSRecursiveLock()
  nonisolated(unsafe) private static var paths: [String: Int] = [:]
  nonisolated(unsafe) private static var placed: Set<String> = []
  /// Outputs put in place beyond the ones ``placed`` remembers (a library writing many files).
  nonisolated(unsafe) private static var placedBeyond = 0
  private static let placedRemembered = 64

  /// Records `path` as temporary (a path registered twice must be let go of twice).
  package static func register(_ path: String) {
    lock.lock()
    paths[path, default: 0] += 1
    lock.unlock()
  }

  /// Records that `path` was removed or renamed into place.
  package static func unregister(_ path: String) {
    lock.lock()
    if let count = paths[path] { paths[path] = count > 1 ? count - 1 : nil }
    lock.unlock()
  }

  /// The paths registered now (for the tests).
  package static var registered: Set<String> {
    lock.lock()
    defer { lock.unlock() }
    return Set(paths.keys)
  }

  /// Records that the output at `path` was put in place, whole (``AtomicOutput``).
  package static func notePlaced(_ path: String) {
    lock.lock()
    if placed.count < placedRemembered || placed.contains(path) {
      placed.insert(path)
    } else {
      placedBeyond += 1
    }
    lock.unlock()
  }

  /// The outputs put in place so far that are still there (the first 64 distinct ones, sorted),
  /// and how many more were put in place: a process told to stop after one was put in place
  /// (while it was read back to be checked, say) says that it was written, rather than that
  /// nothing was changed.
  package static var placedOutputs: (paths: [String], more: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (placed.filter { FileManager.default.fileExists(atPath: $0) }.sorted(), placedBeyond)
  }

  /// Runs `body`, which puts a finished output in place, without a stop in between.
  package static func committing<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Waits for a commit under way, removes every registered path (a file with its SQLite
  /// companions, or a folder with everything in it) and keeps the lock, so that nothing is
  /// committed before the process exits. For a process about to exit at once, whose other
  /// threads may still be writing.
  package static func removeAllAndHold() {
    lock.lock()
    for path in paths.keys {
      remove(path)
      for suffix in ["-journal", "-wal", "-shm"] { remove(path + suffix) }
    }
    paths = [:]
  }

  /// Removes `path`. A folder a writer is still filling is first renamed, so that no new file
  /// can appear under its path, and removed again while anything is left in it.
  private static func remove(_ path: String) {
    let manager = FileManager.default
    let doomed = path + ".removing"
    let target = rename(path, doomed) == 0 ? doomed : path
    for _ in 0..<20 where manager.fileExists(atPath: target) {
      try? manager.removeItem(atPath: target)
    }
  }
}
