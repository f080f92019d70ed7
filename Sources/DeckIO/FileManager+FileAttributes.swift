import Foundation

extension FileManager {
  /// The size in bytes of the file at `path`, or nil when it cannot be told (no such file, or
  /// its attributes cannot be read).
  package func fileSize(atPath path: String) -> UInt64? {
    ((try? attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value
  }

  /// When the file at `path` was last modified, in whole seconds since 1970, or nil when it
  /// cannot be told (no such file, its attributes cannot be read, or a time before 1970 or
  /// beyond 64-bit seconds, which a file system may hold). Readers of sources that keep no
  /// modification time of their own give it to every note, so that a later version of the file
  /// is newer and Anki's import updates the notes it has.
  package func modificationSeconds(atPath path: String) -> Int64? {
    ((try? attributesOfItem(atPath: path))?[.modificationDate] as? Date)
      .flatMap { Int64(exactly: $0.timeIntervalSince1970.rounded(.down)) }
      .flatMap { $0 >= 0 ? $0 : nil }
  }
}
