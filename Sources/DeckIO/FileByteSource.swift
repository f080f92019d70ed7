import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``ByteSource`` that reads a file from disk front to back.
///
/// It holds an open C `FILE` and closes it when released. Use it from one thread at a time.
package final class FileByteSource: ByteSource {
  /// The file being read, for errors.
  package let location: SourceLocation
  private var file: UnsafeMutablePointer<FILE>?

  /// Opens the file at `path` for reading.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the file is missing, is a directory or
  ///   cannot be opened.
  package init(path: String, location: SourceLocation) throws {
    self.location = location
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (it is a directory)")
    }
    guard let file = fopen(path, "rb") else {
      throw DeckError(.unreadableFile, at: location, "cannot open the file (\(CError.message()))")
    }
    self.file = file
  }

  deinit {
    if let file { fclose(file) }
  }

  /// Moves to byte `offset` of the file, where the next read starts.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the operating system refuses.
  package func seek(to offset: UInt64) throws {
    guard let file, fseeko(file, off_t(clamping: offset), SEEK_SET) == 0 else {
      throw DeckError(.unreadableFile, at: location, "cannot move to byte \(offset) of the file (\(CError.message()))")
    }
  }

  /// Reads the next bytes of the file; returns 0 at its end.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the operating system reports a read error.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let file, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let count = fread(base, 1, buffer.count, file)
    if count == 0 && ferror(file) != 0 {
      let message = CError.message()
      clearerr(file)
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(message))")
    }
    return count
  }
}
