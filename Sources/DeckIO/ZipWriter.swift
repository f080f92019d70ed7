import CZip
import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new zip archive written with libzip; nothing reaches the disk until ``close()``.
///
/// ```swift
/// let writer = try ZipWriter(path: "out.apkg", location: SourceLocation(file: "out.apkg"))
/// try writer.addData(name: "meta", data: meta, compression: .stored)
/// try writer.close()
/// ```
///
/// libzip writes to a temporary file beside `path` and renames it on close. Files added with
/// ``addFile(name:fromPath:compression:)`` are read only then, so they must stay in place until
/// ``close()``. Every call holds one lock.
package final class ZipWriter: @unchecked Sendable {
  /// The archive being written, for errors.
  package let location: SourceLocation
  private let path: String
  /// libzip's archive handle; nil once closed.
  private var archive: OpaquePointer?
  private var entryCount = 0
  private let lock = NSLock()
  /// Archives members are copied from (``addMember(name:copying:from:)``); libzip reads them
  /// when this archive is closed.
  private var retainedReaders: [ZipReader] = []

  /// Creates (or truncates) the archive at `path`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` with libzip's message when it cannot be created.
  package init(path: String, location: SourceLocation) throws {
    self.path = path
    self.location = location
    var code: Int32 = 0
    guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
      throw DeckError(
        .writeFailed, at: location,
        "cannot create the zip archive (\(LibzipError.message(code: code, systemError: errno)))")
    }
    self.archive = archive
  }

  deinit {
    if let archive { zip_discard(archive) }
  }

  /// Adds member `name` whose bytes are the file at `fromPath`, read when the archive is closed.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` naming `fromPath` when it is not a readable
  ///   file; ``DeckError/Kind/writeFailed`` when libzip refuses the member (for example a
  ///   duplicate name).
  package func addFile(name: String, fromPath: String, compression: ZipCompression) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: fromPath, isDirectory: &isDirectory),
      !isDirectory.boolValue, access(fromPath, R_OK) == 0
    else {
      throw DeckError(
        .unreadableFile, at: SourceLocation(file: fromPath),
        "cannot read the file to add as member '\(name)'")
    }
    try add(name: name, compression: compression) { archive in
      zip_source_file(archive, fromPath, 0, -1)
    }
  }

  /// Adds member `name` whose bytes are those of member `member` of the archive `reader` has
  /// open, copied as they are stored there (still compressed, with the same method and CRC)
  /// when the archive is closed: nothing is decompressed or compressed again.
  ///
  /// `reader` is kept open until ``close()``; use it from no other thread meanwhile.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` naming the source member when it is absent;
  ///   ``DeckError/Kind/writeFailed`` when libzip refuses the member.
  package func addMember(name: String, copying member: String, from reader: ZipReader) throws {
    let (sourceIndex, method) = try reader.storage(of: member)
    try add(name: name, compression: .copied(method: method)) { archive in
      reader.withArchive { source in
        zip_source_zip(archive, source, sourceIndex, zip_flags_t(ZIP_FL_COMPRESSED), 0, -1)
      }
    }
    lock.lock()
    if !retainedReaders.contains(where: { $0 === reader }) { retainedReaders.append(reader) }
    lock.unlock()
  }

  /// Adds member `name` holding `data` (copied now).
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when libzip refuses the member (for example a
  ///   duplicate name).
  package func addData(name: String, data: Data, compression: ZipCompression) throws {
    try add(name: name, compression: compression) { archive in
      // libzip frees the copy (freep = 1) once the archive is written or discarded.
      guard !data.isEmpty else { return zip_source_buffer(archive, nil, 0, 0) }
      guard let copy = malloc(data.count) else { return nil }
      data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
      guard let source = zip_source_buffer(archive, copy, zip_uint64_t(data.count), 1) else {
        free(copy)
        return nil
      }
      return source
    }
  }

  /// Writes the archive to disk and releases it; later calls do nothing.
  ///
  /// An archive with no members is written as the 22-byte empty zip (libzip would write none).
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` with libzip's message; the archive is then
  ///   discarded.
  package func close() throws {
    try close(progress: nil)
  }

  /// ``close()``, calling `progress` with the fraction written (0 to 1) as libzip writes the
  /// archive, at most every 1%.
  package func close(progress: (@Sendable (Double) -> Void)?) throws {
    lock.lock()
    defer { lock.unlock() }
    guard let archive else { return }
    self.archive = nil
    if let progress {
      let box = Unmanaged.passRetained(ProgressBox(progress)).toOpaque()
      zip_register_progress_callback_with_state(
        archive, 0.01,
        { _, fraction, state in
          guard let state else { return }
          Unmanaged<ProgressBox>.fromOpaque(state).takeUnretainedValue().report(fraction)
        },
        { state in
          guard let state else { return }
          Unmanaged<ProgressBox>.fromOpaque(state).release()
        }, box)
    }
    // libzip reads the members copied from other archives now; hold their locks meanwhile.
    for reader in retainedReaders { reader.lock.lock() }
    let closed = zip_close(archive)
    for reader in retainedReaders.reversed() { reader.lock.unlock() }
    retainedReaders = []
    guard closed == 0 else {
      let message = LibzipError.message(archive: archive)
      zip_discard(archive)
      throw DeckError(.writeFailed, at: location, "cannot write the zip archive (\(message))")
    }
    if entryCount == 0 {
      let empty = Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
      do {
        try empty.write(to: URL(fileURLWithPath: path))
      } catch {
        throw DeckError(.writeFailed, at: location, "cannot write the zip archive (\(error.localizedDescription))")
      }
    }
  }

  /// Adds a member from the libzip source `makeSource` creates, with `compression`.
  /// How ``add(name:compression:makeSource:)`` stores a member: as ``ZipCompression`` says, or
  /// with the method of bytes copied compressed from another archive.
  private enum Storage {
    case compression(ZipCompression)
    case copied(method: Int32)
  }

  private func add(
    name: String, compression: ZipCompression, makeSource: (OpaquePointer) -> OpaquePointer?
  ) throws {
    try add(name: name, compression: .compression(compression), makeSource: makeSource)
  }

  private func add(
    name: String, compression: Storage, makeSource: (OpaquePointer) -> OpaquePointer?
  ) throws {
    lock.lock()
    defer { lock.unlock() }
    guard let archive else {
      throw DeckError(.writeFailed, at: location.member(name), "cannot add the member: the archive is already closed")
    }
    guard let source = makeSource(archive) else {
      throw DeckError(
        .writeFailed, at: location.member(name),
        "cannot add the member (\(LibzipError.message(archive: archive)))")
    }
    let index = zip_file_add(archive, name, source, ZIP_FL_ENC_UTF_8)
    guard index >= 0 else {
      let message = LibzipError.message(archive: archive)
      zip_source_free(source)
      throw DeckError(.writeFailed, at: location.member(name), "cannot add the member (\(message))")
    }
    let method: Int32
    let level: UInt32
    switch compression {
    case .compression(.stored):
      method = ZIP_CM_STORE
      level = 0
    case .compression(.deflate(let requested)):
      // Always explicit: libzip's level 0 means 9, which is four times slower than 6.
      method = ZIP_CM_DEFLATE
      level = UInt32(min(max(requested, 1), 9))
    case .copied(let sourceMethod):
      // The method the bytes already have, so libzip copies them without recompressing.
      method = sourceMethod
      level = 0
    }
    guard zip_set_file_compression(archive, zip_uint64_t(index), method, level) == 0 else {
      throw DeckError(
        .writeFailed, at: location.member(name),
        "cannot set the member's compression (\(LibzipError.message(archive: archive)))")
    }
    entryCount += 1
  }
}

/// Holds a progress callback for libzip's C callback.
private final class ProgressBox {
  let report: @Sendable (Double) -> Void
  init(_ report: @escaping @Sendable (Double) -> Void) { self.report = report }
}
