/// The `format` value that names deckport's own JSON documents, kept here so that every module
/// telling one apart (the JSON deck reader, and app storage, which must not read a deck as
/// records) spells it the same way.
package enum DeckportDocumentFormat {
  /// A JSON deck document (`{"format": "deckport-deck", …}`).
  package static let deck = "deckport-deck"
}
