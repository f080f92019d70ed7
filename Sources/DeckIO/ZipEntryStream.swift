import CZip
import DeckCore

/// The decompressed bytes of one zip member, streamed from a ``ZipReader``.
///
/// Made by ``ZipReader/openEntry(_:)``. It keeps its reader alive and closes the member when
/// released. Each read holds the reader's lock; use one stream from one thread at a time.
package final class ZipEntryStream: ByteSource {
  /// The archive and member, for errors.
  package let location: SourceLocation
  private let reader: ZipReader
  /// libzip's member handle; nil once closed.
  private var file: OpaquePointer?

  init(reader: ZipReader, file: OpaquePointer, location: SourceLocation) {
    self.reader = reader
    self.file = file
    self.location = location
  }

  deinit {
    close()
  }

  /// Reads the next decompressed bytes of the member; returns 0 at its end.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` with libzip's message (`CRC error`,
  ///   `Zlib error: data error`, …) when the member is damaged.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let file, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let result: (count: Int64, message: String?) = reader.withArchive { _ in
      let count = zip_fread(file, base, zip_uint64_t(buffer.count))
      return (count, count < 0 ? String(cString: zip_file_strerror(file)) : nil)
    }
    if let message = result.message {
      close()
      throw DeckError(.corrupt, at: location, "the member is damaged (\(message))")
    }
    if result.count == 0 { close() }
    return Int(result.count)
  }

  /// Closes the member; later reads return 0. Called automatically when released.
  package func close() {
    guard let file else { return }
    self.file = nil
    reader.withArchive { _ in _ = zip_fclose(file) }
  }
}
