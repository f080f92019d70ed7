import CZlib
import DeckCore
import Dispatch
import Foundation

/// Deflates a file on several threads into one raw deflate stream (zip method 8), as `pigz`
/// does: the file is cut into chunks of ``chunkSize`` bytes, each chunk is compressed on its own
/// with the 32 KiB before it as its dictionary (so it finds the matches one stream would), and
/// ends on a byte boundary with an empty stored block (a sync flush), so the chunks joined are
/// one stream; the last one ends it.
///
/// ```swift
/// let (crc, size) = try ParallelDeflate.compress(file: database, to: deflated, level: 1, location: location)
/// ```
///
/// The stream depends on the chunk size and the level, not on the number of threads. At most
/// `threads + 1` chunks and the output of `threads` are in memory at once.
package enum ParallelDeflate {
  /// The size of the chunks compressed independently.
  package static let chunkSize = 1 << 20
  /// The size of a deflate window: the dictionary each chunk starts from.
  static let windowSize = 1 << 15

  /// Compresses the file at `source` into a new file at `destination` as one raw deflate
  /// stream at zlib `level` (1 fastest to 9 smallest), `threads` chunks at a time (by default
  /// one per processor, at most four), calling
  /// `progress` with the fraction done after each round of chunks.
  ///
  /// - Returns: the CRC-32 and size of the file's bytes, as a zip directory records them.
  /// - Throws: ``DeckError/Kind/unreadableFile`` when `source` cannot be read,
  ///   ``DeckError/Kind/writeFailed`` when `destination` cannot be written or zlib fails; errors
  ///   name `location`.
  package static func compress(
    file source: String, to destination: String, level: Int32,
    threads: Int = min(ProcessInfo.processInfo.activeProcessorCount, 4), location: SourceLocation,
    progress: ((Double) -> Void)? = nil
  ) throws -> (crc: UInt32, size: UInt64) {
    let total = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber)?.uint64Value ?? 0
    let input = try FileByteSource(path: source, location: location)
    let output: FileSink
    do {
      output = try FileSink(path: destination)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot create a temporary file at '\(destination)'")
    }
    var crc = crc32(0, nil, 0)
    var size: UInt64 = 0
    var dictionary: [UInt8] = []
    // One chunk is read ahead, to know which chunk is the last. An empty file is one empty chunk.
    var upcoming = try readChunk(from: input)
    var finished = false
    while !finished {
      var chunks: [[UInt8]] = []
      repeat {
        chunks.append(upcoming)
        upcoming = upcoming.isEmpty ? [] : try readChunk(from: input)
      } while chunks.count < max(threads, 1) && !upcoming.isEmpty
      finished = upcoming.isEmpty
      let dictionaries = chunks.indices.map { $0 == 0 ? dictionary : Array(chunks[$0 - 1].suffix(windowSize)) }
      let results = ChunkResults(count: chunks.count)
      let round = chunks
      let isFinal = finished
      DispatchQueue.concurrentPerform(iterations: round.count) { index in
        results.store(
          Result {
            try deflate(
              round[index], dictionary: dictionaries[index], level: level,
              last: isFinal && index == round.count - 1, location: location)
          }, at: index)
      }
      for (chunk, result) in zip(chunks, results.values) {
        let deflated = try result.get()
        crc = crc32_combine(crc, crc32OfBytes(chunk), off_t(chunk.count))
        size += UInt64(chunk.count)
        do {
          try deflated.withUnsafeBytes { try output.write($0) }
        } catch let error as DeckError {
          throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
        }
      }
      dictionary = Array((chunks.last ?? []).suffix(windowSize))
      progress?(total > 0 ? min(Double(size) / Double(total), 1) : 1)
    }
    do {
      try output.close()
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
    }
    return (UInt32(truncatingIfNeeded: crc), size)
  }

  /// The next ``chunkSize`` bytes of `input` (fewer at its end, none past it).
  private static func readChunk(from input: FileByteSource) throws -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    var filled = 0
    try chunk.withUnsafeMutableBytes { buffer in
      while filled < buffer.count {
        let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        if count == 0 { break }
        filled += count
      }
    }
    chunk.removeLast(chunkSize - filled)
    return chunk
  }

  private static func crc32OfBytes(_ bytes: [UInt8]) -> uLong {
    bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
  }

  /// `chunk` as raw deflate blocks after `dictionary`: ended by a sync flush, or by the final
  /// block when `last`.
  private static func deflate(
    _ chunk: [UInt8], dictionary: [UInt8], level: Int32, last: Bool, location: SourceLocation
  ) throws -> [UInt8] {
    var stream = z_stream()
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { throw failure("deflate could not start", location) }
    defer { deflateEnd(&stream) }
    if !dictionary.isEmpty {
      let set = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
      guard set == Z_OK else { throw failure("deflate refused the dictionary", location) }
    }
    // Room for the worst case, and the flush's empty stored block.
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(chunk.count))) + 16)
    var produced = 0
    let status: Int32 = chunk.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        let result = CZlib.deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH)
        produced = out.count - Int(stream.avail_out)
        return result
      }
    }
    guard status == (last ? Z_STREAM_END : Z_OK), stream.avail_in == 0, stream.avail_out > 0 else {
      throw failure("deflate failed (zlib status \(status))", location)
    }
    output.removeLast(output.count - produced)
    return output
  }

  private static func failure(_ message: String, _ location: SourceLocation) -> DeckError {
    DeckError(.writeFailed, at: location, "cannot compress the file: \(message)")
  }
}

/// The compressed chunks of a round, stored from the threads that compress them.
private final class ChunkResults: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Result<[UInt8], any Error>]

  init(count: Int) {
    stored = Array(repeating: .success([]), count: count)
  }

  func store(_ result: Result<[UInt8], any Error>, at index: Int) {
    lock.lock()
    stored[index] = result
    lock.unlock()
  }

  var values: [Result<[UInt8], any Error>] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
