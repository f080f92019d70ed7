import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file being written front to back; a failed write removes the partial file.
///
/// Used by ``FileCopy`` and ``Zstd`` to stream into a file. Single-threaded.
package final class FileSink {
  /// The file being written, for errors.
  package let location: SourceLocation
  private let path: String
  private var file: UnsafeMutablePointer<FILE>?

  /// Creates (or truncates) the file at `path`.
  package init(path: String) throws {
    self.path = path
    self.location = SourceLocation(file: path)
    guard let file = fopen(path, "wb") else {
      throw DeckError(.writeFailed, at: location, "cannot create the file (\(CError.message()))")
    }
    self.file = file
  }

  deinit {
    if let file { fclose(file) }
  }

  /// Appends `bytes` to the file.
  package func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let file else {
      throw DeckError(.writeFailed, at: location, "cannot write the file (it is already closed)")
    }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if fwrite(base, 1, bytes.count, file) != bytes.count {
      throw DeckError(.writeFailed, at: location, "cannot write the file (\(CError.message()))")
    }
  }

  /// Flushes and closes the file.
  package func close() throws {
    guard let file else { return }
    self.file = nil
    if fclose(file) != 0 {
      throw DeckError(.writeFailed, at: location, "cannot write the file (\(CError.message()))")
    }
  }

  /// Closes and deletes the partial file after a failure; errors are ignored.
  package func discard() {
    if let file {
      fclose(file)
      self.file = nil
    }
    unlink(path)
  }

  /// Runs `body` with a sink on a new file at `path`, closing it on success and deleting it
  /// when `body` or the close throws.
  package static func writing<Result>(to path: String, _ body: (FileSink) throws -> Result) throws -> Result {
    let sink = try FileSink(path: path)
    do {
      let result = try body(sink)
      try sink.close()
      return result
    } catch {
      sink.discard()
      throw error
    }
  }
}
