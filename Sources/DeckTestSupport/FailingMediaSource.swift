import DeckCore
import Foundation

/// Media bytes whose reads fail once `failAfter` bytes have been read: a file that breaks part
/// way through, for tests of what a writer reports.
public struct FailingMediaSource: MediaSource {
  /// The bytes read before the failure.
  public let data: Data
  /// How many bytes are read before reads fail.
  public let failAfter: Int

  /// A source over `data` that fails after `failAfter` bytes.
  public init(data: Data, failAfter: Int) {
    self.data = data
    self.failAfter = failAfter
  }

  public func openReader() throws -> any MediaByteReader { Reader(data: data, failAfter: failAfter) }

  private final class Reader: MediaByteReader {
    let data: Data
    let failAfter: Int
    var offset = 0

    init(data: Data, failAfter: Int) {
      self.data = data
      self.failAfter = failAfter
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      if offset >= failAfter { throw CocoaError(.fileReadCorruptFile) }
      let count = min(buffer.count, data.count - offset, failAfter - offset)
      data.withUnsafeBytes {
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)]))
      }
      offset += count
      return count
    }
  }
}
