import DeckCore
import Foundation

extension Zstd {
  /// `data` compressed into one zstd frame at `level`, without a declared content size (an
  /// empty `data` gives Anki's 9-byte empty frame).
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when zstd fails.
  package static func compress(_ data: Data, level: Int32 = 3) throws -> Data {
    let compressor = ZstdCompressor(level: level)
    var result = Data()
    let append: (UnsafeRawBufferPointer) -> Void = { result.append(contentsOf: $0) }
    try data.withUnsafeBytes { try compressor.compress($0, into: append) }
    try compressor.finish(into: append)
    return result
  }
}
