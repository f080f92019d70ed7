import DeckCore
import DeckIO
import Foundation

extension FormatName {
  /// An Anki deck package; read in every generation, written in the legacy layout (meta 2).
  public static let apkg: FormatName = "apkg"
  /// An Anki deck package in the latest layout (meta 3, zstd).
  public static let apkgModern: FormatName = "apkg-modern"
  /// An Anki collection package (a whole-collection backup), legacy layout.
  public static let colpkg: FormatName = "colpkg"
  /// An Anki collection package, latest layout.
  public static let colpkgModern: FormatName = "colpkg-modern"
}

extension AnkiPackageReader.Limits: FormatOptionGroup {
  /// The default limits, which allow any deck people actually have.
  public init() {
    self.init(collectionBytes: 16 << 30)
  }
}

extension DuplicateGUIDPolicy: FormatOptionGroup {
  /// Refuse notes that share a GUID (``fail``).
  public init() { self = .fail }
}

/// Anki packages as formats: `apkg` and `colpkg` (read in every generation, written in the
/// legacy layout every Anki reads), `apkg-modern` and `colpkg-modern` (written in the latest
/// layout). Reading takes `AnkiPackageReader/Limits`; writing takes ``DuplicateGUIDPolicy``.
public struct AnkiPackageFormat: DeckFormat {
  /// Deck package or collection package.
  public var kind: AnkiPackageKind
  /// The layout written.
  public var generation: AnkiPackageGeneration
  public let description: FormatDescription

  /// A deck package holds everything but what no note uses (and Anki's empty `Default` deck) and
  /// what only a collection has: its settings and its list of tags.
  private static let deckParts = Set(DeckAspect.allCases).subtracting([.unusedItems, .settings, .tagRegistry])
  private static let deckExportLosses = [
    "note types and media no note uses (Anki's deck export leaves them out too)",
    "a collection's settings and list of tags (Anki's deck import ignores them)",
  ]

  /// `apkg`: read in every generation, written in the legacy layout.
  public static let apkg = AnkiPackageFormat(
    kind: .apkg, generation: .legacy2,
    FormatDescription(
      name: .apkg,
      summary: "Anki deck package; read in every generation, written in the legacy layout every Anki reads",
      extensions: ["apkg"], reads: true, writes: true, cannotHold: deckExportLosses, holds: deckParts))
  /// `apkg-modern`: written in the latest layout.
  public static let apkgModern = AnkiPackageFormat(
    kind: .apkg, generation: .latest,
    FormatDescription(
      name: .apkgModern, summary: "Anki deck package in the latest layout (meta 3, zstd), as current Anki writes it",
      reads: false, writes: true, cannotHold: deckExportLosses, holds: deckParts, namingExtension: "apkg"))
  /// `colpkg`: read in every generation, written in the legacy layout.
  public static let colpkg = AnkiPackageFormat(
    kind: .colpkg, generation: .legacy2,
    FormatDescription(
      name: .colpkg, summary: "Anki collection package (a whole-collection backup); written in the legacy layout",
      extensions: ["colpkg"], reads: true, writes: true))
  /// `colpkg-modern`: written in the latest layout.
  public static let colpkgModern = AnkiPackageFormat(
    kind: .colpkg, generation: .latest,
    FormatDescription(
      name: .colpkgModern, summary: "Anki collection package in the latest layout", reads: false, writes: true,
      namingExtension: "colpkg"))

  private init(kind: AnkiPackageKind, generation: AnkiPackageGeneration, _ description: FormatDescription) {
    self.kind = kind
    self.generation = generation
    self.description = description
  }

  /// A zip archive: an Anki package is the only zip deckport reads.
  public func recognizes(path: String) -> Bool {
    guard description.reads, let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
  }

  /// Reads the package with `AnkiPackageReader`.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    let contents = try AnkiPackageReader(
      limits: context.options[AnkiPackageReader.Limits.self], progress: context.progress
    )
    .read(path: path, kind: kind)
    return LoadedDeck(collection: contents.collection, formatName: contents.formatName, warnings: contents.warnings)
  }

  /// Writes the package with `AnkiPackageWriter`.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    let options = AnkiPackageWriter.Options(
      generation: generation, kind: kind, duplicateGUIDs: context.options[DuplicateGUIDPolicy.self])
    var writer = AnkiPackageWriter(options: options, progress: context.progress)
    writer.announceWritten = context.announceWritten
    let result = try writer.writePackage(collection, to: path, reportingAs: context.destination)
    return DeckWriteResult(written: result.written, warnings: result.warnings)
  }
}
