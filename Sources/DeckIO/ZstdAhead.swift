import CZlib
import DeckCore
import Dispatch
import Foundation

/// A file compressed into one zstd frame, the compression started before the file is complete,
/// once all of it but its end and its first `held` bytes is known: a collection database whose
/// rows are in, while SQLite builds its indexes on the end of the file and will rewrite its
/// header (the first page) last.
///
/// ```swift
/// let ahead = ZstdAhead(file: database, scratch: partPath, held: 4096, level: 3, workers: 2, jobSize: 1 << 20, location: location)
/// ahead.start(finalBytes: sizeOnceTheRowsAreIn)     // on another thread
/// // ... the rest of the file is written ...
/// if try !ahead.finish(to: compressed) { /* compress the whole file another way */ }
/// ```
///
/// One compressor reads the file from byte `held` on: the final part as soon as it is known,
/// the rest once ``finish(to:)`` says the file is complete. Its frame then gets the first `held`
/// bytes, as they are by then, as a raw block before its own blocks: zstd decodes a raw block
/// without changing what the blocks after it refer to (their offsets reach back only into what
/// they compressed, and raw blocks leave the repeat offsets and entropy tables alone), so the
/// frame decodes to the whole file, and it is one ordinary frame as Anki writes them. Before
/// the frame is used, the final part is read again and its CRC-32 compared with the one taken
/// as it was compressed.
package final class ZstdAhead: @unchecked Sendable {
  private let file: String
  private let scratch: String
  private let held: Int
  private let level: Int32
  private let workers: Int32
  private let jobSize: Int32
  private let location: SourceLocation
  private let complete = DispatchSemaphore(value: 0)
  /// Signalled once the final part has been read (for tests, which change it afterwards).
  private let finalPartRead = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var work: (finalBytes: UInt64, task: BackgroundWork<UInt32>)?
  private var cancelled = false

  /// The least final part worth compressing ahead.
  static let minimumFinalBytes: UInt64 = 1 << 20

  /// Prepares to compress `file` into the new file `scratch` at zstd `level`, with `workers`
  /// threads of zstd's own in jobs of `jobSize` bytes (see ``ZstdCompressor``), leaving out its
  /// first `held` bytes (at most 128 KiB, a zstd block) until it is complete.
  package init(
    file: String, scratch: String, held: Int, level: Int32, workers: Int32, jobSize: Int32, location: SourceLocation
  ) {
    self.file = file
    self.scratch = scratch
    self.held = min(max(held, 1), 1 << 17)
    self.level = level
    self.workers = workers
    self.jobSize = jobSize
    self.location = location
  }

  /// Starts compressing, on a new thread, the file's bytes from `held` to `finalBytes`, which
  /// no longer change. Call it once; without a call, or for a final part under 1 MiB, nothing
  /// is done ahead and ``finish(to:)`` answers false.
  package func start(finalBytes: UInt64) {
    guard finalBytes >= Self.minimumFinalBytes, finalBytes > UInt64(held) else { return }
    let task = BackgroundWork { [self] in try compress(finalBytes: finalBytes) }
    lock.lock()
    work = (finalBytes, task)
    lock.unlock()
  }

  /// Once the file is complete: lets the compressor read the rest of it, and writes the whole
  /// frame at `destination`. Returns false, having written nothing, when nothing was started or
  /// the work ahead cannot be used (it failed, or the final part changed after all); the caller
  /// then compresses the file another way.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when `destination` cannot be written.
  package func finish(to destination: String) throws -> Bool {
    lock.lock()
    let started = work
    lock.unlock()
    guard let (finalBytes, task) = started else { return false }
    complete.signal()
    // The final part is read again while the compressor finishes.
    let now = (try? FileCRC.of(UInt64(held)..<finalBytes, inFileAt: file, location: location)) ?? nil
    guard let then = try? task.wait(), let now, now == then else { return false }
    return try splice(into: destination)
  }

  /// Ends the work ahead without using it (the file will not be completed): call it when
  /// writing the file fails, so that the compressor, which waits for the file's end, stops.
  /// Harmless after ``finish(to:)``.
  package func cancel() {
    lock.lock()
    let started = work != nil && !cancelled
    cancelled = true
    lock.unlock()
    if started { complete.signal() }
  }

  /// Waits until the compressor has read the final part (tests change it afterwards).
  func waitForFinalPart() {
    finalPartRead.wait()
    finalPartRead.signal()
  }

  /// The compressor's work: the final part, then, once the file is complete, the rest. Returns
  /// the CRC-32 of the final part as it read it.
  private func compress(finalBytes: UInt64) throws -> UInt32 {
    let compressor = ZstdCompressor(level: level, workers: workers, jobSize: jobSize, location: location)
    let output = try ScratchFile(path: scratch, location: location)
    let input = try FileByteSource(path: file, location: location)
    try input.seek(to: UInt64(held))
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var crc: UInt32 = 0
    var left = finalBytes - UInt64(held)
    var waited = false
    while true {
      let wanted = waited ? buffer.count : Int(min(UInt64(buffer.count), left))
      if wanted == 0 {
        finalPartRead.signal()
        complete.wait()
        lock.lock()
        let stop = cancelled
        lock.unlock()
        if stop { throw CancellationError() }
        waited = true
        continue
      }
      try Cancellation.check()
      let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
      if count == 0 {
        guard waited else {
          throw DeckError(.writeFailed, at: location, "cannot compress the file: it ended before the bytes said final")
        }
        break
      }
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
      if !waited {
        crc = CRC32.update(crc, bytes)
        left -= UInt64(count)
      }
      try compressor.compress(bytes) { try output.write($0) }
    }
    try compressor.finish { try output.write($0) }
    try output.close()
    return crc
  }

  /// Writes at `destination` the compressor's frame with the file's first `held` bytes as a
  /// raw block before its blocks; false when the frame is not one this can do that to.
  private func splice(into destination: String) throws -> Bool {
    let frame = try FileByteSource(path: scratch, location: location)
    var header = [UInt8](repeating: 0, count: ZstdFrameHeader.maximumSize)
    let read = try header.withUnsafeMutableBytes { try frame.read(into: $0) }
    guard let headerSize = ZstdFrameHeader.size(of: header[..<read]) else { return false }
    let first = try FileByteSource(path: file, location: location)
    var heldBytes = [UInt8](repeating: 0, count: held)
    let heldCount = try heldBytes.withUnsafeMutableBytes { try first.read(into: $0) }
    guard heldCount == held else { return false }

    let output = try ScratchFile(path: destination, location: location)
    try header.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<headerSize])) }
    // Block header: not the last block, type 0 (raw), size `held` (little-endian, 3 bytes).
    let blockHeader = UInt32(held) << 3
    let raw = [UInt8(blockHeader & 0xFF), UInt8(blockHeader >> 8 & 0xFF), UInt8(blockHeader >> 16 & 0xFF)]
    try raw.withUnsafeBytes { try output.write($0) }
    try heldBytes.withUnsafeBytes { try output.write($0) }
    try header.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[headerSize..<read])) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try frame.read(into: buffer)
      if count == 0 { break }
      try output.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
    try output.close()
    return true
  }
}

/// The header of a zstd frame (RFC 8878, 3.1.1.1).
enum ZstdFrameHeader {
  /// The longest a frame header can be: magic, descriptor, window, dictionary id, content size.
  static let maximumSize = 4 + 1 + 1 + 4 + 8

  /// The size of the header at the start of `bytes`; nil when they do not start with a zstd
  /// frame header, or it declares a content checksum (which a block added in front would break).
  static func size(of bytes: ArraySlice<UInt8>) -> Int? {
    let bytes = Array(bytes)
    guard bytes.count >= 6, bytes[0..<4] == [0x28, 0xB5, 0x2F, 0xFD] else { return nil }
    let descriptor = bytes[4]
    let contentSizeFlag = descriptor >> 6
    let singleSegment = descriptor & 0x20 != 0
    let checksum = descriptor & 0x04 != 0
    guard !checksum, descriptor & 0x08 == 0 else { return nil }
    let dictionaryBytes = [0, 1, 2, 4][Int(descriptor & 0x03)]
    let contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][Int(contentSizeFlag)]
    let size = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes
    // A single-segment frame's window is its content: a block added in front would not fit.
    guard !singleSegment, size <= bytes.count else { return nil }
    return size
  }
}
