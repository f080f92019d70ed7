import DeckCore
import DeckIO

/// Media bytes that live in a member of an open package, zstd-compressed or not.
///
/// Each reader streams the member from the archive, so no media file is held in memory.
struct ZipMemberMediaSource: MediaSource {
  /// The open package, shared by every media file of the package.
  let zip: ZipReader
  /// The member holding the bytes.
  let member: String
  /// Whether the member holds one zstd frame (Latest packages) rather than the raw bytes.
  let isZstdCompressed: Bool
  /// The package location, for errors.
  let location: SourceLocation
  /// The largest decompressed size accepted.
  let sizeLimit: Int64
  /// What the whole package may unpack to, shared by its media files and collection.
  let budget: UnpackBudget

  func openReader() throws -> any MediaByteReader {
    let entry = try zip.openEntry(member)
    let memberLocation = location.member(member)
    if isZstdCompressed {
      return ByteSourceMediaReader(
        BudgetedByteSource(
          ZstdDecompressingReader(source: entry, limit: sizeLimit, location: memberLocation),
          budget: budget, member: member, location: memberLocation))
    }
    return ByteSourceMediaReader(
      BudgetedByteSource(entry, budget: budget, member: member, location: memberLocation))
  }
}

/// Adapts a ``ByteSource`` to the model's ``MediaByteReader``.
final class ByteSourceMediaReader<Source: ByteSource>: MediaByteReader {
  private var source: Source

  init(_ source: Source) { self.source = source }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try source.read(into: buffer)
  }
}
