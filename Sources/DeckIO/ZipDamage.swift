import DeckCore
import Foundation

/// Says what is wrong with a file libzip refuses as a zip archive, from the file's own bytes:
/// not a zip at all, a zip cut short (no end record), or a zip whose central directory is
/// damaged, with the byte offset where the problem is.
enum ZipDamage {
  /// The error for the file at `path`, which libzip refused with `libzipMessage`; nil when the
  /// file does not even start like a zip archive (the caller then says so).
  static func diagnose(path: String, libzipMessage: String, location: SourceLocation) -> DeckError? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4)) ?? Data()
    guard head.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return nil }
    let size = (try? handle.seekToEnd()).map { Int64($0) } ?? 0
    // The end record is 22 bytes, followed by a comment of up to 65,535 bytes.
    let tailLength = min(size, 22 + 65_535)
    try? handle.seek(toOffset: UInt64(size - tailLength))
    let tail = (try? handle.read(upToCount: Int(tailLength))) ?? Data()
    var place = location
    guard let end = tail.lastRange(of: Data([0x50, 0x4B, 0x05, 0x06])), tail.count - end.lowerBound >= 22 else {
      place.byteOffset = size
      return DeckError(
        .corrupt, at: place,
        "the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (\(libzipMessage))"
      )
    }
    let endOffset = size - tailLength + Int64(end.lowerBound)
    let record = tail[end.lowerBound...]
    func uint32(_ at: Int) -> Int64 {
      let start = record.startIndex + at
      return (0..<4).reduce(Int64(0)) { $0 | Int64(record[start + $1]) << (8 * $1) }
    }
    let directorySize = uint32(12)
    let directoryOffset = uint32(16)
    place.byteOffset = directoryOffset
    var signature = Data()
    if directoryOffset + 4 <= size {
      try? handle.seek(toOffset: UInt64(directoryOffset))
      signature = (try? handle.read(upToCount: 4)) ?? Data()
    }
    if directoryOffset + directorySize > endOffset || !signature.starts(with: [0x50, 0x4B, 0x01, 0x02]) {
      return DeckError(
        .corrupt, at: place,
        "the zip archive's central directory (the list of its members, which the end record at byte \(endOffset) places here) is damaged (\(libzipMessage))"
      )
    }
    return DeckError(
      .corrupt, at: place,
      "the zip archive is damaged: its central directory (the list of its members, here) does not match the members themselves (\(libzipMessage))"
    )
  }
}
