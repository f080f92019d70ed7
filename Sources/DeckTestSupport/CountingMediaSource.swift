import DeckCore
import Foundation

/// Media bytes in memory that count how often they are opened: a test of how many times a
/// writer or a check reads a file.
public struct CountingMediaSource: MediaSource {
  /// The bytes.
  public let data: Data
  /// How often ``openReader()`` was called.
  public let opened = CallCounter()

  /// A source over `data`, opened no times yet.
  public init(data: Data) {
    self.data = data
  }

  public func openReader() throws -> any MediaByteReader {
    opened.add()
    return try InMemoryMediaSource(data: data).openReader()
  }
}
