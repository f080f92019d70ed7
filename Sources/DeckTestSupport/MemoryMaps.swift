import Foundation

/// Where the bytes of a value live, as the kernel reports the process's mappings
/// (`/proc/self/maps`, Linux only): to check that a large value is mapped from a file rather than
/// held in the process's own memory, without asking the code that mapped it.
public enum MemoryMaps {
  /// The file the mapping holding the first byte of `data` shows (with ` (deleted)` when the
  /// file has no name any more); nil for memory of the process's own (the heap) or where
  /// `/proc/self/maps` cannot be read.
  public static func file(holding data: Data) -> String? {
    // Read to the end: String(contentsOfFile:) stops after the first 4 KB of a /proc file.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
    defer { try? handle.close() }
    let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    let address = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    for line in text.split(separator: "\n") {
      // start-end perms offset device inode   path
      let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      guard parts.count == 6 else { continue }
      let range = parts[0].split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else {
        continue
      }
      if start <= address, address < end { return parts[5].trimmingCharacters(in: .whitespaces) }
    }
    return nil
  }

  /// Whether `data` is mapped from one of ``SpilledBytes``' private temporary files (named
  /// `deckport-value-…`, unlinked).
  public static func isSpilled(_ data: Data) -> Bool {
    guard let file = file(holding: data) else { return false }
    return file.contains("/deckport-value-") && file.hasSuffix("(deleted)")
  }
}
