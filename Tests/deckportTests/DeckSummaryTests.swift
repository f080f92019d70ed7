import DeckConversion
import DeckCore
import Foundation
import Testing

/// The summary's missing media, looked for in two halves of a large deck's notes at once.
@Suite("The summary of a deck")
struct DeckSummaryTests {
  @Test("missing media are found in every note, in a deck small or large enough to be split", arguments: [60, 30_001])
  func missingMedia(notes count: Int) {
    var collection = DeckCollection()
    collection.notes = (0..<count).map { index in
      var fields = ["<img src=\"img\(index % 50).png\">", "[sound:s\(index % 7).mp3]"]
      // Names only one note has: the first, one past the middle, and the last.
      if index == 0 || index == count / 2 + 1 || index == count - 1 { fields[1] += "<img src=\"only\(index).png\">" }
      return Note(id: Int64(index + 1), guid: "g\(index)", noteTypeID: 1, fields: fields)
    }
    // Present: img0 to img39 and every sound but s6.
    collection.media =
      (0..<40).map { MediaFile(name: "img\($0).png", blob: MediaBlob(data: Data())) }
      + (0..<6).map { MediaFile(name: "s\($0).mp3", blob: MediaBlob(data: Data())) }
    let summary = DeckSummary(LoadedDeck(collection: collection, formatName: "test", warnings: []))
    let expected =
      (40..<50).map { "img\($0).png" } + ["only0.png", "only\(count / 2 + 1).png", "only\(count - 1).png", "s6.mp3"]
    #expect(summary.missingMedia == expected.sorted())
  }
}
