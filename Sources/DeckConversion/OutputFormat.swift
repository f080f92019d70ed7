import Foundation

/// The output formats deckport writes, by the names the CLI's `--to` takes.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// An Anki deck package in the legacy layout every Anki and most tools read (schema 11,
  /// `collection.anki21` with `meta` = 2, JSON media map, raw media).
  case apkg
  /// An Anki deck package in the latest layout, as current Anki writes it (`meta` = 3, zstd).
  case apkgModern = "apkg-modern"
  /// An Anki collection package (whole-collection backup), legacy layout.
  case colpkg
  /// An Anki collection package, latest layout.
  case colpkgModern = "colpkg-modern"
  /// The deckport JSON deck format, media embedded.
  case json

  /// The format a file name's extension implies: `.apkg`, `.colpkg`, `.json`.
  public static func detect(path: String) -> OutputFormat? {
    switch (path as NSString).pathExtension.lowercased() {
    case "apkg": .apkg
    case "colpkg": .colpkg
    case "json": .json
    default: nil
    }
  }
}
