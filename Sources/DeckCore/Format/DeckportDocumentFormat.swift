import Foundation

/// The `format` value that names deckport's own JSON documents, kept here so that every module
/// telling one apart (the JSON deck reader, and app storage, which must not read a deck as
/// records) spells it the same way.
package enum DeckportDocumentFormat {
  /// A JSON deck document (`{"format": "deckport-deck", …}`).
  package static let deck = "deckport-deck"

  /// Whether the file at `path` begins as deckport writes its deck documents,
  /// `{"format": "deckport-deck"` (after a byte order mark, with any JSON white space between),
  /// told from its first bytes instead of a parse of the whole file. A CSV row that merely quotes
  /// those words (`"{""format"": ""deckport-deck""}"`) does not begin so; a document that names
  /// its format later is told apart only by a parse.
  package static func beginsAsDeck(path: String) -> Bool {
    guard var rest = JSONFileHead.bytes(ofFileAt: path) else { return false }
    for token in ["{", #""format""#, ":", "\"\(deck)\""] {
      rest = rest.drop { JSONFileHead.whiteSpace.contains($0) }
      guard rest.starts(with: token.utf8) else { return false }
      rest = rest.dropFirst(token.utf8.count)
    }
    return true
  }
}
