import DeckCore
import DeckIO
import DeckTestSupport
import Foundation

@testable import DeckAppStorage

/// The app-storage fixtures (`fixtures/app/`, made by `make_app_fixtures.py`) and helpers to
/// work on copies of them.
enum AppFixtures {
  /// The path of a fixture.
  static func path(_ name: String) -> String { Fixtures.path("app/" + name) }

  /// Copies a fixture (with its `-wal`, `-shm`, `-journal` and a `.<name>_SUPPORT` folder) into
  /// `directory` and returns the copy's path.
  static func copy(_ name: String, into directory: TemporaryDirectory, as newName: String? = nil) throws -> String {
    let target = directory.path(for: newName ?? name)
    try FileManager.default.copyItem(atPath: path(name), toPath: target)
    for suffix in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path(name) + suffix) {
      try FileManager.default.copyItem(atPath: path(name) + suffix, toPath: target + suffix)
    }
    let stem = (name as NSString).deletingPathExtension
    let support = path(".\(stem)_SUPPORT")
    if FileManager.default.fileExists(atPath: support) {
      // Beside the copy, in its folder (`as` may name a subfolder).
      let newStem = ((target as NSString).lastPathComponent as NSString).deletingPathExtension
      let folder = (target as NSString).deletingLastPathComponent
      try FileManager.default.copyItem(atPath: support, toPath: folder + "/.\(newStem)_SUPPORT")
    }
    return target
  }

  /// Runs `sql` on the SQLite file at `path` (a test's copy), to damage or change it.
  static func execute(_ sql: String, on path: String) throws {
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
    try database.execute(sql)
  }

  /// The bytes of a file and its SQLite companions, to check nothing changed.
  static func snapshot(_ path: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
      files[suffix] = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
    }
    return files
  }

  /// Runs `python3 -c script args…` and returns its standard output; fails the test on a
  /// non-zero exit status.
  @discardableResult
  static func python(_ script: String, _ arguments: [String] = []) throws -> String {
    try PythonScript.run(script, arguments)
  }

  /// The three Flashzilla cards of the fixtures, typed as the profile types them.
  static let flashzillaCards: [[(String, String)]] = [
    [("id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), ("prompt", "Zwölf? 日本 🃏"), ("answer", "12")],
    [
      ("id", "0B6B5A8E-2C1D-4E6F-9A7B-3C2D1E0F9A8B"), ("prompt", "a/b \"quoted\"\nsecond line"),
      ("answer", "<b>not bold</b> & more"),
    ],
    [("id", "7C1EA5A6-0D9B-4B74-A530-13251F4943D8"), ("prompt", "Capital of France?"), ("answer", "Paris")],
  ]
}

extension AppFixtures {
  /// ``flashzillaCards`` as records: `id` a UUID, the rest strings.
  static var flashzillaRecords: [AppRecord] {
    flashzillaCards.map { card in
      AppRecord(
        card.map { key, text in (key, key == "id" ? AppValue.uuid(UUID(uuidString: text) ?? UUID()) : .string(text)) })
    }
  }
}
