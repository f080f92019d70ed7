import CZlib
import Foundation

/// Inflates a raw DEFLATE stream (no zlib or gzip header), as Core Data stores its model cache.
/// Foundation on Linux has no `decompressed(using:)`, so this calls zlib directly.
package enum RawInflate {
  /// Why inflating failed.
  package struct Failure: Error {
    package var message: String
  }

  /// The inflated bytes of `data`, at most `limit` of them.
  package static func inflate(_ data: Data, limit: Int = 64 << 20) throws(Failure) -> Data {
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw Failure(message: "zlib could not start inflating")
    }
    defer { inflateEnd(&stream) }
    var input = Array(data)
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var status = Z_OK
    let total = input.count
    try input.withUnsafeMutableBufferPointer { (inputBuffer) throws(Failure) in
      stream.next_in = inputBuffer.baseAddress
      stream.avail_in = uInt(total)
      repeat {
        let produced = chunk.withUnsafeMutableBufferPointer { outputBuffer in
          stream.next_out = outputBuffer.baseAddress
          stream.avail_out = uInt(outputBuffer.count)
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
          return outputBuffer.count - Int(stream.avail_out)
        }
        guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
          let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
          throw Failure(message: "not a raw DEFLATE stream (\(reason))")
        }
        output.append(contentsOf: chunk[0..<produced])
        guard output.count <= limit else { throw Failure(message: "inflates to more than \(limit) bytes") }
        if status != Z_STREAM_END && produced == 0 && stream.avail_in == 0 {
          throw Failure(message: "the DEFLATE stream ends early")
        }
      } while status != Z_STREAM_END
    }
    return output
  }
}
