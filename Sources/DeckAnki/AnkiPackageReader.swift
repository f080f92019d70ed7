import DeckCore
import DeckIO
import Foundation

/// What reading an Anki package gives: the collection, which layout it had, and the warnings.
package struct AnkiPackageContents: Sendable {
  /// Everything the package holds. Media blobs read from the package file while it exists.
  package var collection: DeckCollection
  /// Deck package or collection package.
  package var kind: AnkiPackageKind
  /// The layout generation `meta` (or its absence) selected.
  package var generation: AnkiPackageGeneration
  /// Problems found that did not stop the reading, each naming its item.
  package var warnings: [Diagnostic]

  /// The format name `deckport inspect` reports, such as `apkg-latest`.
  package var formatName: String { generation.formatName(for: kind) }
}

/// Reads Anki packages (`.apkg`, `.colpkg`) of every generation into the shared model.
///
/// ```swift
/// let contents = try AnkiPackageReader().read(path: "French.apkg")
/// print(contents.formatName, contents.collection.notes.count)
/// ```
///
/// The collection database is unpacked into a private temporary file, read into the model
/// (notes on this thread, cards and the review log on a second one, each row's text split on
/// its bytes), and removed; media stay in the package and are streamed from it when a
/// ``MediaBlob`` is read.
package struct AnkiPackageReader: Sendable {
  /// The limits in force.
  package var limits: Limits
  /// Where the reader reports what it is doing (unpacking the collection, reading notes, cards
  /// and the review log), or nil.
  package var progress: ProgressReporter?

  /// Creates a reader.
  package init(limits: Limits = Limits(), progress: ProgressReporter? = nil) {
    self.limits = limits
    self.progress = progress
  }

  /// Reads the package at `path`; its kind comes from the extension (`.colpkg` or not).
  ///
  /// - Throws: ``DeckError`` naming the file and member (and table and row) for every problem
  ///   that prevents reading: not a zip, no collection, unknown `meta` version, not SQLite,
  ///   not an Anki schema, a damaged zstd frame or media map.
  package func read(path: String, kind: AnkiPackageKind? = nil) throws -> AnkiPackageContents {
    let location = SourceLocation(file: path)
    let zip = try ZipReader(path: path, location: location)
    let generation = try PackageLayout.generation(of: zip, location: location)
    let collectionLocation = location.member(generation.collectionMember)

    let packageBytes = FileManager.default.fileSize(atPath: path).map { Int64(clamping: $0) } ?? 0
    let budget = UnpackBudget(limits: limits, packageBytes: packageBytes)

    let scratch = try TemporaryDirectory()
    let databasePath = scratch.path(for: "collection.sqlite")
    try unpackCollection(
      from: zip, generation: generation, to: databasePath, budget: budget, location: collectionLocation)
    let packageKind = kind ?? AnkiPackageKind.forFileName(path)
    // Anki's deck import ignores a deck package's settings: only a collection's are the user's.
    var (collection, warnings) = try CollectionReader(
      path: databasePath, location: collectionLocation, progress: progress
    ).read(readingSettings: packageKind == .colpkg)
    if generation != .latest, PlaceholderCollection.isPlaceholder(collection) {
      warnings.append(
        Diagnostic(
          .placeholderCollection, at: collectionLocation,
          "this is the placeholder collection modern Anki adds for old versions (\"Please update to the latest Anki version…\"); the package's real content is missing"
        ))
    }
    let entries = try MediaManifest.entries(in: zip, generation: generation, location: location)
    try checkDeclaredMediaSizes(entries, zip: zip, generation: generation, budget: budget, location: location)
    var renamed: [(old: String, new: String)] = []
    collection.media = try mediaFiles(
      entries, zip: zip, generation: generation, budget: budget, location: location, renamed: &renamed,
      warnings: &warnings)
    if !renamed.isEmpty { collection.notes = MediaReferences.notes(collection.notes, referringTo: renamed.map(\.new)) }
    return AnkiPackageContents(
      collection: collection, kind: packageKind,
      generation: generation, warnings: warnings)
  }

  /// The largest legacy collection member inflated in one go, in memory (libdeflate, about
  /// two and a half times as fast as streaming it through zlib): 128 MiB, a collection of some
  /// 200,000 notes. A larger one is streamed, so memory stays bounded.
  static let collectionWholeInflateLimit: Int64 = 128 << 20

  private func unpackCollection(
    from zip: ZipReader, generation: AnkiPackageGeneration, to path: String, budget: UnpackBudget,
    location: SourceLocation
  ) throws {
    let member = generation.collectionMember
    if generation != .latest, let declared = try? zip.uncompressedSize(of: member) {
      try budget.check(declared: declared, what: "the zip directory says the collection is", at: location)
    }
    let entry = try zip.openEntry(member, inflatingWholeUpTo: Self.collectionWholeInflateLimit)
    // Latest frames declare no size; a legacy member's size is in the zip directory.
    let declared = generation == .latest ? nil : try? zip.uncompressedSize(of: generation.collectionMember)
    progress?.start(.unpackingCollection, total: declared)
    defer { progress?.finish(.unpackingCollection) }
    do {
      if generation == .latest {
        var source = CountingByteSource(
          BudgetedByteSource(
            ZstdDecompressingReader(source: entry, limit: limits.collectionBytes, location: location),
            budget: budget, member: member, location: location),
          progress: progress)
        _ = try FileCopy.copy(from: &source, toFile: path, limit: limits.collectionBytes, location: location)
      } else {
        var source = CountingByteSource(
          BudgetedByteSource(entry, budget: budget, member: member, location: location), progress: progress)
        _ = try FileCopy.copy(from: &source, toFile: path, limit: limits.collectionBytes, location: location)
      }
    } catch let error as DeckError
      where error.kind == .limitExceeded && error.location == location && !budget.isExceeded
    {
      throw DeckError(
        .limitExceeded, at: location,
        "the collection unpacks to more than \(ByteCount.text(limits.collectionBytes)), the limit for a collection database"
      )
    }
  }

  /// Refuses a package whose media, as its zip directory (legacy) or media map (Latest)
  /// declares them, would unpack to more than its budget, before any is read.
  private func checkDeclaredMediaSizes(
    _ entries: [MediaManifestEntry], zip: ZipReader, generation: AnkiPackageGeneration, budget: UnpackBudget,
    location: SourceLocation
  ) throws {
    var declared: Int64 = 0
    for entry in entries {
      let size = generation == .latest ? entry.size : try? zip.uncompressedSize(of: entry.member)
      declared = declared.addingReportingOverflow(max(size ?? 0, 0)).partialValue
    }
    let collection =
      (try? zip.uncompressedSize(of: generation.collectionMember)).map { generation == .latest ? 0 : $0 } ?? 0
    try budget.check(
      declared: declared + collection, what: "its \(entries.count) media files and collection declare",
      at: location)
  }

  private func mediaFiles(
    _ entries: [MediaManifestEntry], zip: ZipReader, generation: AnkiPackageGeneration,
    budget: UnpackBudget, location: SourceLocation, renamed: inout [(old: String, new: String)],
    warnings: inout [Diagnostic]
  ) throws -> [MediaFile] {
    var files: [MediaFile] = []
    var seenNames = Set<String>()
    for entry in entries {
      let entryLocation = location.member(MediaManifest.member).item("entry \(entry.member)")
      guard zip.contains(entry.member) else {
        // The notes are whole without the file: keep them, and name the file that is not there.
        warnings.append(
          Diagnostic(
            .mediaMissing, at: location.member(entry.member),
            "the media map lists '\(MediaFileName.visible(entry.name))' in member '\(entry.member)', but the package has no such member; the file is left out, and notes that refer to it will show it missing"
          ))
        continue
      }
      guard !entry.name.isEmpty else {
        throw DeckError(
          .corrupt, at: entryLocation, "the media name is empty; Anki refuses such a package")
      }
      let name = MediaFileName.normalized(entry.name)
      if !MediaFileName.isUnchanged(entry.name, by: name) {
        guard generation != .latest else {
          throw DeckError(
            .corrupt, at: entryLocation,
            "media name '\(MediaFileName.visible(entry.name))' is not a safe, normalised file name; Anki refuses such a package"
          )
        }
        // One file name as Anki's path test reads it: `a/` is the file `a`, `a\b.png` one name
        // on Unix; `.`, `..` and `a/b` are not.
        guard !name.isEmpty, MediaReferences.isOneFileName(entry.name) else {
          throw DeckError(
            .corrupt, at: entryLocation,
            "media name '\(MediaFileName.visible(entry.name))' is not a single file name; Anki refuses such a package")
        }
        warnings.append(MediaFileName.renamedWarning(entry.name, as: name, at: entryLocation))
        renamed.append((entry.name, name))
      }
      guard seenNames.insert(name).inserted else {
        warnings.append(
          Diagnostic(
            .mediaDuplicate, at: entryLocation,
            "media file '\(name)' is listed twice; the later copy (member \(entry.member)) is ignored"))
        continue
      }
      let source = ZipMemberMediaSource(
        zip: zip, member: entry.member, isZstdCompressed: generation == .latest,
        location: location, sizeLimit: limits.mediaFileBytes, budget: budget)
      files.append(MediaFile(name: name, blob: MediaBlob(source: source, sha1: entry.sha1, size: entry.size)))
    }
    return files
  }
}

/// A ``ByteSource`` that reports the bytes read through it as ``ConversionPhase/unpackingCollection``,
/// and stops when the work is no longer wanted (``Cancellation``).
private struct CountingByteSource<Source: ByteSource>: ByteSource {
  var source: Source
  let progress: ProgressReporter?

  init(_ source: Source, progress: ProgressReporter?) {
    self.source = source
    self.progress = progress
  }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try Cancellation.check()
    let count = try source.read(into: buffer)
    progress?.advance(.unpackingCollection, by: Int64(count))
    return count
  }
}
