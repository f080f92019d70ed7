/// The two kinds of Anki package: a shareable deck or a whole-collection backup.
///
/// Both use the same container; Anki tells them apart by the file extension, and so does deckport.
public enum AnkiPackageKind: String, Sendable, Equatable, CaseIterable {
  /// A deck package (`.apkg`): the exported notes, their cards, note types and decks.
  case apkg
  /// A collection package (`.colpkg`): a whole collection with every option, tag and media file.
  case colpkg

  /// The kind a file name implies: `.colpkg` is a collection package, anything else a deck package.
  public static func forFileName(_ name: String) -> AnkiPackageKind {
    name.lowercased().hasSuffix(".colpkg") ? .colpkg : .apkg
  }
}

/// The generations of Anki's package layout (see `docs/anki-formats.md` in the shared notes).
public enum AnkiPackageGeneration: String, Sendable, Equatable, CaseIterable {
  /// Anki 2.0 and most generators: only `collection.anki2`, JSON media map.
  case legacy1 = "legacy-1"
  /// Anki 2.1: `collection.anki21` plus a dummy `collection.anki2`, JSON media map.
  case legacy2 = "legacy-2"
  /// Anki 2.1.50 and later: `meta` = 3, zstd `collection.anki21b`, zstd protobuf media map.
  case latest

  /// The zip member holding the collection in this generation.
  public var collectionMember: String {
    switch self {
    case .legacy1: "collection.anki2"
    case .legacy2: "collection.anki21"
    case .latest: "collection.anki21b"
    }
  }

  /// The name `deckport inspect` reports for a package of this generation and kind:
  /// `apkg-legacy-1`, `apkg-legacy-2`, `apkg-latest`, `colpkg-legacy` or `colpkg-latest`.
  public func formatName(for kind: AnkiPackageKind) -> String {
    switch (kind, self) {
    case (.apkg, _): "apkg-\(rawValue)"
    case (.colpkg, .latest): "colpkg-latest"
    case (.colpkg, _): "colpkg-legacy"
    }
  }
}
