import Foundation

/// Finds the repository's `fixtures/` folder from this source file's path (SwiftPM resources
/// cannot reach a top-level folder), and lists the Anki packages in it.
public enum Fixtures {
  /// The repository root.
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // DeckTestSupport
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()

  /// The path of a file under `fixtures/`.
  public static func path(_ relativePath: String) -> String {
    root.appendingPathComponent("fixtures").appendingPathComponent(relativePath).path
  }

  /// The Anki packages with a truth file, as paths relative to `fixtures/`: those our script
  /// made with the real Anki (`anki/`) and decks exported by people (`real/`), sorted.
  public static var ankiPackages: [String] {
    ["anki", "real"].flatMap { folder in
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
      return names.filter { $0.hasSuffix(".apkg") || $0.hasSuffix(".colpkg") }.sorted()
        .map { "\(folder)/\($0)" }
    }
  }

  /// The built `deckport` executable beside the test runner (or `DECKPORT_BIN`).
  public static var deckportExecutable: String {
    if let path = ProcessInfo.processInfo.environment["DECKPORT_BIN"] { return path }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0])
    var folder = runner.deletingLastPathComponent()
    // On Linux the runner is `<build>/deckportPackageTests.xctest`; on macOS it is inside a bundle.
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("deckport").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return root.appendingPathComponent(".build/debug/deckport").path
  }
}
