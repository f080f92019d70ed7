import Foundation

/// The start of a file that may hold JSON, read without parsing it: its bytes from the first
/// that is neither a UTF-8 byte order mark nor JSON white space, for telling formats apart by
/// their first tokens (a deck document's `{"format"`, an app's array of records, a CrowdAnki
/// deck's object).
package enum JSONFileHead {
  /// JSON's white space: space, tab, line feed, carriage return.
  package static let whiteSpace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]

  /// The file's first `count` bytes, without a UTF-8 byte order mark and the white space that
  /// follows it; nil when the file cannot be read.
  package static func bytes(ofFileAt path: String, count: Int = 256) -> Data.SubSequence? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: count) else { return nil }
    let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
    return text.drop { whiteSpace.contains($0) }
  }

  /// The file's first byte after a byte order mark and white space, or nil (an unreadable or
  /// empty file).
  package static func firstByte(ofFileAt path: String) -> UInt8? {
    bytes(ofFileAt: path, count: 4096)?.first
  }
}
