import Foundation

/// Bytes already in memory, served front to back: DeckIO's `ByteSource` over them, and the reader
/// of an ``InMemoryMediaSource``.
package struct DataByteSource {
  /// The bytes served.
  package let data: Data
  /// How many bytes have been served so far.
  package private(set) var position = 0

  /// Creates a source that serves `data` from its first byte.
  package init(_ data: Data) {
    self.data = data
  }

  /// Copies the next bytes of `data` into `buffer`; returns 0 once all were served.
  package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(buffer.count, data.count - position)
    guard count > 0 else { return 0 }
    let start = data.startIndex + position
    data.copyBytes(to: buffer, from: start..<(start + count))
    position += count
    return count
  }
}
