import DeckIO
import Foundation

/// Reads a ``ByteSource`` to its end in the tests.
package enum ByteSourceReading {
  /// Every byte `source` gives, read `chunk` bytes at a time (small by default, so that reads
  /// that end mid-buffer are exercised).
  package static func readAll(_ source: inout some ByteSource, chunk: Int = 7) throws -> Data {
    var result = Data()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { return result }
      result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }
}
