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
  /// With `ahead`, the chunks it compressed while the file was being finished are used (after
  /// their bytes are read again and found unchanged) instead of compressed again; the stream is
  /// the same either way.
  ///
  /// - Returns: the CRC-32 and size of the file's bytes, as a zip directory records them.
  /// - Throws: ``DeckError/Kind/unreadableFile`` when `source` cannot be read,
  ///   ``DeckError/Kind/writeFailed`` when `destination` cannot be written or zlib fails; errors
  ///   name `location`.
  package static func compress(
    file source: String, to destination: String, level: Int32,
    threads: Int = min(ProcessInfo.processInfo.activeProcessorCount, 4), ahead: DeflateAhead? = nil,
    location: SourceLocation, progress: ((Double) -> Void)? = nil
  ) throws -> (crc: UInt32, size: UInt64) {
    let total = FileManager.default.fileSize(atPath: source) ?? 0
    if let ahead, let chunks = ahead.chunks,
      let result = try compress(
        file: source, to: destination, around: chunks, of: ahead, level: level, threads: threads, total: total,
        location: location, progress: progress)
    {
      return result
    }
    let input = try FileByteSource(path: source, location: location)
    let output = try sink(at: destination, location: location)
    // One chunk is read ahead, to know which chunk is the last. An empty file is one empty chunk.
    let (crc, size) = try compressRounds(
      from: input, upcoming: try readChunk(from: input), into: output, dictionary: [], offset: 0, total: total,
      level: level, threads: threads, location: location, progress: progress)
    try close(output, location: location)
    return (crc, size)
  }

  /// Compresses the file using the chunks `ahead` compressed (`chunks`): the first chunk and the
  /// chunks after them are compressed here, while `ahead` may still be finishing and another
  /// thread reads the chunks it compressed again to check that they did not change. Returns
  /// nil, having written nothing at `destination`, when they did change or `ahead` failed: the
  /// caller then compresses the whole file, which gives the same stream (or the error of the
  /// file itself).
  private static func compress(
    file source: String, to destination: String, around chunks: ClosedRange<Int>, of ahead: DeflateAhead,
    level: Int32, threads: Int, total: UInt64, location: SourceLocation, progress: ((Double) -> Void)?
  ) throws -> (crc: UInt32, size: UInt64)? {
    let aheadRange = UInt64(chunks.lowerBound * chunkSize)..<UInt64((chunks.upperBound + 1) * chunkSize)
    let check = BackgroundWork { try FileCRC.of(aheadRange, inFileAt: source, location: location) }
    let input = try FileByteSource(path: source, location: location)
    // Not the last chunk: the file goes on past the chunks compressed ahead.
    let first = try readChunk(from: input)
    let firstDeflated = try deflate(first, dictionary: [], level: level, last: false, location: location)

    let restStart = (chunks.upperBound + 1) * chunkSize
    try input.seek(to: UInt64(restStart - windowSize))
    let dictionary = try readChunk(from: input, size: windowSize)
    let restPath = destination + ".rest"
    defer { try? FileManager.default.removeItem(atPath: restPath) }
    let rest = try sink(at: restPath, location: location)
    let (restCRC, size) = try compressRounds(
      from: input, upcoming: try readChunk(from: input), into: rest, dictionary: dictionary,
      offset: UInt64(restStart), total: total, level: level, threads: threads, location: location,
      progress: progress)
    try close(rest, location: location)

    // This thread then helps with the chunks `ahead` has not taken yet.
    guard let prepared = try? ahead.finish(), let checked = try check.wait(), checked == prepared.crc else {
      ahead.record(.redone)
      return nil
    }
    let output = try sink(at: destination, location: location)
    try write(firstDeflated, to: output, location: location)
    try copy(prepared.pieces, of: prepared.path, to: output, location: location)
    try ScratchFile.forEachChunk(ofFileAt: restPath, location: location) {
      try write($0, to: output, location: location)
    }
    try close(output, location: location)
    let aheadBytes = chunks.count * chunkSize
    let headCRC = CRC32.combine(CRC32.of(first), checked, secondCount: UInt64(aheadBytes))
    let crc = CRC32.combine(headCRC, restCRC, secondCount: size - UInt64(restStart))
    ahead.record(.used)
    return (crc, size)
  }

  /// Appends the `pieces` of the file at `path` (offset and byte count each), in order.
  private static func copy(
    _ pieces: [(offset: UInt64, count: Int)], of path: String, to output: FileSink, location: SourceLocation
  ) throws {
    let input = try FileByteSource(path: path, location: location)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    for piece in pieces {
      try input.seek(to: piece.offset)
      var left = piece.count
      while left > 0 {
        let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(left, buffer.count)]))
        guard count > 0 else {
          throw DeckError(.writeFailed, at: location, "cannot read back the temporary file '\(path)'")
        }
        try write(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: output, location: location)
        left -= count
      }
    }
  }

  /// A new file at `path` for a stream.
  private static func sink(at path: String, location: SourceLocation) throws -> FileSink {
    do {
      return try FileSink(path: path)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot create a temporary file at '\(path)'")
    }
  }

  /// Appends `bytes` to a stream's file.
  private static func write<Bytes: ContiguousBytes>(_ bytes: Bytes, to output: FileSink, location: SourceLocation)
    throws
  {
    do {
      try bytes.withUnsafeBytes { try output.write($0) }
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
    }
  }

  /// Flushes and closes a stream's file.
  private static func close(_ output: FileSink, location: SourceLocation) throws {
    do {
      try output.close()
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
    }
  }

  /// Compresses `input` from `upcoming` (the chunk at byte `offset`, already read) to its end,
  /// in rounds of `threads` chunks, appending to `output`; `dictionary` is the 32 KiB before
  /// `upcoming`. Returns the CRC-32 of the bytes compressed and the offset of the file's end.
  private static func compressRounds(
    from input: FileByteSource, upcoming first: [UInt8], into output: FileSink, dictionary before: [UInt8],
    offset: UInt64, total: UInt64, level: Int32, threads: Int, location: SourceLocation,
    progress: ((Double) -> Void)?
  ) throws -> (crc: UInt32, end: UInt64) {
    var crc: UInt32 = 0
    var size = offset
    var dictionary = before
    var upcoming = first
    var finished = false
    while !finished {
      try Cancellation.check()
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
        crc = CRC32.combine(crc, CRC32.of(chunk), secondCount: UInt64(chunk.count))
        size += UInt64(chunk.count)
        try write(deflated, to: output, location: location)
      }
      dictionary = Array((chunks.last ?? []).suffix(windowSize))
      progress?(total > 0 ? min(Double(size) / Double(total), 1) : 1)
    }
    return (crc, size)
  }

  /// The next `chunkSize` bytes of `input` (fewer at its end, none past it).
  static func readChunk(from input: FileByteSource, size chunkSize: Int = chunkSize) throws -> [UInt8] {
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

  /// `chunk` as raw deflate blocks after `dictionary`: ended by a sync flush, or by the final
  /// block when `last`.
  static func deflate(
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
