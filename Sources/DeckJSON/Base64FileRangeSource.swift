import DeckCore
import DeckIO
import Foundation

/// Media bytes kept as base64 text in a range of a JSON file, decoded chunk by chunk when read,
/// so reading a deck document never holds its media in memory.
struct Base64FileRangeSource: MediaSource {
  let path: String
  let offset: Int
  let length: Int
  /// Where the text is, for errors (`media[3].data`).
  let location: SourceLocation

  func openReader() throws -> any MediaByteReader {
    try Reader(source: self)
  }

  private final class Reader: MediaByteReader {
    private let source: Base64FileRangeSource
    private let handle: FileHandle
    private var remaining: Int
    private var decoded = Data()
    private var decodedOffset = 0
    /// Base64 characters read but not yet decoded (fewer than four).
    private var carry = Data()
    private static let chunk = 1 << 16

    init(source: Base64FileRangeSource) throws {
      self.source = source
      guard let handle = FileHandle(forReadingAtPath: source.path) else {
        throw DeckError(.unreadableFile, at: source.location, "cannot open the file again to read the media data")
      }
      self.handle = handle
      self.remaining = source.length
      try handle.seek(toOffset: UInt64(source.offset))
    }

    deinit { try? handle.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      while decodedOffset == decoded.count {
        guard try refill() else { return 0 }
      }
      let count = min(buffer.count, decoded.count - decodedOffset)
      let start = decoded.startIndex + decodedOffset
      decoded.copyBytes(to: buffer, from: start..<(start + count))
      decodedOffset += count
      return count
    }

    /// Decodes the next chunk of text; false at the end.
    private func refill() throws -> Bool {
      guard remaining > 0 else {
        guard carry.isEmpty else {
          throw DeckError(.corrupt, at: source.location, "not valid base64 (its length is not a multiple of 4)")
        }
        return false
      }
      let text = try handle.read(upToCount: min(Self.chunk, remaining)) ?? Data()
      guard !text.isEmpty else {
        throw DeckError(.corrupt, at: source.location, "the file ended inside the media data")
      }
      remaining -= text.count
      var pending = carry + text
      let usable = pending.count - pending.count % 4
      carry = pending.suffix(from: pending.startIndex + usable)
      pending = pending.prefix(usable)
      guard let bytes = Data(base64Encoded: pending) else {
        throw DeckError(.corrupt, at: source.location, "not valid base64")
      }
      decoded = bytes
      decodedOffset = 0
      return true
    }
  }
}
