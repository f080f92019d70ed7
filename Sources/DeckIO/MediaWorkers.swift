import DeckCore
import Foundation

/// Makes media files ready on worker threads while their consumer writes its output: each
/// worker takes the next file in order, reads it (hashing it when asked, or when the blob has a
/// declaration still to check, ``MediaBlob/hasPendingCheck``, which it then checks) and encodes it as the
/// output needs it (raw bytes, one zstd frame, compressed or stored, or base64 text), and the
/// consumer takes the results file by file, in order, through ``member(_:)``: an Anki package's
/// archive, or the JSON deck writer.
///
/// Memory stays bounded: encoded bytes are kept in blocks of ``blockBytes`` that are used again
/// once the consumer has read them; a worker starts no new file while the finished files
/// waiting for the consumer hold ``aheadBytes`` or more, and a file whose encoded bytes pass
/// ``memberBytes`` goes on into a scratch file instead of memory. So at most about
/// `aheadBytes + (workers + 1) × memberBytes` is held, however large the files. A zip archive
/// needs a member's size before its bytes, so the consumer takes a file only once it is done.
///
/// A file whose stored form in its source package is already what the package needs is only
/// checked by a worker (read, decoded, hashed); the archive copies it as stored.
///
/// A worker's error is thrown when the consumer reaches that file, so the first failing file
/// in output order is the one reported, as when the files were made one after another.
package final class MediaWorkers: @unchecked Sendable {
  /// How a file's bytes are encoded for the output.
  package enum Encoding: Sendable, Equatable {
    /// The bytes as they are.
    case raw
    /// One zstd frame at this level.
    case zstd(level: Int32)
    /// One zstd frame of stored blocks (``ZstdStoredFrame``), for bytes compressed already.
    case zstdStored
    /// Base64 text (RFC 4648, `+/`, padded), without quotes.
    case base64
  }

  /// What a worker does with one file.
  package enum Job {
    /// Read the file and encode it.
    case encode(Encoding)
    /// Read the file to check it (its zstd frame decodes, the CRC matches), hashing it if
    /// asked; the archive copies the member as it is stored in `zip`.
    case check(zip: ZipReader, member: String)
  }

  /// One file to make ready.
  package struct Item {
    package var blob: MediaBlob
    package var job: Job
    /// Whether the SHA-1 and size of the file's bytes are wanted (a fingerprint the blob
    /// computed from its bytes before is used instead of hashing them again).
    package var hashing: Bool
    /// The output and member, for errors.
    package var location: SourceLocation

    /// An item: `blob`, made ready by `job`, hashed when `hashing`; errors at `location`.
    package init(blob: MediaBlob, job: Job, hashing: Bool, location: SourceLocation) {
      self.blob = blob
      self.job = job
      self.hashing = hashing
      self.location = location
    }
  }

  /// The most bytes of finished files waiting for the consumer before workers wait.
  package static let aheadBytes = 4 << 20
  /// The most bytes of one file held in memory; a larger file goes to a scratch file.
  package static let memberBytes = 2 << 20
  /// The size of the chunks files are read in.
  package static let chunkBytes = 1 << 16
  /// The size of the blocks encoded bytes are kept in.
  package static let blockBytes = 1 << 16

  /// The number of worker threads: one per processor, at most four.
  package static var workerCount: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

  private let items: [Item]
  private let slots: [Slot]
  private let scratch: TemporaryDirectory
  private let progress: ProgressReporter?
  /// Guards `next`, `ahead`, `cancelled` and every slot; workers and the consumer wait on it.
  private let condition = NSCondition()
  private var next = 0
  /// The bytes in blocks of finished files that the consumer has not read yet.
  private var ahead = 0
  private var cancelled = false
  /// Blocks no file uses, to be used again.
  private var freeBlocks: [Block] = []
  private let running = DispatchGroup()

  /// Starts `workers` threads (at most one per item) on `items`, spilling large files into
  /// `scratch` and reporting ``ConversionPhase/copyingMedia`` to `progress`.
  package init(
    _ items: [Item], scratch: TemporaryDirectory, progress: ProgressReporter?, workers: Int = MediaWorkers.workerCount
  ) {
    self.items = items
    self.slots = items.map { _ in Slot() }
    self.scratch = scratch
    self.progress = progress
    progress?.start(.copyingMedia, total: Int64(items.count))
    for _ in 0..<min(max(workers, 1), items.count) {
      running.enter()
      // The thread holds the workers only while it works: once it leaves, they (and the
      // scratch folder they write in) belong to the consumer alone.
      let thread = Thread { [weak self, running] in
        self?.work()
        running.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// Stops the workers (a file being read is abandoned) and waits for them to end. Call it
  /// once the output is written, or failed.
  package func stop() {
    condition.lock()
    let wasCancelled = cancelled
    cancelled = true
    condition.broadcast()
    condition.unlock()
    running.wait()
    if !wasCancelled { progress?.finish(.copyingMedia) }
  }

  /// The consumer's source for file `index`: ``ZipMemberSource/open()`` waits for the file
  /// and says its encoded size, ``ZipMemberSource/read(into:)`` gives its encoded bytes.
  package func member(_ index: Int) -> any ZipMemberSource {
    MemberSource(workers: self, index: index)
  }

  /// The SHA-1 and size of file `index` once it is done, or nil when it was not hashed.
  ///
  /// - Throws: the file's error.
  package func fingerprint(_ index: Int) throws -> (sha1: [UInt8], size: Int64)? {
    try finished(index).fingerprint
  }

  /// The SHA-1 and size of every file, once every file is done; each item must be hashing.
  ///
  /// - Throws: the first file's error, in order.
  package func fingerprints() throws -> [(sha1: [UInt8], size: Int64)] {
    try slots.indices.map { index in
      guard let fingerprint = try finished(index).fingerprint else {
        throw DeckError(
          .invalidRequest, at: items[index].location, "the media file was made ready without its SHA-1 (not hashed)")
      }
      return fingerprint
    }
  }

  // MARK: - Workers

  /// A block of encoded bytes: ``blockBytes`` of room, `count` of them used.
  private final class Block {
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: MediaWorkers.blockBytes, alignment: 16)
    var count = 0
    deinit { storage.deallocate() }
  }

  /// The bytes made for one file.
  private final class Slot {
    var done = false
    var failure: (any Error)?
    /// The SHA-1 and size of the file's bytes, or nil when not hashed.
    var fingerprint: (sha1: [UInt8], size: Int64)?
    /// The encoded bytes held in memory, in order, and how many of the blocks the consumer took.
    var blocks: [Block] = []
    var taken = 0
    /// The scratch file holding the encoded bytes of a file larger than ``memberBytes``.
    var spillPath: String?
    /// The number of encoded bytes.
    var encodedSize: UInt64 = 0
  }

  private func work() {
    // One compressor per level this worker meets: it starts a new frame after each file.
    var compressors: [Int32: ZstdCompressor] = [:]
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 16)
    defer { buffer.deallocate() }
    while let index = nextIndex() {
      let slot = slots[index]
      let result = Result { try make(index, compressors: &compressors, buffer: buffer) }
      condition.lock()
      switch result {
      case .success(let output):
        slot.fingerprint = output.fingerprint
        slot.blocks = output.blocks
        slot.spillPath = output.spillPath
        slot.encodedSize = output.size
        ahead += output.blocks.count * Self.blockBytes
      case .failure(let error):
        slot.failure = error
      }
      slot.done = true
      condition.broadcast()
      condition.unlock()
      progress?.advance(.copyingMedia)
    }
  }

  /// The next file to make, once there is room for it; nil when there is none or on ``stop()``.
  private func nextIndex() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled && next < items.count && ahead >= Self.aheadBytes { condition.wait() }
    guard !cancelled, next < items.count else { return nil }
    next += 1
    return next - 1
  }

  private var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// What a worker made of one file.
  private struct Output {
    var fingerprint: (sha1: [UInt8], size: Int64)?
    var blocks: [Block] = []
    var spillPath: String?
    var size: UInt64 = 0
  }

  /// A block no file uses.
  private func freeBlock() -> Block {
    condition.lock()
    defer { condition.unlock() }
    return freeBlocks.popLast() ?? Block()
  }

  /// Makes `blocks` free again; those of a finished file (`published`) no longer count as ahead.
  private func recycle(_ blocks: [Block], published: Bool) {
    guard !blocks.isEmpty else { return }
    condition.lock()
    for block in blocks {
      block.count = 0
      freeBlocks.append(block)
    }
    if published {
      let wasFull = ahead >= Self.aheadBytes
      ahead -= blocks.count * Self.blockBytes
      // Workers wait only for room (``nextIndex()``): they are woken when there is room again,
      // not for every block the consumer reads.
      if wasFull && ahead < Self.aheadBytes { condition.broadcast() }
    }
    condition.unlock()
  }

  /// Reads file `index` and encodes it (or only checks it), without touching shared state.
  private func make(
    _ index: Int, compressors: inout [Int32: ZstdCompressor], buffer: UnsafeMutableRawBufferPointer
  ) throws -> Output {
    let item = items[index]
    var output = Output()
    guard case .encode(let encoding) = item.job else {
      output.fingerprint = try read(item, hashing: item.hashing, buffer: buffer) { _ in }
      return output
    }
    var spill: ScratchFile?
    defer {
      if let spill { try? spill.close() }
      recycle(output.blocks, published: false)
    }
    func keep(_ bytes: UnsafeRawBufferPointer) throws {
      guard bytes.count > 0 else { return }
      output.size += UInt64(bytes.count)
      if spill == nil && output.size > UInt64(Self.memberBytes) {
        let path = scratch.path(for: "media-\(index)")
        let file = try ScratchFile(path: path, location: item.location)
        spill = file
        output.spillPath = path
        for block in output.blocks { try file.write(UnsafeRawBufferPointer(rebasing: block.storage[0..<block.count])) }
        recycle(output.blocks, published: false)
        output.blocks = []
      }
      if let spill { return try spill.write(bytes) }
      var rest = bytes
      while !rest.isEmpty {
        if output.blocks.last.map({ $0.count == Self.blockBytes }) ?? true { output.blocks.append(freeBlock()) }
        let block = output.blocks[output.blocks.count - 1]
        let count = min(rest.count, Self.blockBytes - block.count)
        UnsafeMutableRawBufferPointer(rebasing: block.storage[block.count..<(block.count + count)])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[rest.startIndex..<(rest.startIndex + count)]))
        block.count += count
        rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + count)...])
      }
    }
    // A fingerprint already computed from the bytes (the JSON reader's check) is not computed
    // again; a blob whose declaration is still to be checked is hashed whether or not the output
    // needs its SHA-1, and checked as the file is done (the one read of its bytes).
    let known = item.blob.computedFingerprint
    let checking = item.blob.hasPendingCheck
    var base64 = Base64Encoder()
    var storedFrame = ZstdStoredFrame()
    let compressor: ZstdCompressor?
    if case .zstd(let level) = encoding {
      let made = compressors[level] ?? ZstdCompressor(level: level)
      compressors[level] = made
      compressor = made
    } else {
      compressor = nil
    }
    let hashed = try read(item, hashing: (item.hashing || checking) && known == nil, buffer: buffer) { chunk in
      switch encoding {
      case .raw: try keep(chunk)
      case .zstd: try compressor?.compress(chunk, into: keep)
      case .zstdStored: try storedFrame.write(chunk, into: keep)
      case .base64: try base64.encode(chunk, into: keep)
      }
    }
    if let hashed { try item.blob.recordComputed(sha1: hashed.sha1, size: hashed.size) }
    output.fingerprint = item.hashing ? hashed ?? known : nil
    switch encoding {
    case .raw: break
    case .zstd: try compressor?.finish(into: keep)
    case .zstdStored: try storedFrame.finish(into: keep)
    case .base64: try base64.finish(into: keep)
    }
    try spill?.close()
    spill = nil
    // Handed over whole: the deferred recycling must not free them.
    let made = output
    output.blocks = []
    return made
  }

  /// Reads the item's blob front to back, handing each chunk to `body`, and returns the SHA-1
  /// and size of its bytes when `hashing`. Stops with `CancellationError` on ``stop()``.
  private func read(
    _ item: Item, hashing: Bool, buffer: UnsafeMutableRawBufferPointer,
    _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> (sha1: [UInt8], size: Int64)? {
    var hasher = hashing ? SHA1() : nil
    var size: Int64 = 0
    do {
      let reader = try item.blob.source.openReader()
      while true {
        if isCancelled { throw CancellationError() }
        let count = try reader.checkedRead(into: buffer)
        if count == 0 { break }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        hasher?.update(chunk)
        size += Int64(count)
        try body(chunk)
      }
    } catch let error as DeckError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw DeckError(.unreadableFile, at: item.location, "cannot read the media file from its source (\(error))")
    }
    guard var hasher else { return nil }
    return (hasher.finalize(), size)
  }

  // MARK: - The consumer's side

  /// Waits until file `index` is done and returns its slot.
  ///
  /// - Throws: the file's error; `CancellationError` when the work is no longer wanted.
  private func finished(_ index: Int) throws -> Slot {
    try Cancellation.check()
    let slot = slots[index]
    condition.lock()
    defer { condition.unlock() }
    while !slot.done { condition.wait() }
    if let failure = slot.failure { throw failure }
    return slot
  }

  /// Hands the next block of file `index` over to the consumer, or nil when none is left.
  private func takeBlock(_ index: Int) -> Block? {
    let slot = slots[index]
    condition.lock()
    defer { condition.unlock() }
    guard slot.taken < slot.blocks.count else { return nil }
    slot.taken += 1
    return slot.blocks[slot.taken - 1]
  }

  /// Drops what is left of file `index` (the consumer has read it, or gave up), and its blocks
  /// the consumer has not given back.
  private func release(_ index: Int) {
    let slot = slots[index]
    condition.lock()
    let left = Array(slot.blocks[slot.taken...])
    slot.blocks = []
    slot.taken = 0
    let spillPath = slot.spillPath
    slot.spillPath = nil
    condition.unlock()
    recycle(left, published: true)
    if let spillPath { try? FileManager.default.removeItem(atPath: spillPath) }
  }

  /// File `index` as the consumer reads it.
  private final class MemberSource: ZipMemberSource {
    let workers: MediaWorkers
    let index: Int
    private var spill: FileByteSource?
    private var copy: ZipEntryStream?
    /// The block being read, and how much of it is read.
    private var block: Block?
    private var offset = 0

    init(workers: MediaWorkers, index: Int) {
      self.workers = workers
      self.index = index
    }

    func open() throws -> ZipMemberSourceForm {
      let slot = try workers.finished(index)
      if case .check(let zip, let member) = workers.items[index].job {
        let (stream, form) = try zip.openStored(member)
        copy = stream
        return .compressed(method: form.method, crc: form.crc, size: form.size)
      }
      if let path = slot.spillPath {
        spill = try FileByteSource(path: path, location: workers.items[index].location)
      }
      return .bytes(size: slot.encodedSize)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      if let copy { return try copy.read(into: buffer) }
      if let spill { return try spill.read(into: buffer) }
      while block == nil || offset == block?.count {
        if let used = block { workers.recycle([used], published: true) }
        block = workers.takeBlock(index)
        offset = 0
        if block == nil { return 0 }
      }
      guard let block else { return 0 }
      let count = min(buffer.count, block.count - offset)
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: block.storage[offset..<(offset + count)]))
      offset += count
      return count
    }

    func close() {
      copy?.close()
      copy = nil
      spill = nil
      if let used = block { workers.recycle([used], published: true) }
      block = nil
      offset = 0
      workers.release(index)
    }
  }
}
