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
public final class ZipWriter: @unchecked Sendable {
  /// The archive being written, for errors.
  public let location: SourceLocation
  private let path: String
  /// libzip's archive handle; nil once closed.
  private var archive: OpaquePointer?
  private var entryCount = 0
  private let lock = NSLock()

  /// Creates (or truncates) the archive at `path`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` with libzip's message when it cannot be created.
  public init(path: String, location: SourceLocation) throws {
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
  public func addFile(name: String, fromPath: String, compression: ZipCompression) throws {
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

  /// Adds member `name` holding `data` (copied now).
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when libzip refuses the member (for example a
  ///   duplicate name).
  public func addData(name: String, data: Data, compression: ZipCompression) throws {
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
  public func close() throws {
    lock.lock()
    defer { lock.unlock() }
    guard let archive else { return }
    self.archive = nil
    guard zip_close(archive) == 0 else {
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
  private func add(
    name: String, compression: ZipCompression, makeSource: (OpaquePointer) -> OpaquePointer?
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
    case .stored:
      method = ZIP_CM_STORE
      level = 0
    case .deflate(let requested):
      // Always explicit: libzip's level 0 means 9, which is four times slower than 6.
      method = ZIP_CM_DEFLATE
      level = UInt32(min(max(requested, 1), 9))
    }
    guard zip_set_file_compression(archive, zip_uint64_t(index), method, level) == 0 else {
      throw DeckError(
        .writeFailed, at: location.member(name),
        "cannot set the member's compression (\(LibzipError.message(archive: archive)))")
    }
    entryCount += 1
  }
}
