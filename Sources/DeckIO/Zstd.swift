import CZstd
import DeckCore
import Foundation

/// zstd decompression for Anki's frames, which declare no content size, and one-shot
/// compression for writers (see also ``ZstdCompressor``).
package enum Zstd {
  /// Decompresses every zstd frame `source` yields, handing the output to `sink` in chunks,
  /// and returns the total number of decompressed bytes.
  ///
  /// Concatenated frames are decoded in turn; the 9-byte empty frame gives no output.
  ///
  /// - Throws: ``DeckError`` at `location`: ``DeckError/Kind/wrongFormat`` `not a zstd frame
  ///   (Unknown frame descriptor)`; ``DeckError/Kind/corrupt`` `zstd frame is truncated` or
  ///   a damaged frame; ``DeckError/Kind/limitExceeded`` when the output would pass `limit`;
  ///   and the errors of `source` and `sink`.
  @discardableResult
  package static func decompress(
    from source: inout some ByteSource, limit: Int64, location: SourceLocation,
    into sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int64 {
    let decoder = ZstdDecoder(limit: limit, location: location)
    let output = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(ZSTD_DStreamOutSize(), 1 << 16), alignment: 16)
    defer { output.deallocate() }
    while true {
      let count = try decoder.read(into: output) { try source.read(into: $0) }
      if count == 0 { return decoder.produced }
      try sink(UnsafeRawBufferPointer(rebasing: output[0..<count]))
    }
  }

  /// The decompressed bytes of the zstd frames in `data`.
  ///
  /// - Throws: as ``decompress(from:limit:location:into:)``.
  package static func decompress(_ data: Data, limit: Int64, location: SourceLocation) throws -> Data {
    var source = DataByteSource(data)
    var result = Data()
    try decompress(from: &source, limit: limit, location: location) { chunk in
      result.append(contentsOf: chunk)
    }
    return result
  }

  /// Decompresses the zstd frames `source` yields into a new file at `path` and returns the
  /// number of bytes written; after a failure the partial file is removed.
  ///
  /// - Throws: as ``decompress(from:limit:location:into:)``, and
  ///   ``DeckError/Kind/writeFailed`` naming `path`.
  @discardableResult
  package static func decompress(
    from source: inout some ByteSource, toFile path: String, limit: Int64,
    location: SourceLocation
  ) throws -> Int64 {
    try FileSink.writing(to: path) { sink in
      try decompress(from: &source, limit: limit, location: location) { try sink.write($0) }
    }
  }
}
