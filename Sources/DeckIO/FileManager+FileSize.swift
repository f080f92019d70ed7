import Foundation

extension FileManager {
  /// The size in bytes of the file at `path`, or nil when it cannot be told (no such file, or
  /// its attributes cannot be read).
  package func fileSize(atPath path: String) -> UInt64? {
    ((try? attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value
  }
}
