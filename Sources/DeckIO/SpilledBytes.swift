import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Large byte values kept out of the process's own memory: written to a private temporary file,
/// which is unlinked at once, and mapped read-only.
///
/// App records carry pictures as `Data` (`AppValue.data`), so a deck of 600 MB of
/// images turned into records, or a store whose external-storage files hold 600 MB, held all of
/// it in memory, and more than once. A mapped value costs address space: its pages are the
/// file's, which the kernel reads in when they are touched and drops again when memory is short
/// (on iOS they are clean memory, which does not count against an app's limit). The file is
/// deckport's own and has no name, so nothing else can shorten it under the mapping.
///
/// Values under ``threshold`` bytes, and values made while ``mappingLimit`` mappings are alive,
/// stay in memory, as does any value when the temporary file cannot be made (a full disk): the
/// bytes are the same either way.
package enum SpilledBytes {
  /// Values of fewer bytes stay in memory (Core Data keeps values from 128 KiB in files too).
  package static let threshold = 128 * 1024
  /// At most this many values are mapped at once; Linux allows a process 65,530 mappings by
  /// default, and the rest of the process needs some.
  package static let mappingLimit = 20_000

  private static let lock = NSLock()
  nonisolated(unsafe) private static var liveMappings = 0

  /// The bytes that `fill` passes to its argument chunk by chunk, front to back: mapped from a
  /// temporary file when `size` (what the caller expects them to number) is at least
  /// ``threshold``, in memory otherwise.
  ///
  /// - Throws: what `fill` throws.
  package static func bytes(size: Int64, _ fill: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
    -> Data
  {
    guard size >= Int64(threshold), let spill = Spill.make() else {
      var data = Data()
      try fill { data.append(contentsOf: $0) }
      return data
    }
    var spilled = true
    var data = Data()
    do {
      try fill { chunk in
        // A full disk: the rest, and what the file holds, go to memory instead.
        if spilled, !spill.append(chunk) {
          spilled = false
          data = spill.readBack()
        }
        if !spilled { data.append(contentsOf: chunk) }
      }
    } catch {
      spill.discard()
      throw error
    }
    guard spilled else {
      spill.discard()
      return data
    }
    return spill.mapped()
  }

  /// The bytes of the file at `path`, mapped in place from ``threshold`` bytes, read into memory
  /// below it. Only for deckport's own files (a writer's staging folder): another process that
  /// shortened the file under the mapping would end this one; anything else is copied by
  /// ``bytes(size:_:)`` first.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` at `location` when the file cannot be opened or read.
  package static func mappingOwnFile(atPath path: String, at location: SourceLocation) throws -> Data {
    // Not blocking: a named pipe put in the file's place would otherwise wait for a writer.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw DeckError(.unreadableFile, at: location, "cannot open \(path) (\(String(cString: strerror(errno))))")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw DeckError(.unreadableFile, at: location, "cannot read \(path) (not a regular file)")
    }
    let spill = Spill(descriptor: descriptor, size: Int(info.st_size))
    guard info.st_size >= off_t(threshold), Spill.hasRoom else {
      defer { spill.discard() }
      return spill.readBack()
    }
    return spill.mapped()
  }

  /// An unlinked temporary file being filled, then mapped (or a file of deckport's own).
  private final class Spill {
    private let descriptor: Int32
    private var size: Int

    /// The file open at `descriptor`, of which `size` bytes are filled.
    init(descriptor: Int32, size: Int = 0) {
      self.descriptor = descriptor
      self.size = size
    }

    /// Whether fewer than ``mappingLimit`` values are mapped now.
    static var hasRoom: Bool {
      lock.lock()
      defer { lock.unlock() }
      return liveMappings < mappingLimit
    }

    /// A new unlinked temporary file, or nil when none can be made or ``mappingLimit`` values
    /// are mapped already.
    static func make() -> Spill? {
      guard hasRoom else { return nil }
      var template = Array(
        (NSTemporaryDirectory() as NSString).appendingPathComponent("deckport-value-XXXXXX").utf8CString)
      let descriptor = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.map { mkstemp($0) } ?? -1
      }
      guard descriptor >= 0 else { return nil }
      let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      TemporaryItems.register(path)
      unlink(path)
      TemporaryItems.unregister(path)
      return Spill(descriptor: descriptor)
    }

    /// Appends `chunk`; false when the file cannot take it (its space, its size).
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
      guard let base = chunk.baseAddress else { return true }
      var offset = 0
      while offset < chunk.count {
        let count = write(descriptor, base + offset, chunk.count - offset)
        if count < 0, errno == EINTR { continue }
        // What the file holds of the chunk is not counted: the caller keeps the whole chunk.
        guard count > 0 else { return false }
        offset += count
      }
      size += chunk.count
      return true
    }

    /// What the file holds, read into memory.
    func readBack() -> Data {
      var data = Data(count: size)
      var offset = 0
      data.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        while offset < size {
          let count = pread(descriptor, base + offset, size - offset, off_t(offset))
          if count < 0, errno == EINTR { continue }
          guard count > 0 else { break }
          offset += count
        }
      }
      return offset == size ? data : data.prefix(offset)
    }

    /// The file's bytes, mapped (read into memory when the mapping fails); the file is closed,
    /// the mapping keeps it.
    func mapped() -> Data {
      defer { close(descriptor) }
      guard size > 0 else { return Data() }
      guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
        return readBack()
      }
      lock.lock()
      liveMappings += 1
      lock.unlock()
      return Data(
        bytesNoCopy: address, count: size,
        deallocator: .custom { pointer, count in
          munmap(pointer, count)
          SpilledBytes.lock.lock()
          SpilledBytes.liveMappings -= 1
          SpilledBytes.lock.unlock()
        })
    }

    /// Closes the file unmapped (its space is freed, since it has no name).
    func discard() { close(descriptor) }
  }
}
