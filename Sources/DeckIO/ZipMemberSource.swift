/// The bytes of a zip member that ``ZipWriter`` reads only while it writes the archive, in
/// ``ZipWriter/close()``, front to back: bytes made meanwhile on other threads (media files
/// compressed by workers, a collection database still being built), or copied from another
/// archive.
///
/// The writer calls ``open()`` when the archive reaches the member, then ``read(into:)`` until
/// it returns 0, then ``close()``; all on the thread that closes the archive. ``close()`` is
/// also called when the archive is discarded or fails without the member having been read.
package protocol ZipMemberSource: AnyObject {
  /// Makes the bytes ready, waiting for them if need be, and says what they are.
  func open() throws -> ZipMemberSourceForm
  /// Copies the next bytes into `buffer` and returns how many; 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
  /// Releases what the source holds; later reads are not made.
  func close()
}

/// What a ``ZipMemberSource`` gives.
package enum ZipMemberSourceForm: Sendable, Equatable {
  /// `size` uncompressed bytes, which the archive stores or compresses as the member's
  /// ``ZipCompression`` says. The size goes into the member's header before the bytes are
  /// written, so it must be exact.
  case bytes(size: UInt64)
  /// Bytes already compressed with zip method `method` (0 stored, 8 deflate), copied as they
  /// are when the member is added with that method; `crc` and `size` are those of the bytes
  /// uncompressed.
  case compressed(method: Int32, crc: UInt32, size: UInt64)
}
