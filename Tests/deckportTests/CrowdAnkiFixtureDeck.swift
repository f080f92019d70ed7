import DeckIO
import DeckTestSupport
import Foundation

/// A real CrowdAnki export (fixtures/crowdanki/c-programming-language), read with Foundation, for
/// tests that write an edited copy of it as a folder of their own.
enum CrowdAnkiFixtureDeck {
  /// The export's deck file as a JSON object.
  static func deck() throws -> [String: Any] {
    let path = Fixtures.path("crowdanki/c-programming-language/The_C_Programming_Language/deck.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    guard let deck = object as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
    return deck
  }

  /// The first note of `deck` or of its subdecks.
  static func firstNote(in deck: [String: Any]) -> [String: Any]? {
    if let note = (deck["notes"] as? [[String: Any]])?.first { return note }
    for child in deck["children"] as? [[String: Any]] ?? [] {
      if let note = firstNote(in: child) { return note }
    }
    return nil
  }

  /// A new folder `name` in `scratch` holding `deck` as its `deck.json`; its path.
  static func folder(_ name: String, in scratch: TemporaryDirectory, holding deck: [String: Any]) throws -> String {
    let folder = scratch.path(for: name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try JSONSerialization.data(withJSONObject: deck).write(to: URL(fileURLWithPath: folder + "/deck.json"))
    return folder
  }
}
