import DeckCore

/// A ``ByteSource`` that decompresses the zstd frames another source yields.
///
/// ```swift
/// let media = ZstdDecompressingReader(source: try zip.openEntry("0"), limit: 1 << 30,
///                                     location: location.member("0"))
/// ```
///
/// It does not need the frames to declare their content size. Use it from one thread at a time.
package final class ZstdDecompressingReader<Source: ByteSource>: ByteSource {
  private var source: Source
  private let decoder: ZstdDecoder

  /// Creates a reader that decompresses what `source` yields, up to `limit` bytes; errors
  /// name `location`.
  package init(source: Source, limit: Int64, location: SourceLocation) {
    self.source = source
    self.decoder = ZstdDecoder(limit: limit, location: location)
  }

  /// The number of decompressed bytes returned so far.
  package var bytesProduced: Int64 { decoder.produced }

  /// Reads the next decompressed bytes; returns 0 after the last frame.
  ///
  /// - Throws: ``DeckError`` at the reader's location: ``DeckError/Kind/wrongFormat`` `not a
  ///   zstd frame (Unknown frame descriptor)`, ``DeckError/Kind/corrupt`` `zstd frame is
  ///   truncated` or a damaged frame, ``DeckError/Kind/limitExceeded``; and the source's errors.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try decoder.read(into: buffer) { try source.read(into: $0) }
  }
}
