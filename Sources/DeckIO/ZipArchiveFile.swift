import CZip
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a ``ZipWriter`` writes, behind libzip's write commands (a libzip function source).
///
/// As with libzip's own file source, the archive is written to a new file beside `path`, which
/// is renamed to `path` once the archive is complete, or removed. Unlike it, writes go through
/// a buffer of ``bufferSize`` bytes: libzip writes in pieces of 8 KiB and goes back to rewrite
/// each member's local header once the member is written, which on a 1 GB archive costs
/// 130,000 `write` calls through a C `FILE` (some 0.6 s in the kernel) against 4,000 here, and
/// the header of a member smaller than the buffer is rewritten in the buffer.
///
/// The archive is always a new one: asked whether a file exists at `path`, the source says no.
final class ZipArchiveFile {
  /// The size of the write buffer.
  static let bufferSize = 1 << 18

  /// The archive's final path.
  let path: String
  /// The file being written, and its path; nil and -1 outside a write.
  private var temporaryPath: String?
  private var descriptor: Int32 = -1
  /// The buffered bytes are those of the file's range `bufferStart ..< bufferStart + bufferCount`.
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ZipArchiveFile.bufferSize, alignment: 16)
  private var bufferStart: Int64 = 0
  private var bufferCount = 0
  /// Where the next write goes, and the file's size so far (buffered bytes included).
  private var position: Int64 = 0
  private var end: Int64 = 0
  /// The error libzip asks for (ZIP_SOURCE_ERROR) after a command failed.
  private var libzipError = zip_error_t()

  init(path: String) {
    self.path = path
    zip_error_init(&libzipError)
  }

  deinit {
    rollback()
    buffer.deallocate()
    zip_error_fini(&libzipError)
  }

  /// A libzip source over a new `ZipArchiveFile` for `path`, or nil with `error` set.
  static func source(path: String, error: inout zip_error_t) -> OpaquePointer? {
    let box = Unmanaged.passRetained(ZipArchiveFile(path: path))
    guard let source = zip_source_function_create(callback, box.toOpaque(), &error) else {
      box.release()
      return nil
    }
    return source
  }

  /// The commands answered. libzip opens a source for writing only if it can also be read
  /// (open, read, seek, tell, stat); those fail, as the archive is always new.
  private static let supported: zip_int64_t = [
    ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
    ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_BEGIN_WRITE, ZIP_SOURCE_COMMIT_WRITE, ZIP_SOURCE_ROLLBACK_WRITE,
    ZIP_SOURCE_WRITE, ZIP_SOURCE_SEEK_WRITE, ZIP_SOURCE_TELL_WRITE, ZIP_SOURCE_SUPPORTS, ZIP_SOURCE_REMOVE,
  ].reduce(0) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }

  /// The C callback libzip calls, with the file as its user data.
  private static let callback: zip_source_callback = { userData, data, length, command in
    guard let userData else { return -1 }
    let box = Unmanaged<ZipArchiveFile>.fromOpaque(userData)
    if command == ZIP_SOURCE_FREE {
      box.release()
      return 0
    }
    return box.takeUnretainedValue().answer(data, length, command)
  }

  private func answer(_ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t, _ command: zip_source_cmd_t)
    -> zip_int64_t
  {
    switch command {
    case ZIP_SOURCE_SUPPORTS:
      return Self.supported
    case ZIP_SOURCE_STAT:
      // "No such file": libzip then makes a new archive.
      return fail(ZIP_ER_READ, ENOENT)
    case ZIP_SOURCE_CLOSE:
      return 0
    case ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL:
      return fail(ZIP_ER_OPNOTSUPP)
    case ZIP_SOURCE_BEGIN_WRITE:
      return beginWrite()
    case ZIP_SOURCE_WRITE:
      guard let data else { return length == 0 ? 0 : fail(ZIP_ER_INVAL) }
      let count = Int(min(length, zip_uint64_t(Int32.max)))
      return write(UnsafeRawBufferPointer(start: data, count: count)) ? zip_int64_t(count) : -1
    case ZIP_SOURCE_SEEK_WRITE:
      guard let data, length >= MemoryLayout<zip_source_args_seek_t>.size else { return fail(ZIP_ER_INVAL) }
      let seek = data.load(as: zip_source_args_seek_t.self)
      let base: Int64
      switch seek.whence {
      case SEEK_SET: base = 0
      case SEEK_CUR: base = position
      case SEEK_END: base = end
      default: return fail(ZIP_ER_INVAL)
      }
      let (target, overflow) = base.addingReportingOverflow(seek.offset)
      guard !overflow, target >= 0 else { return fail(ZIP_ER_INVAL) }
      position = target
      return 0
    case ZIP_SOURCE_TELL_WRITE:
      return position
    case ZIP_SOURCE_COMMIT_WRITE:
      return commit()
    case ZIP_SOURCE_ROLLBACK_WRITE:
      rollback()
      return 0
    case ZIP_SOURCE_REMOVE:
      return unlink(path) == 0 ? 0 : fail(ZIP_ER_REMOVE, errno)
    case ZIP_SOURCE_ERROR:
      guard let data else { return -1 }
      return zip_error_to_data(&libzipError, data, length)
    default:
      return fail(ZIP_ER_OPNOTSUPP)
    }
  }

  /// Creates the new file beside `path`, readable as the process's umask allows (as libzip's).
  private func beginWrite() -> zip_int64_t {
    rollback()
    let folder = (path as NSString).deletingLastPathComponent
    let name = ".\((path as NSString).lastPathComponent).zip-\(UUID().uuidString)"
    let newPath = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    let opened = open(newPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard opened >= 0 else { return fail(ZIP_ER_TMPOPEN, errno) }
    descriptor = opened
    temporaryPath = newPath
    bufferStart = 0
    bufferCount = 0
    position = 0
    end = 0
    return 0
  }

  /// Writes `bytes` at `position`, in the buffer when they join or overlap what it holds.
  private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard descriptor >= 0 else {
      _ = fail(ZIP_ER_WRITE, EBADF)
      return false
    }
    let offset = position - bufferStart
    if bufferCount > 0, offset < 0 || offset > Int64(bufferCount) || offset + Int64(bytes.count) > Int64(buffer.count) {
      guard flush() else { return false }
    }
    if bufferCount == 0 { bufferStart = position }
    if bytes.count > buffer.count {
      guard writeAll(bytes, at: position) else { return false }
    } else if let base = bytes.baseAddress {
      let start = Int(position - bufferStart)
      UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + bytes.count)])
        .copyMemory(from: UnsafeRawBufferPointer(start: base, count: bytes.count))
      bufferCount = max(bufferCount, start + bytes.count)
    }
    position += Int64(bytes.count)
    end = max(end, position)
    return true
  }

  /// Writes the buffered bytes to the file.
  private func flush() -> Bool {
    guard bufferCount > 0 else { return true }
    guard writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<bufferCount]), at: bufferStart) else { return false }
    bufferCount = 0
    return true
  }

  /// `pwrite`s all of `bytes` at `offset`, again after a partial write or an interruption.
  private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
    var done = 0
    while done < bytes.count {
      guard let base = bytes.baseAddress else { return true }
      let written = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + Int64(done)))
      if written < 0 {
        if errno == EINTR { continue }
        _ = fail(ZIP_ER_WRITE, errno)
        return false
      }
      done += written
    }
    return true
  }

  /// Writes what is buffered, closes the file and renames it to `path`.
  private func commit() -> zip_int64_t {
    guard descriptor >= 0, let temporaryPath else { return fail(ZIP_ER_WRITE, EBADF) }
    guard flush() else { return -1 }
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else {
      let code = errno
      rollback()
      return fail(ZIP_ER_WRITE, code)
    }
    guard rename(temporaryPath, path) == 0 else {
      let code = errno
      rollback()
      return fail(ZIP_ER_RENAME, code)
    }
    self.temporaryPath = nil
    return 0
  }

  /// Closes and removes the file being written, if any.
  private func rollback() {
    if descriptor >= 0 {
      _ = close(descriptor)
      descriptor = -1
    }
    if let temporaryPath {
      unlink(temporaryPath)
      self.temporaryPath = nil
    }
    bufferCount = 0
  }

  private func fail(_ code: Int32, _ systemError: Int32 = 0) -> zip_int64_t {
    zip_error_set(&libzipError, code, systemError)
    return -1
  }
}
