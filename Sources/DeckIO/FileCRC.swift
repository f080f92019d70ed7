import DeckCore
import Foundation

/// The CRC-32 (``CRC32``) of part of a file: what the compressors that start
/// before a file is complete use to check that the part they compressed did not change.
enum FileCRC {
  /// The CRC-32 of the bytes `range` of the file at `path`; nil when the file ends first.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the file cannot be read.
  static func of(_ range: Range<UInt64>, inFileAt path: String, location: SourceLocation) throws -> UInt32? {
    let input = try FileByteSource(path: path, location: location)
    try input.seek(to: range.lowerBound)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var crc: UInt32 = 0
    var left = UInt64(range.count)
    while left > 0 {
      let count = try input.read(
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<Int(min(UInt64(buffer.count), left))]))
      guard count > 0 else { return nil }
      crc = CRC32.update(crc, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
      left -= UInt64(count)
    }
    return crc
  }
}
