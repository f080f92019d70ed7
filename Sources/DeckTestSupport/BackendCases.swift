import Foundation

/// The cases of a file the real Anki backend's answers were recorded in
/// (`fixtures/backend_cases.py`: `{"anki": version, "cases": [...]}`).
public enum BackendCases {
  /// The cases of `fixtures/<relativePath>`; empty when the file cannot be read or decoded, which
  /// the tests that use them check (each asserts its count).
  public static func load<Case: Decodable>(_ relativePath: String, as type: Case.Type = Case.self) -> [Case] {
    guard let data = FileManager.default.contents(atPath: Fixtures.path(relativePath)),
      let document = try? JSONDecoder().decode(Document<Case>.self, from: data)
    else { return [] }
    return document.cases
  }

  /// The file's shape; its `anki` version is not read.
  private struct Document<Case: Decodable>: Decodable {
    let cases: [Case]
  }
}
