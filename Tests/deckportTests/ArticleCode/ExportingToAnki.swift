import DeckKit
import Foundation

/// A word as a vocabulary app stores it.
struct Word {
  var id: UUID
  var spanish: String
  var english: String
  /// A recording of the word in the app's container, if there is one.
  var recording: URL?
  /// When the user last changed the word in the app.
  var updatedAt: Date
}

/// Writes `words` to the Anki package `package` (the format its extension names): one note per
/// word, with a card each way, in the deck "Spanish".
func exportToAnki(_ words: [Word], to package: URL) async throws -> ConversionReport {
  var builder = DeckBuilder(namespace: "com.example.vocabulary")
  for word in words {
    var spanish = word.spanish
    if let recording = word.recording {
      // Named by the word's id (and the recording's extension, if it has one): unique in the
      // deck, and a name Anki keeps as it is.
      let name = [word.id.uuidString, recording.pathExtension].filter { !$0.isEmpty }.joined(separator: ".")
      try builder.addMedia(contentsOf: recording, named: name)  // read when the package is written
      spanish += " [sound:\(name)]"
    }
    try builder.addNote(
      id: word.id.uuidString, fields: [spanish, word.english], format: .plainText,
      noteType: StockNoteType.basicAndReversedCard.noteType, deck: "Spanish", modified: word.updatedAt)
  }
  return try await DeckConverter().write(builder.build(), to: package, options: ConversionOptions(replacing: true))
}
