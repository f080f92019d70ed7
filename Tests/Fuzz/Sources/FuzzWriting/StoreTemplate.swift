import Foundation

/// The repository's `fixtures/` folder.
package let fixtures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

/// A Core Data / SwiftData store an app created, which the core-data writer fills (it never
/// creates one), held in memory and written out before each use.
package struct StoreTemplate {
  /// The store's file name.
  package var name: String
  /// The store's bytes.
  package var data: Data
  /// The profile whose records the store's entity holds.
  package var profile: String
  /// Files beside the store (external binary storage), relative path and bytes.
  package var companions: [(path: String, data: Data)]

  package init(name: String, data: Data, profile: String, companions: [(path: String, data: Data)]) {
    self.name = name
    self.data = data
    self.profile = profile
    self.companions = companions
  }

  /// A store of `fixtures/` (`relative` to it) with no companions and no profile.
  package static func fixture(_ relative: String) -> StoreTemplate {
    StoreTemplate(
      name: (relative as NSString).lastPathComponent, data: fixtureBytes(relative), profile: "", companions: [])
  }

  /// The bytes of the file `relative` to `fixtures/`.
  private static func fixtureBytes(_ relative: String) -> Data {
    guard let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(relative).path) else {
      fatalError("fixture missing: \(relative)")
    }
    return data
  }

  package static func load() -> [StoreTemplate] {
    let support = ".neomnemo_SUPPORT/_EXTERNAL_DATA/3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    return [
      ("flashzilla-empty.store", "flashzilla", []), ("flashzilla-swiftdata-empty.store", "flashzilla", []),
      ("Idealic.sqlite", "idealic", []), ("flashcard-quiz.sqlite", "flashcard-quiz", []),
      ("neomnemo.store", "neomnemo", [support]),
    ].map { name, profile, companions in
      StoreTemplate(
        name: name, data: fixtureBytes("app/" + name), profile: profile,
        companions: companions.map { ($0, fixtureBytes("app/" + $0)) })
    }
  }

  /// Writes the store (and its companions) into `folder`; returns the store's path.
  package func place(in folder: String) -> String {
    let path = (folder as NSString).appendingPathComponent(name)
    FileManager.default.createFile(atPath: path, contents: data)
    for companion in companions {
      let companionPath = (folder as NSString).appendingPathComponent(companion.path)
      try? FileManager.default.createDirectory(
        atPath: (companionPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: companionPath, contents: companion.data)
    }
    return path
  }
}
