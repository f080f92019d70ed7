import DeckKit
import Foundation

/// A flashcard as an app stores it (in SwiftData, Core Data or a JSON file).
struct Flashcard: Codable, Equatable {
  /// The note's GUID and the card's template: the same each time the deck is imported, so a
  /// second import can update cards instead of adding them again.
  var id: String
  var front: String
  var back: String
  var tags: [String]
  /// The deck's full name, such as "French::Verbs".
  var deck: String
  var isNew: Bool
  var isSuspended: Bool
  /// The days until the next review after this one (0 for new and learning cards).
  var intervalDays: Int
}

/// Reads the Anki package at `package` and returns one flashcard per card; the media files go
/// into `mediaFolder`.
func importAnkiDeck(from package: URL, mediaInto mediaFolder: URL) async throws -> [Flashcard] {
  let deck = try await DeckLoader().load(package)
  for warning in deck.warnings {
    print("deckport changed:", warning)  // nothing is dropped without a warning
  }
  let collection = deck.collection
  let notes = Dictionary(collection.notes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

  var flashcards: [Flashcard] = []
  for card in collection.cards {
    guard let note = notes[card.noteID], let noteType = collection.noteType(id: note.noteTypeID) else { continue }
    let fields = Dictionary(zip(noteType.fields.map(\.name), note.fields), uniquingKeysWith: { first, _ in first })
    flashcards.append(
      Flashcard(
        id: "\(note.guid)/\(card.templateOrdinal)",
        front: fields["Front"] ?? note.fields.first ?? "",
        back: fields["Back"] ?? note.fields.dropFirst().first ?? "",
        tags: note.tags,
        deck: collection.deck(id: card.deckID)?.name ?? "Default",
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
