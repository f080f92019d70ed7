import DeckCore
import DeckIO
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

  /// Reads the text with `pread` into one reused buffer and decodes it into another.
  private final class Reader: MediaByteReader {
    private let source: Base64FileRangeSource
    private let descriptor: Int32
    /// The file offset of the next text to read, and how much is left.
    private var position: Int
    private var remaining: Int
    private let text: UnsafeMutableRawBufferPointer
    /// Text read but not decoded yet (fewer than four characters), at the start of `text`.
    private var carried = 0
    private let decoded: UnsafeMutableRawBufferPointer
    private var decodedStart = 0
    private var decodedEnd = 0
    private static let chunk = 1 << 16

    init(source: Base64FileRangeSource) throws {
      self.source = source
      descriptor = open(source.path, O_RDONLY)
      guard descriptor >= 0 else {
        throw DeckError(.unreadableFile, at: source.location, "cannot open the file again to read the media data")
      }
      position = source.offset
      remaining = source.length
      text = .allocate(byteCount: Self.chunk + 4, alignment: 16)
      decoded = .allocate(byteCount: (Self.chunk + 4) / 4 * 3, alignment: 16)
    }

    deinit {
      close(descriptor)
      text.deallocate()
      decoded.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      if decodedStart == decodedEnd && buffer.count >= decoded.count {
        // Nothing left over and room for a whole chunk: decoded straight into the caller's buffer.
        while true {
          guard let produced = try refill(into: buffer) else { return 0 }
          if produced > 0 { return produced }
        }
      }
      while decodedStart == decodedEnd {
        guard let produced = try refill(into: decoded) else { return 0 }
        decodedStart = 0
        decodedEnd = produced
      }
      let count = min(buffer.count, decodedEnd - decodedStart)
      guard count > 0, let target = buffer.baseAddress, let bytes = decoded.baseAddress else { return 0 }
      target.copyMemory(from: bytes + decodedStart, byteCount: count)
      decodedStart += count
      return count
    }

    /// Decodes the next chunk of text into `target` (room for a whole chunk) and returns how
    /// many bytes it made (0 when the chunk was too short to end a group); nil at the end.
    private func refill(into target: UnsafeMutableRawBufferPointer) throws -> Int? {
      guard remaining > 0 else {
        guard carried == 0 else {
          throw DeckError(.corrupt, at: source.location, "not valid base64 (its length is not a multiple of 4)")
        }
        return nil
      }
      let wanted = min(Self.chunk, remaining)
      guard let textStart = text.baseAddress else { return nil }
      let count = pread(descriptor, textStart + carried, wanted, off_t(position))
      guard count > 0 else {
        throw DeckError(.corrupt, at: source.location, "the file ended inside the media data")
      }
      position += count
      remaining -= count
      let available = carried + count
      let usable = available - available % 4
      guard
        let produced = Base64Decoder.decode(
          UnsafeRawBufferPointer(rebasing: text[0..<usable]), isLast: remaining == 0, into: target)
      else {
        throw DeckError(.corrupt, at: source.location, "not valid base64")
      }
      // Keep the characters of an incomplete group for the next chunk.
      carried = available - usable
      if carried > 0 {
        textStart.copyMemory(from: textStart + usable, byteCount: carried)
      }
      return produced
    }
  }
}
