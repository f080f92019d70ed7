import CDeflate
import DeckCore

/// Inflates a whole raw deflate stream held in memory, with libdeflate, into a buffer of its
/// declared size, and checks it against its declared CRC-32.
///
/// libdeflate inflates an Anki collection about two and a half times as fast as zlib's
/// streaming inflate (13 against 33 ms for the 12.7 MB collection of the large benchmark deck;
/// docs/performance.md), and takes its CRC-32 three times as fast, but it needs the whole
/// compressed stream and the whole output in memory. ``ZipReader/openEntry(_:inflatingWholeUpTo:)``
/// uses it for members small enough for that.
enum WholeInflate {
  /// The bytes of the member whose compressed bytes are `compressed`, which must inflate to
  /// exactly `size` bytes whose CRC-32 is `crc`. The caller deallocates the result.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `location`, "the member is damaged", when the
  ///   stream is not valid deflate data, inflates to fewer or more bytes than `size`, or to
  ///   bytes whose CRC-32 is not `crc`.
  static func inflate(
    _ compressed: UnsafeRawBufferPointer, size: Int, crc: UInt32, location: SourceLocation
  ) throws -> UnsafeMutableRawBufferPointer {
    // One byte more than declared, so that a stream longer than declared is told apart from
    // one of exactly the declared size.
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 16)
    do {
      guard let decompressor = libdeflate_alloc_decompressor() else {
        throw DeckError(.corrupt, at: location, "cannot inflate the member (out of memory)")
      }
      defer { libdeflate_free_decompressor(decompressor) }
      var produced = 0
      let result = libdeflate_deflate_decompress(
        decompressor, compressed.baseAddress, compressed.count, output.baseAddress, output.count, &produced)
      switch result {
      case LIBDEFLATE_SUCCESS where produced == size:
        break
      case LIBDEFLATE_SUCCESS where produced < size:
        throw DeckError(
          .corrupt, at: location,
          "the member is damaged: it inflates to \(produced) bytes, not the \(size) its directory entry declares")
      case LIBDEFLATE_SUCCESS, LIBDEFLATE_INSUFFICIENT_SPACE:
        throw DeckError(
          .corrupt, at: location,
          "the member is damaged: it inflates to more than the \(size) bytes its directory entry declares")
      default:
        throw DeckError(.corrupt, at: location, "the member is damaged (not valid deflate data)")
      }
      guard CRC32.update(0, UnsafeRawBufferPointer(rebasing: output[0..<size])) == crc else {
        throw DeckError(.corrupt, at: location, "the member is damaged (CRC error)")
      }
      return UnsafeMutableRawBufferPointer(rebasing: output[0..<size])
    } catch {
      output.deallocate()
      throw error
    }
  }
}
