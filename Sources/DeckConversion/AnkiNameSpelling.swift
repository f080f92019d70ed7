/// How the Anki collection a file becomes spells its deck names and tags, which Anki's searches
/// (`deck:`, `tag:`) compare: as Anki's import stores them, or as the file spells them.
///
/// Checked with the real backend (`Tests/anki/test_search_spelling.py`): importing a deck
/// package (and any file made into one), Anki stores each deck name's levels trimmed, in NFC,
/// without control characters and `blank` for an empty level, and each tag cleaned, in NFC and
/// with `blank` for an empty level. Restoring a collection package keeps its tags as they are;
/// its deck names too when it is of the latest layout (`collection.anki21b`), while an older
/// one's are stored so by the upgrade Anki opens it with. A search never finds a name by a
/// spelling Anki does not hold: Anki's search `deck:Spanish` finds no deck restored as
/// ` Spanish `.
///
/// ```swift
/// AnkiNameSpelling(formatName: "colpkg-latest")  // .restoredLatest
/// ```
public enum AnkiNameSpelling: Sendable, Equatable {
  /// As Anki's import of a deck package stores them: every file but a collection package.
  case imported
  /// A collection package of a legacy layout: deck names as Anki's import stores them, tags as
  /// the file spells them.
  case restoredLegacy
  /// A collection package of the latest layout: deck names and tags as the file spells them.
  case restoredLatest

  /// The spelling of a file read as the format `formatName` (``LoadedDeck/formatName``).
  public init(formatName: String) {
    switch formatName {
    case "colpkg-latest": self = .restoredLatest
    case _ where formatName.hasPrefix("colpkg"): self = .restoredLegacy
    default: self = .imported
    }
  }

  /// Whether Anki holds deck names as the file spells them.
  var keepsDeckNames: Bool { self == .restoredLatest }

  /// Whether Anki holds tags as the file spells them.
  var keepsTags: Bool { self != .imported }
}
