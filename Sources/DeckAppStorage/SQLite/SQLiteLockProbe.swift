import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells whether another process (a running app) has an SQLite database open or is writing it,
/// without taking any lock or changing any file: it asks the kernel (`F_GETLK`) whether a write
/// lock could be placed on the bytes SQLite locks.
///
/// - The main file's lock bytes (from 0x40000000, 512 bytes): a process writing a rollback-journal
///   database holds them (SQLite's `SQLITE_BUSY` situation).
/// - The `-shm` file's lock bytes (120–135): every connection to a WAL database holds a shared
///   lock there for as long as it has the database open, and a writer holds the write lock.
enum SQLiteLockProbe {
  /// A lock another process holds.
  struct Holder {
    var file: String
    var processID: Int32
    var exclusive: Bool
  }

  /// The first lock another process holds on `path` or its `-shm`, or nil.
  static func holder(of path: String) -> Holder? {
    if let holder = query(path, start: 0x4000_0000, length: 512) { return holder }
    let shm = path + "-shm"
    if FileManager.default.fileExists(atPath: shm), let holder = query(shm, start: 120, length: 16) { return holder }
    return nil
  }

  /// Throws the "locked by a running app" error when another process holds a lock on `path`.
  static func requireUnlocked(_ path: String, location: SourceLocation) throws {
    guard let holder = holder(of: path) else { return }
    let what = holder.exclusive ? "is writing it" : "has it open"
    throw DeckError(
      .unreadableFile, at: location,
      "the store is locked (SQLITE_BUSY): process \(holder.processID) \(what) (lock on \((holder.file as NSString).lastPathComponent)); quit the app that uses it and try again"
    )
  }

  private static func query(_ path: String, start: Int, length: Int) -> Holder? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = off_t(start)
    lock.l_len = off_t(length)
    guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
    return Holder(file: path, processID: lock.l_pid, exclusive: lock.l_type == Int16(F_WRLCK))
  }
}
