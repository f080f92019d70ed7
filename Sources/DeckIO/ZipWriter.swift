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
/// The archive is written to a temporary file beside `path` (through a buffer: see
/// ``ZipArchiveFile``) and renamed to `path` on close, with the members in the order they were
/// added. Files added with ``addFile(name:fromPath:compression:)`` are
/// read only then, so they must stay in place until ``close()``; members added with
/// ``addStream(name:compression:from:)`` are read from their ``ZipMemberSource`` only then, so
/// their bytes may still be in the making when the archive is closed. Every call holds one lock.
package final class ZipWriter: @unchecked Sendable {
  /// The archive being written, for errors.
  package let location: SourceLocation
  private let path: String
  /// libzip's archive handle; nil once closed.
  private var archive: OpaquePointer?
  private var entryCount = 0
  private let lock = NSLock()
  /// The first error a member source threw while the archive was written.
  private let failures = SourceFailures()

  /// Creates (or truncates) the archive at `path`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` with libzip's message when it cannot be created.
  package init(path: String, location: SourceLocation) throws {
    self.path = path
    self.location = location
    var error = zip_error_t()
    zip_error_init(&error)
    defer { zip_error_fini(&error) }
    guard let file = ZipArchiveFile.source(path: path, error: &error) else {
      throw DeckError(.writeFailed, at: location, "cannot create the zip archive (\(LibzipError.message(error)))")
    }
    guard let archive = zip_open_from_source(file, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
      zip_source_free(file)
      throw DeckError(.writeFailed, at: location, "cannot create the zip archive (\(LibzipError.message(error)))")
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

  /// Adds member `name` whose bytes `source` gives when the archive is closed (see
  /// ``ZipMemberSource``), stored or compressed as `compression` says; bytes the source gives
  /// already compressed are copied as they are when `compression` has their method.
  ///
  /// When the source throws, ``close()`` fails with that error.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when libzip refuses the member.
  package func addStream(name: String, compression: ZipCompression, from source: any ZipMemberSource) throws {
    try add(name: name, compression: .compression(compression), source: source)
  }

  /// Adds member `name` whose bytes are those of member `member` of the archive `reader` has
  /// open, copied as they are stored there (still compressed, with the same method and CRC)
  /// when the archive is closed: nothing is decompressed or compressed again.
  ///
  /// `reader` is kept open until ``close()``; it may be used from other threads meanwhile.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` naming the source member when it is absent;
  ///   ``DeckError/Kind/writeFailed`` when libzip refuses the member.
  package func addMember(name: String, copying member: String, from reader: ZipReader) throws {
    let (_, method) = try reader.storage(of: member)
    try add(name: name, compression: .copied(method: method), source: StoredMemberCopy(reader: reader, member: member))
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
  /// libzip asks between chunks whether the work is still wanted (``Cancellation``), so a
  /// large archive stops within moments of a cancellation, also while it copies members from
  /// another archive.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` with libzip's message, or `CancellationError`; the
  ///   archive is then discarded.
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
    zip_register_cancel_callback_with_state(archive, { _, _ in Cancellation.isRequested ? 1 : 0 }, nil, nil)
    // libzip reads every member's bytes now, from files, buffers and member sources.
    guard zip_close(archive) == 0 else {
      let message = LibzipError.message(archive: archive)
      zip_discard(archive)
      if Cancellation.isRequested { throw CancellationError() }
      // A member source's own error says what went wrong better than libzip's read error.
      if let failure = failures.first {
        if let failure = failure as? DeckError { throw failure }
        throw DeckError(.writeFailed, at: location, "cannot write the zip archive (\(failure))")
      }
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

  /// Adds a member whose bytes `source` gives, through a libzip function source.
  private func add(name: String, compression: Storage, source: any ZipMemberSource) throws {
    try add(name: name, compression: compression) { [failures] archive in
      let box = Unmanaged.passRetained(SourceBox(source, failures: failures))
      // libzip releases the box (ZIP_SOURCE_FREE) with the source; without a source, do it here.
      guard let libzipSource = zip_source_function(archive, SourceBox.callback, box.toOpaque()) else {
        box.release()
        return nil
      }
      return libzipSource
    }
  }

  /// Adds a member from the libzip source `makeSource` creates, with `compression`.
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

/// The first error thrown by a member source while an archive is written.
private final class SourceFailures: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: (any Error)?

  /// The first error recorded, or nil.
  var first: (any Error)? {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  /// Records `error` unless an earlier one was.
  func record(_ error: any Error) {
    lock.lock()
    if recorded == nil { recorded = error }
    lock.unlock()
  }
}

/// A ``ZipMemberSource`` behind a libzip function source: answers libzip's commands.
private final class SourceBox {
  let source: any ZipMemberSource
  let failures: SourceFailures
  /// What ``ZipMemberSource/open()`` said, once it has been called.
  private var form: ZipMemberSourceForm?
  private var isOpen = false
  /// The error libzip asks for (ZIP_SOURCE_ERROR) after a command failed.
  private var libzipError = zip_error_t()

  init(_ source: any ZipMemberSource, failures: SourceFailures) {
    self.source = source
    self.failures = failures
    zip_error_init(&libzipError)
  }

  deinit {
    closeSource()
    zip_error_fini(&libzipError)
  }

  /// The commands answered: those of a readable source.
  private static let supported: zip_int64_t = [
    ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
    ZIP_SOURCE_SUPPORTS,
  ].reduce(0) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }

  /// The C callback libzip calls, with the box as its user data.
  static let callback: zip_source_callback = { userData, data, length, command in
    guard let userData else { return -1 }
    let box = Unmanaged<SourceBox>.fromOpaque(userData)
    if command == ZIP_SOURCE_FREE {
      box.takeUnretainedValue().closeSource()
      box.release()
      return 0
    }
    return box.takeUnretainedValue().answer(data, length, command)
  }

  private func answer(_ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t, _ command: zip_source_cmd_t)
    -> zip_int64_t
  {
    do {
      switch command {
      case ZIP_SOURCE_SUPPORTS:
        return Self.supported
      case ZIP_SOURCE_OPEN:
        _ = try openSource()
        return 0
      case ZIP_SOURCE_STAT:
        guard let data, length >= MemoryLayout<zip_stat_t>.size else { return fail(ZIP_ER_INVAL) }
        let stat = data.assumingMemoryBound(to: zip_stat_t.self)
        switch try openSource() {
        case .bytes(let size):
          stat.pointee.size = size
          stat.pointee.valid |= zip_uint64_t(ZIP_STAT_SIZE)
        case .compressed(let method, let crc, let size):
          stat.pointee.comp_method = zip_uint16_t(truncatingIfNeeded: method)
          stat.pointee.crc = crc
          stat.pointee.size = size
          stat.pointee.valid |= zip_uint64_t(ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC | ZIP_STAT_SIZE)
        }
        return zip_int64_t(MemoryLayout<zip_stat_t>.size)
      case ZIP_SOURCE_READ:
        guard let data, length > 0, isOpen else { return 0 }
        let count = Int(min(length, zip_uint64_t(Int32.max)))
        return zip_int64_t(try source.read(into: UnsafeMutableRawBufferPointer(start: data, count: count)))
      case ZIP_SOURCE_CLOSE:
        closeSource()
        return 0
      case ZIP_SOURCE_ERROR:
        guard let data else { return -1 }
        return zip_error_to_data(&libzipError, data, length)
      default:
        return fail(ZIP_ER_OPNOTSUPP)
      }
    } catch {
      failures.record(error)
      return fail(ZIP_ER_READ)
    }
  }

  /// Opens the source the first time; later calls give what it said then (libzip asks for
  /// the member's form again after reading it).
  private func openSource() throws -> ZipMemberSourceForm {
    if let form { return form }
    let opened = try source.open()
    form = opened
    isOpen = true
    return opened
  }

  private func closeSource() {
    guard isOpen else { return }
    isOpen = false
    source.close()
  }

  private func fail(_ code: Int32) -> zip_int64_t {
    zip_error_set(&libzipError, code, 0)
    return -1
  }
}

/// A member of another archive, read as it is stored there (``ZipWriter/addMember(name:copying:from:)``).
private final class StoredMemberCopy: ZipMemberSource {
  let reader: ZipReader
  let member: String
  private var stream: ZipEntryStream?

  init(reader: ZipReader, member: String) {
    self.reader = reader
    self.member = member
  }

  func open() throws -> ZipMemberSourceForm {
    let (stream, form) = try reader.openStored(member)
    self.stream = stream
    return .compressed(method: form.method, crc: form.crc, size: form.size)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try stream?.read(into: buffer) ?? 0
  }

  func close() {
    stream?.close()
    stream = nil
  }
}
