import CZlib
import DeckCore
import Foundation

/// The part of a file that ``ParallelDeflate`` compresses on another thread before the file is
/// complete, when the file's first bytes are known not to change any more: a collection
/// database whose rows are in, while SQLite builds its indexes on the end of the file.
///
/// ```swift
/// let ahead = DeflateAhead(file: database, scratch: partPath, level: 1, location: location)
/// ahead.start(finalBytes: sizeOnceTheRowsAreIn)     // on another thread
/// // ... the rest of the file is written ...
/// let (crc, size) = try ParallelDeflate.compress(file: database, to: deflated, level: 1, ahead: ahead, location: location)
/// ```
///
/// It compresses the ``ParallelDeflate/chunkSize`` chunks after the first that lie wholly within
/// `finalBytes` and are not the last of them, exactly as ``ParallelDeflate`` would (each with
/// the 32 KiB before it as its dictionary), so the stream is the same byte for byte. The first
/// chunk is left out: it holds the file's header, which a database rewrites last. Once the
/// file is complete, ``ParallelDeflate`` compresses the rest and then helps with the chunks
/// not yet taken; before the compressed chunks are used, it reads those bytes of the finished
/// file again and compares their CRC-32 with the one taken here, and if they changed it
/// compresses the whole file again rather than use them.
package final class DeflateAhead: @unchecked Sendable {
  /// What was compressed ahead.
  struct Prepared: Sendable {
    /// The chunks compressed (by index; never the first).
    var chunks: ClosedRange<Int>
    /// The CRC-32 of the chunks' bytes, one after the other.
    var crc: UInt32
    /// The file holding their compressed bytes.
    var path: String
    /// Where in that file each chunk's compressed bytes are, in chunk order.
    var pieces: [(offset: UInt64, count: Int)]
  }

  /// What became of the chunks compressed ahead.
  package enum Outcome: Sendable, Equatable {
    /// Nothing was compressed ahead (no ``start(finalBytes:)``, or a file too small).
    case notStarted
    /// Not yet known: ``ParallelDeflate`` has not finished with them.
    case pending
    /// They are in the stream.
    case used
    /// They were not used and the whole file was compressed again: their bytes changed after
    /// they were compressed, or the work ahead failed.
    case redone
  }

  /// What became of the chunks compressed ahead (for tests and measurements).
  package var outcome: Outcome {
    lock.lock()
    defer { lock.unlock() }
    return queue == nil ? .notStarted : result
  }

  /// Records what ``ParallelDeflate`` did with the chunks.
  func record(_ outcome: Outcome) {
    lock.lock()
    result = outcome
    lock.unlock()
  }

  /// A chunk compressed: where its bytes went, and the CRC-32 of what it holds.
  private struct Piece {
    var offset: UInt64
    var count: Int
    var crc: UInt32
  }

  private let file: String
  private let scratch: String
  private let level: Int32
  private let location: SourceLocation
  private let lock = NSLock()
  // Guarded by `lock`:
  private var queue: (chunks: ClosedRange<Int>, next: Int)?
  private var worker: BackgroundWork<Void>?
  private var output: ScratchFile?
  private var written: UInt64 = 0
  private var pieces: [Int: Piece] = [:]
  private var result = Outcome.pending

  /// Prepares to compress chunks of `file` at zlib `level` into the new file `scratch`.
  package init(file: String, scratch: String, level: Int32, location: SourceLocation) {
    self.file = file
    self.scratch = scratch
    self.level = level
    self.location = location
  }

  /// The chunks (by index) that can be compressed once the first `finalBytes` bytes are known:
  /// every chunk after the first that ends before `finalBytes` (so it is not the file's last,
  /// which ends the stream).
  static func chunks(finalBytes: UInt64) -> ClosedRange<Int>? {
    let size = UInt64(ParallelDeflate.chunkSize)
    let whole = (finalBytes + size - 1) / size
    guard whole >= 3 else { return nil }
    return 1...Int(whole - 2)
  }

  /// Starts compressing, on a new thread, the chunks that lie within the first `finalBytes`
  /// bytes of the file (see ``chunks(finalBytes:)``). Call it once; without a call, or for a
  /// file too small or a scratch file that cannot be made, nothing is compressed ahead.
  package func start(finalBytes: UInt64) {
    guard let chunks = Self.chunks(finalBytes: finalBytes),
      let output = try? ScratchFile(path: scratch, location: location)
    else { return }
    lock.lock()
    queue = (chunks, chunks.lowerBound)
    self.output = output
    worker = BackgroundWork { [self] in try compressUntaken() }
    lock.unlock()
  }

  /// The chunks compressed ahead, or nil when nothing was started.
  var chunks: ClosedRange<Int>? {
    lock.lock()
    defer { lock.unlock() }
    return queue?.chunks
  }

  /// Compresses on the calling thread the chunks no thread has taken yet, waits for the other
  /// thread's, and returns what was compressed; nil when nothing was started.
  func finish() throws -> Prepared? {
    lock.lock()
    let started = queue?.chunks
    let worker = self.worker
    lock.unlock()
    guard let chunks = started, let worker else { return nil }
    try compressUntaken()
    try worker.wait()
    lock.lock()
    defer { lock.unlock() }
    try output?.close()
    output = nil
    var crc: UInt32 = 0
    var ordered: [(offset: UInt64, count: Int)] = []
    for index in chunks {
      guard let piece = pieces[index] else { return nil }
      crc = CRC32.combine(crc, piece.crc, secondCount: UInt64(ParallelDeflate.chunkSize))
      ordered.append((piece.offset, piece.count))
    }
    return Prepared(chunks: chunks, crc: crc, path: scratch, pieces: ordered)
  }

  /// The next chunk no thread has taken, now taken; nil when none is left.
  private func take() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard let (chunks, next) = queue, next <= chunks.upperBound else { return nil }
    queue = (chunks, next + 1)
    return next
  }

  /// Takes and compresses chunks until none is left.
  private func compressUntaken() throws {
    let size = ParallelDeflate.chunkSize
    let window = ParallelDeflate.windowSize
    let input = try FileByteSource(path: file, location: location)
    while let index = take() {
      try Cancellation.check()
      try input.seek(to: UInt64(index * size - window))
      let dictionary = try ParallelDeflate.readChunk(from: input, size: window)
      let chunk = try ParallelDeflate.readChunk(from: input)
      guard dictionary.count == window, chunk.count == size else {
        throw DeckError(.writeFailed, at: location, "cannot compress the file: it ended before the bytes said final")
      }
      let deflated = try ParallelDeflate.deflate(
        chunk, dictionary: dictionary, level: level, last: false, location: location)
      let crc = CRC32.of(chunk)
      lock.lock()
      defer { lock.unlock() }
      guard let output else { return }
      try deflated.withUnsafeBytes { try output.write($0) }
      pieces[index] = Piece(offset: written, count: deflated.count, crc: crc)
      written += UInt64(deflated.count)
    }
  }
}
