import DeckCore
import Foundation

/// The small `collection.anki2` that modern Anki puts in every package beside the real
/// collection (`anki-formats.md` §1.3).
///
/// Anki 2.0 reads only `collection.anki2`, and Anki 2.1 before 2.1.50 ignores `meta`; a
/// client that cannot read the real collection imports this one instead and shows one Basic
/// note asking the user to update. Current Anki never reads it when `meta` is present.
enum PlaceholderDatabase {
  /// The text of the note's Front, as Anki writes it.
  static let message =
    "Please update to the latest Anki version, then import the .colpkg/.apkg file again."

  /// The placeholder's content: one Basic note in the Default deck.
  static var collection: DeckCollection {
    let basic = NoteType(
      id: 1, name: "Basic",
      fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
      templates: [
        NoteType.CardTemplate(
          name: "Card 1", questionFormat: "{{Front}}",
          answerFormat: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}")
      ],
      css: NoteType.stockBasicCSS,
      originalStockKind: 1)
    return DeckCollection(
      creationTime: 1_577_851_200,  // 2020-01-01 04:00 UTC: a day start, as Anki sets it
      decks: [Deck(id: 1, name: "Default")],
      noteTypes: [basic],
      notes: [Note(id: 1, guid: "ZnS+0>rKr>", noteTypeID: 1, fields: [message, ""])],
      cards: [Card(id: 1, noteID: 1, templateOrdinal: 0, deckID: 1, scheduling: CardScheduling(due: 1))])
  }

  /// Writes the placeholder database to `path` (SQLite pages of 512 bytes, as Anki's).
  static func write(to path: String, location: SourceLocation) throws {
    try CollectionWriter(
      collection: collection, deckOptions: [(1, DeckOptionsConversion.defaultEntry())], kind: .apkg,
      location: location
    ).write(to: path, pageSize: 512)
  }
}
