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
package struct AnkiPackageWriter: Sendable {
  /// What to write.
  package struct Options: Sendable {
    /// The container layout: ``AnkiPackageGeneration/legacy2`` (read by every Anki since 2.1),
    /// ``AnkiPackageGeneration/latest`` (as current Anki writes), or
    /// ``AnkiPackageGeneration/legacy1`` (Anki 2.0's layout, without `meta` or placeholder).
    package var generation: AnkiPackageGeneration
    /// A deck package or a whole-collection backup.
    package var kind: AnkiPackageKind
    /// What to do with notes that share a GUID: refuse (the default), keep the first, or give
    /// the later ones new GUIDs.
    package var duplicateGUIDs: DuplicateGUIDPolicy

    /// Creates options.
    package init(generation: AnkiPackageGeneration, kind: AnkiPackageKind, duplicateGUIDs: DuplicateGUIDPolicy = .fail)
    {
      self.generation = generation
      self.kind = kind
      self.duplicateGUIDs = duplicateGUIDs
    }
  }

  /// The options in force.
  package var options: Options
  /// Where the writer reports what it is doing (writing notes and cards, compressing the
  /// collection, copying media, writing the archive), or nil.
  package var progress: ProgressReporter?
  /// Told the collection ``writePackage(_:to:reportingAs:)`` returns as written, once it is
  /// known and before the archive is finished (``FormatWriteContext``'s `announceWritten`).
  package var announceWritten: (@Sendable (DeckCollection) -> Void)?

  /// Creates a writer.
  package init(options: Options, progress: ProgressReporter? = nil) {
    self.options = options
    self.progress = progress
  }

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
  ///   differs from its note type, duplicate ids, duplicate GUIDs under
  ///   ``DuplicateGUIDPolicy/fail``, an unusable media name),
  ///   ``DeckError/Kind/corrupt`` for option-group settings that cannot be read, and
  ///   ``DeckError/Kind/writeFailed`` when writing fails.
  package func write(_ collection: DeckCollection, to path: String, reportingAs destination: String)
    throws -> [Diagnostic]
  {
    try writePackage(collection, to: path, reportingAs: destination).warnings
  }

  /// What a package holds once written, and what was left out or changed on the way.
  package struct Result: Sendable {
    /// The collection as written: for a deck package without unused note types, decks, option
    /// groups and media; media under the names they were written with.
    package var written: DeckCollection
    /// Everything that was left out or changed, each naming its item.
    package var warnings: [Diagnostic]
  }

  /// Writes `collection` like ``write(_:to:reportingAs:)`` and also returns what was written.
  package func writePackage(_ collection: DeckCollection, to path: String, reportingAs destination: String)
    throws -> Result
  {
    let location = SourceLocation(file: destination)
    var log = DiagnosticLog()
    let checked = try CollectionValidation.validated(
      collection, kind: options.kind, duplicateGUIDs: options.duplicateGUIDs, location: location, log: &log)
    let written: DeckCollection
    do {
      written = try writeChecked(
        checked.collection, media: collection.media, to: path, location: location, log: &log)
    } catch {
      // The checks' own error, if they have one, comes first, as when the steps ran in turn.
      _ = try checked.sideChecks.wait()
      throw error
    }
    log.insert(contentsOf: try checked.sideChecks.wait(), at: checked.sideWarningsPosition)
    return Result(written: written, warnings: log.finished())
  }

  /// Writes `content`, which ``CollectionValidation`` has checked, with `media`, as a package at
  /// `path`, and returns what was written.
  private func writeChecked(
    _ content: DeckCollection, media files: [MediaFile], to path: String, location: SourceLocation,
    log: inout DiagnosticLog
  ) throws -> DeckCollection {
    let generation = options.generation
    var content = PackageSelection.selected(content, kind: options.kind, location: location, log: &log)
    // After the selection, so that only what is written is named.
    FutureTimes.report(content, kind: options.kind, location: location, log: &log)
    let deckOptions = try PackageSelection.deckOptionEntries(&content, location: location, log: &log)
    if options.kind == .apkg {
      DefaultOptionGroupCheck.report(deckOptions, of: content, location: location, log: &log)
    }
    let scratch = try TemporaryDirectory()
    let collectionLocation = location.member(generation.collectionMember)
    // The collection database is built and compressed on a second thread, and the media files
    // made ready on worker threads, while this one writes the archive. The collection member
    // comes last, so the media are written while it is built.
    let finalContent = content
    // The notes' sort fields and checksums are computed on a third thread while the cards go in.
    let sortFields = BackgroundWork { NoteSortFields.of(finalContent.notes, noteTypes: finalContent.noteTypes) }
    let collectionWork = BackgroundWork { [options, progress] in
      try Self.buildCollection(
        CollectionWriter(
          collection: finalContent, deckOptions: deckOptions, kind: options.kind, location: collectionLocation,
          progress: progress, sortFields: { try sortFields.wait() }),
        generation: generation, scratch: scratch, location: collectionLocation, progress: progress)
    }
    var written = content
    do {
      let media = try MediaPackager.entries(
        for: finalContent, media: files, kind: options.kind, location: location, log: &log)
      written.media = media.map { MediaFile(name: $0.name, mimeType: $0.file.mimeType, blob: $0.file.blob) }
      announceWritten?(written)
      try writeArchive(
        media: media, collection: collectionWork, to: path, scratch: scratch, location: location)
    } catch {
      // The database's own error, if it has one, comes first, as when the steps ran in turn.
      _ = try collectionWork.wait()
      throw error
    }
    return written
  }

  /// Writes the archive at `path`: `meta`, the placeholder collection, the media files and
  /// their manifest, and the collection member once `collection` has built it.
  private func writeArchive(
    media: [MediaPackager.Entry], collection: BackgroundWork<CollectionMember>, to path: String,
    scratch: TemporaryDirectory, location: SourceLocation
  ) throws {
    let generation = options.generation
    let zip = try ZipWriter(path: path, location: location)
    if let version = metaVersion {
      try zip.addData(name: "meta", data: Data([0x08, version]), compression: .stored)
    }
    if generation != .legacy1 {
      let placeholderPath = scratch.path(for: "placeholder.sqlite")
      try PlaceholderDatabase.write(to: placeholderPath, location: location.member("collection.anki2"))
      try zip.addFile(name: "collection.anki2", fromPath: placeholderPath, compression: .stored)
    }
    let workers = try MediaPackager.add(
      media, generation: generation, to: zip, scratch: scratch, location: location, progress: progress)
    defer { workers.stop() }
    let collectionCompression: ZipCompression =
      generation == .latest ? .stored : .deflate(level: Int(Self.collectionDeflateLevel))
    try zip.addStream(
      name: generation.collectionMember, compression: collectionCompression,
      from: CollectionMemberSource(collection))
    progress?.start(.writingPackage, total: 1000)
    try zip.close(progress: Self.fractionReporter(progress, .writingPackage))
    progress?.finish(.writingPackage)
  }

  /// A callback setting `phase` (counted in permille) from a fraction, or nil without `progress`.
  private static func fractionReporter(_ progress: ProgressReporter?, _ phase: ConversionPhase)
    -> (@Sendable (Double) -> Void)?
  {
    guard let progress else { return nil }
    return { fraction in progress.set(phase, completed: Int64(fraction * 1000)) }
  }

  /// Where the compressed collection is, ready for the archive.
  fileprivate enum CollectionMember: Sendable {
    /// In a scratch file holding one raw deflate stream, to be copied as the member's deflated
    /// bytes, with the CRC-32 and size of the database (legacy layouts).
    case deflated(path: String, crc: UInt32, size: UInt64)
    /// In a scratch file holding one zstd frame, to be stored (Latest).
    case zstd(path: String)
  }

  /// Writes the collection database and compresses it as `generation` wants: into one raw
  /// deflate stream, on both cores (``ParallelDeflate``; legacy), or into one zstd frame
  /// (Latest). The pages of the rows are compressed while SQLite builds the indexes
  /// (``DeflateAhead``, ``ZstdAhead``), on the core it leaves idle.
  private static func buildCollection(
    _ writer: CollectionWriter, generation: AnkiPackageGeneration, scratch: TemporaryDirectory,
    location: SourceLocation, progress: ProgressReporter?
  ) throws -> CollectionMember {
    let databasePath = scratch.path(for: "collection.sqlite")
    switch generation {
    case .legacy1, .legacy2:
      // The rows' pages are deflated on another thread while SQLite builds the indexes.
      let ahead = DeflateAhead(
        file: databasePath, scratch: scratch.path(for: "collection.deflate-ahead"), level: collectionDeflateLevel,
        location: location)
      var writer = writer
      writer.rowsWritten = { ahead.start(finalBytes: $0) }
      try writer.write(to: databasePath)
      let deflatedPath = scratch.path(for: "collection.deflate")
      progress?.start(.compressingCollection, total: 1000)
      defer { progress?.finish(.compressingCollection) }
      let (crc, size) = try ParallelDeflate.compress(
        file: databasePath, to: deflatedPath, level: collectionDeflateLevel, ahead: ahead, location: location,
        progress: fractionReporter(progress, .compressingCollection))
      return .deflated(path: deflatedPath, crc: crc, size: size)
    case .latest:
      // The rows' pages are compressed while SQLite builds the indexes, into the frame the
      // header page joins at the end (or, if that cannot be used, the file in one go).
      let ahead = ZstdAhead(
        file: databasePath, scratch: scratch.path(for: "collection.zst-ahead"), held: CollectionWriter.pageSize,
        level: collectionZstdLevel, workers: collectionZstdWorkers, jobSize: collectionZstdJobSize, location: location)
      defer { ahead.cancel() }
      var writer = writer
      writer.rowsWritten = { ahead.start(finalBytes: $0) }
      try writer.write(to: databasePath)
      let compressedPath = scratch.path(for: "collection.zst")
      progress?.start(.compressingCollection, total: 1000)
      let finished = try ahead.finish(to: compressedPath)
      progress?.finish(.compressingCollection)
      if !finished { try compress(databasePath, to: compressedPath, location: location, progress: progress) }
      return .zstd(path: compressedPath)
    }
  }

  /// The deflate level of a legacy collection member. Level 1 is five times as fast as zlib's
  /// default 6 on an Anki collection, for a member about 12% larger (a 62 MB collection of
  /// 100,000 notes: 0.8 s and 23.4 MB against 3.9 s and 20.9 MB).
  static let collectionDeflateLevel: Int32 = 1

  /// The zstd level of a Latest collection. Level 1, as for a legacy collection's deflate: on the
  /// huge benchmark deck's 62 MB collection it saves about 80 ms of processor time against
  /// Anki's own level (its 0, zstd's 3) for a member about 20 % larger (20.5 against 17.1 MB),
  /// a huge restore 3–4 % faster and a large deck's legacy → latest 6 % (docs/performance.md).
  static let collectionZstdLevel: Int32 = 1

  /// zstd's own threads for the Latest collection, as Anki uses above 10 MiB: the collection is
  /// the last work of a conversion, when the media are written, so two threads compress it in
  /// about two thirds of the time. In jobs of 1 MiB (``collectionZstdJobSize``) they hold some
  /// 5 MB more than one thread (zstd's default jobs of 8 MiB: 45 MB more on a collection of
  /// 100,000 notes), for a frame 0.3 % larger.
  static let collectionZstdWorkers: Int32 = 2

  /// The size of the jobs ``collectionZstdWorkers`` compress.
  static let collectionZstdJobSize: Int32 = 1 << 20

  /// The `meta` member's version (`PackageMetadata.Version`), or nil for the layout without one.
  private var metaVersion: UInt8? {
    switch options.generation {
    case .legacy1: nil
    case .legacy2: 2
    case .latest: 3
    }
  }

  /// Compresses the file at `source` into one zstd frame at `destination`, streaming.
  private static func compress(
    _ source: String, to destination: String, location: SourceLocation, progress: ProgressReporter?
  ) throws {
    let size = FileManager.default.fileSize(atPath: source).map { Int64(clamping: $0) } ?? 0
    progress?.start(.compressingCollection, total: 1000)
    defer { progress?.finish(.compressingCollection) }
    var done: Int64 = 0
    let output = try ScratchFile(path: destination, location: location)
    let compressor = ZstdCompressor(
      level: collectionZstdLevel, workers: collectionZstdWorkers, jobSize: collectionZstdJobSize, location: location)
    try ScratchFile.forEachChunk(ofFileAt: source, location: location) { chunk in
      try Cancellation.check()
      try compressor.compress(chunk) { try output.write($0) }
      done += Int64(chunk.count)
      progress?.set(.compressingCollection, completed: size > 0 ? done * 1000 / size : 0)
    }
    try compressor.finish { try output.write($0) }
    try output.close()
  }
}

/// The collection member as the archive reads it, once the background work has built and
/// compressed the database: deflated bytes copied as they are (legacy), or a zstd frame.
private final class CollectionMemberSource: ZipMemberSource {
  private let work: BackgroundWork<AnkiPackageWriter.CollectionMember>
  private var stream: (any ByteSource)?

  init(_ work: BackgroundWork<AnkiPackageWriter.CollectionMember>) {
    self.work = work
  }

  func open() throws -> ZipMemberSourceForm {
    switch try work.wait() {
    case .deflated(let path, let crc, let size):
      stream = try FileByteSource(path: path, location: SourceLocation(file: path))
      return .compressed(method: 8, crc: crc, size: size)
    case .zstd(let path):
      let location = SourceLocation(file: path)
      guard let size = FileManager.default.fileSize(atPath: path)
      else {
        throw DeckError(.writeFailed, at: location, "cannot read back the compressed collection")
      }
      stream = try FileByteSource(path: path, location: location)
      return .bytes(size: size)
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try stream?.read(into: buffer) ?? 0
  }

  func close() {
    stream = nil
  }
}
