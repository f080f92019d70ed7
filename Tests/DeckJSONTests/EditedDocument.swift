import DeckCore
import DeckIO
import DeckJSON
import Foundation
import Testing

/// A collection written as a JSON document and then edited by hand, for the tests of how the
/// reader refuses what the writer never writes.
enum EditedDocument {
  /// The errors the split reader and the whole-document reader give on `collection`'s document
  /// with every `text` in it replaced by `replacement`.
  static func readErrors(_ collection: DeckCollection, replacing text: String, with replacement: String) throws
    -> [DeckError]
  {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.contains(text), "the document has no \(text)")
    try written.replacingOccurrences(of: text, with: replacement).write(toFile: path, atomically: true, encoding: .utf8)
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    return try [DeckJSONReader(), whole].map { reader in
      try #require(throws: DeckError.self) { try reader.read(path: path) }
    }
  }
}
