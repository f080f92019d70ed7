import DeckCore
import DeckIO
import Foundation

/// Writes the shared model as an Anki package (`.apkg` or `.colpkg`) that the real Anki imports
/// with every note, card, note type, deck, tag, scheduling state and media file as they are.
///
/// ```swift
/// let writer = AnkiPackageWriter(options: .init(generation: .legacy2, kind: .apkg))
/// let warnings = try writer.write(collection, to: "French.apkg.tmp", reportingAs: "French.apkg")
/// ```
///
/// The collection is always written as a schema-11 database, which every Anki reads and current
/// Anki upgrades on import; the generation decides only the container:
///
/// | generation | members |
/// |---|---|
/// | ``AnkiPackageGeneration/legacy1`` | `collection.anki2` (deflate), JSON `media`, raw files |
/// | ``AnkiPackageGeneration/legacy2`` | `meta` (2), `collection.anki21` (deflate), placeholder `collection.anki2`, raw files, JSON `media` |
/// | ``AnkiPackageGeneration/latest`` | `meta` (3), zstd `collection.anki21b`, placeholder `collection.anki2`, zstd files, zstd protobuf `media` |
///
/// Identity is kept: note, card, note type, deck and option group ids and note GUIDs come from
/// the model; a note without a GUID gets one derived from its content (see ``NoteIdentity``).
/// `col.crt` is the model's ``DeckCollection/creationTime``, so day-based due dates mean what
/// they meant. What the writer refuses or changes is described in ``CollectionValidation``,
/// ``PackageSelection`` and ``MediaPackager``; every change comes back as a warning.
public struct AnkiPackageWriter: Sendable {
  /// What to write.
  public struct Options: Sendable {
    /// The container layout: ``AnkiPackageGeneration/legacy2`` (read by every Anki since 2.1),
    /// ``AnkiPackageGeneration/latest`` (as current Anki writes), or
    /// ``AnkiPackageGeneration/legacy1`` (Anki 2.0's layout, without `meta` or placeholder).
    public var generation: AnkiPackageGeneration
    /// A deck package or a whole-collection backup.
    public var kind: AnkiPackageKind

    /// Creates options.
    public init(generation: AnkiPackageGeneration, kind: AnkiPackageKind) {
      self.generation = generation
      self.kind = kind
    }
  }

  /// The options in force.
  public var options: Options

  /// Creates a writer.
  public init(options: Options) { self.options = options }

  /// Writes `collection` as a complete package at `path`.
  ///
  /// `path` is normally a temporary path that the caller renames to the destination when this
  /// returns (``AtomicOutput``); on failure whatever was written there is incomplete.
  ///
  /// - Parameters:
  ///   - collection: what to write. Media blobs are read once each, streamed into the archive.
  ///   - path: where to write the package; an existing file is replaced.
  ///   - destination: the final path, named in warnings and errors.
  /// - Returns: everything that was left out or changed, each naming its item.
  /// - Throws: ``DeckError`` naming `destination` and the item: ``DeckError/Kind/invalidRequest``
  ///   for content Anki cannot represent (an invalid note type, a note whose field count
  ///   differs from its note type, duplicate ids or GUIDs, an unusable media name),
  ///   ``DeckError/Kind/corrupt`` for option-group settings that cannot be read, and
  ///   ``DeckError/Kind/writeFailed`` when writing fails.
  public func write(_ collection: DeckCollection, to path: String, reportingAs destination: String)
    throws -> [Diagnostic]
  {
    try writePackage(collection, to: path, reportingAs: destination).warnings
  }

  /// What a package holds once written, and what was left out or changed on the way.
  public struct Result: Sendable {
    /// The collection as written: for a deck package without unused note types, decks, option
    /// groups and media; media under the names they were written with.
    public var written: DeckCollection
    /// Everything that was left out or changed, each naming its item.
    public var warnings: [Diagnostic]
  }

  /// Writes `collection` like ``write(_:to:reportingAs:)`` and also returns what was written.
  public func writePackage(_ collection: DeckCollection, to path: String, reportingAs destination: String)
    throws -> Result
  {
    let location = SourceLocation(file: destination)
    let generation = options.generation
    var log = DiagnosticLog()

    var content = try CollectionValidation.validated(collection, location: location, log: &log)
    content = PackageSelection.selected(content, kind: options.kind, location: location, log: &log)
    let deckOptions = try PackageSelection.deckOptionEntries(&content, location: location, log: &log)
    let media = try MediaPackager.entries(
      for: content, media: collection.media, kind: options.kind, location: location, log: &log)

    let scratch = try TemporaryDirectory()
    let collectionLocation = location.member(generation.collectionMember)
    let databasePath = scratch.path(for: "collection.sqlite")
    try CollectionWriter(
      collection: content, deckOptions: deckOptions, kind: options.kind, location: collectionLocation
    ).write(to: databasePath)

    let zip = try ZipWriter(path: path, location: location)
    if let version = metaVersion {
      try zip.addData(name: "meta", data: Data([0x08, version]), compression: .stored)
    }
    switch generation {
    case .legacy1, .legacy2:
      try zip.addFile(name: generation.collectionMember, fromPath: databasePath, compression: .deflate(level: 6))
    case .latest:
      let compressedPath = scratch.path(for: "collection.zst")
      try compress(databasePath, to: compressedPath, location: collectionLocation)
      try zip.addFile(name: generation.collectionMember, fromPath: compressedPath, compression: .stored)
    }
    if generation != .legacy1 {
      let placeholderPath = scratch.path(for: "placeholder.sqlite")
      try PlaceholderDatabase.write(to: placeholderPath, location: location.member("collection.anki2"))
      try zip.addFile(name: "collection.anki2", fromPath: placeholderPath, compression: .stored)
    }
    try MediaPackager.write(media, generation: generation, to: zip, scratch: scratch, location: location)
    try zip.close()
    var written = content
    written.media = media.map { MediaFile(name: $0.name, mimeType: $0.file.mimeType, blob: $0.file.blob) }
    return Result(written: written, warnings: log.finished())
  }

  /// The `meta` member's version (`PackageMetadata.Version`), or nil for the layout without one.
  private var metaVersion: UInt8? {
    switch options.generation {
    case .legacy1: nil
    case .legacy2: 2
    case .latest: 3
    }
  }

  /// Compresses the file at `source` into one zstd frame at `destination`, streaming.
  private func compress(_ source: String, to destination: String, location: SourceLocation) throws {
    let output = try ScratchFile(path: destination, location: location)
    let compressor = ZstdCompressor(level: MediaPackager.zstdLevel, location: location)
    try ScratchFile.forEachChunk(ofFileAt: source, location: location) { chunk in
      try compressor.compress(chunk) { try output.write($0) }
    }
    try compressor.finish { try output.write($0) }
    try output.close()
  }
}
