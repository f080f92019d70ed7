import DeckKit
import Foundation

/// A flashcard as an app stores it (in SwiftData, Core Data or a JSON file).
struct Flashcard: Codable, Equatable {
  /// The note's GUID and the card's template: the same each time the deck is imported, so a
  /// second import can update cards instead of adding them again.
  var id: String
  /// The front as Anki shows it: HTML, with media by name (`<img src="cat.jpg">`).
  var front: String
  /// The back as Anki shows it, usually the front again, a line and the answer.
  var back: String
  var tags: [String]
  /// The full name of the card's own deck, such as "French::Verbs".
  var deck: String
  var isNew: Bool
  var isSuspended: Bool
  /// The days until the next review after this one (0 for new and learning cards).
  var intervalDays: Int
}

/// Reads the Anki package at `package` and returns one flashcard per card, its sides as Anki
/// shows them; the media files go into `mediaFolder`.
func importAnkiDeck(from package: URL, mediaInto mediaFolder: URL) async throws -> [Flashcard] {
  let deck = try await DeckLoader().load(package)
  for warning in deck.warnings {
    print("deckport changed:", warning)  // nothing is dropped without a warning
  }
  let collection = deck.collection
  let notes = Dictionary(collection.notes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  // Fills each card's template with its note's fields as Anki does: a reversed card asks for the
  // back, a cloze card hides its own cloze.
  let renderer = CardRenderer(collection)

  var flashcards: [Flashcard] = []
  for card in collection.cards {
    guard let note = notes[card.noteID] else { continue }
    let sides = renderer.render(card)
    // A filtered deck (a custom study session) only borrows a card: its own deck is the original.
    let deckID = card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
    flashcards.append(
      Flashcard(
        id: "\(note.guid)/\(card.templateOrdinal)",
        front: sides.question,
        back: sides.answer,
        tags: note.tags,
        deck: collection.deck(id: deckID)?.name ?? "Default",
        isNew: card.scheduling.type == .new,
        isSuspended: card.scheduling.queue == .suspended,
        intervalDays: card.scheduling.interval))
  }

  try FileManager.default.createDirectory(at: mediaFolder, withIntermediateDirectories: true)
  for file in collection.media {
    try file.write(into: mediaFolder, replacing: true)  // streamed; an unsafe name is refused
  }
  return flashcards
}
