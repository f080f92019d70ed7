import DeckCore
import Foundation

/// Copies a ``ByteSource`` into a file, with a size limit.
package enum FileCopy {
  /// Streams every byte of `source` into a new file at `path` and returns how many were copied.
  ///
  /// The file is created or truncated; after a failure the partial file is removed.
  ///
  /// - Throws: ``DeckError/Kind/limitExceeded`` at `location` when `source` holds more than
  ///   `limit` bytes, the source's own errors, and ``DeckError/Kind/writeFailed`` naming `path`.
  @discardableResult
  package static func copy(
    from source: inout some ByteSource, toFile path: String, limit: Int64,
    location: SourceLocation
  ) throws -> Int64 {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    return try FileSink.writing(to: path) { sink in
      var total: Int64 = 0
      while true {
        let count = try source.read(into: buffer)
        if count == 0 { return total }
        total += Int64(count)
        if total > limit {
          throw DeckError(
            .limitExceeded, at: location,
            "the data is larger than the limit of \(limit) bytes")
        }
        try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      }
    }
  }
}
