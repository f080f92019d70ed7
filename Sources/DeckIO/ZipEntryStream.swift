import CZip
import DeckCore

/// The decompressed bytes of one zip member, streamed from a ``ZipReader``.
///
/// Made by ``ZipReader/openEntry(_:inflatingWholeUpTo:)``. It keeps its reader alive and closes
/// the member when released. Each read holds the reader's lock; use one stream from one thread
/// at a time.
///
/// A member libzip streams is inflated (and its CRC-32 checked) by libzip as it is read. A
/// member opened to be inflated whole is read still compressed at the first read, inflated in
/// one go (``WholeInflate``), and then given from memory.
package final class ZipEntryStream: ByteSource {
  /// The archive and member, for errors.
  package let location: SourceLocation
  private let reader: ZipReader
  /// libzip's member handle; nil once closed (or, for a member inflated whole, once read).
  private var file: OpaquePointer?
  /// For a member to be inflated whole: how it is stored; nil once inflated.
  private var pendingWhole: ZipReader.StoredForm?
  /// A member inflated whole: its bytes, and how many of them have been read.
  private var inflated: UnsafeMutableRawBufferPointer?
  private var inflatedOffset = 0

  /// A stream of what libzip reads from `file`.
  init(reader: ZipReader, file: OpaquePointer, location: SourceLocation) {
    self.reader = reader
    self.file = file
    self.location = location
  }

  /// A stream of the member whose compressed bytes libzip reads from `file` (opened with
  /// `ZIP_FL_COMPRESSED`), stored as `form` says (deflate), inflated whole at the first read.
  init(
    reader: ZipReader, compressedFile file: OpaquePointer, inflatingWhole form: ZipReader.StoredForm,
    location: SourceLocation
  ) {
    self.reader = reader
    self.file = file
    self.pendingWhole = form
    self.location = location
  }

  deinit {
    close()
  }

  /// Whether the member is inflated whole (``ZipReader/openEntry(_:inflatingWholeUpTo:)``)
  /// rather than streamed by libzip, until it has been read to its end.
  package var isInflatedWhole: Bool { pendingWhole != nil || inflated != nil }

  /// Reads the next decompressed bytes of the member; returns 0 at its end.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` with libzip's message (`CRC error`,
  ///   `Zlib error: data error`, …), or with what ``WholeInflate`` found, when the member is
  ///   damaged.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    if let form = pendingWhole {
      pendingWhole = nil
      inflated = try inflateWhole(form)
    }
    if let inflated {
      let count = min(buffer.count, inflated.count - inflatedOffset)
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: inflated[inflatedOffset..<inflatedOffset + count]))
      inflatedOffset += count
      if count == 0 { close() }
      return count
    }
    guard let file else { return 0 }
    let result = readFromLibzip(file, into: base, count: buffer.count)
    if let message = result.message {
      close()
      throw DeckError(.corrupt, at: location, "the member is damaged (\(message))")
    }
    if result.count == 0 { close() }
    return Int(result.count)
  }

  /// Closes the member; later reads return 0. Called automatically when released.
  package func close() {
    pendingWhole = nil
    inflated?.deallocate()
    inflated = nil
    guard let file else { return }
    self.file = nil
    reader.withArchive { _ in _ = zip_fclose(file) }
  }

  /// Up to `count` bytes libzip reads from `file` into `base`, or libzip's message.
  private func readFromLibzip(_ file: OpaquePointer, into base: UnsafeMutableRawPointer, count: Int) -> (
    count: Int64, message: String?
  ) {
    reader.withArchive { _ in
      let read = zip_fread(file, base, zip_uint64_t(count))
      return (read, read < 0 ? String(cString: zip_file_strerror(file)) : nil)
    }
  }

  /// Reads the member's compressed bytes, closes the libzip handle and inflates them whole.
  private func inflateWhole(_ form: ZipReader.StoredForm) throws -> UnsafeMutableRawBufferPointer {
    guard let file else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
    defer { close() }
    let compressed = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(form.compressedSize), alignment: 16)
    defer { compressed.deallocate() }
    var filled = 0
    while filled < compressed.count, let start = compressed.baseAddress {
      let (count, message) = readFromLibzip(file, into: start + filled, count: compressed.count - filled)
      if let message { throw DeckError(.corrupt, at: location, "the member is damaged (\(message))") }
      if count == 0 {
        throw DeckError(
          .corrupt, at: location,
          "the member is damaged: its compressed bytes end after \(filled) of the \(form.compressedSize) its directory entry declares"
        )
      }
      filled += Int(count)
    }
    return try WholeInflate.inflate(
      UnsafeRawBufferPointer(compressed), size: Int(form.size), crc: form.crc, location: location)
  }
}
