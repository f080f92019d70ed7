import DeckConversion
import DeckCore
import DeckTestSupport
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

  @Test(
    "missing media are compared by the names Anki stores: a/ names the file a; ? and : name none, as Check Media says")
  func missingMediaByStoredName() {
    var collection = DeckCollection()
    collection.notes = [
      Note(
        id: 1, guid: "a", noteTypeID: 1,
        fields: [#"<img src="a/"> <img src="c\d.png"> <img src="?"> <img src=":">"#, "[sound:x:y.mp3]"])
    ]
    collection.media = ["a", "cd.png", "xy.mp3"].map { MediaFile(name: $0, blob: MediaBlob(data: Data())) }
    let summary = DeckSummary(LoadedDeck(collection: collection, formatName: "test", warnings: []))
    #expect(summary.missingMedia == [":", "?"])
  }

  @Test("tags: each with its count of notes, one for tags that differ in case, sorted ignoring case; text lists 30")
  func tags() {
    var collection = DeckCollection()
    collection.notes = [
      Note(id: 1, guid: "a", noteTypeID: 1, fields: [], tags: ["Verbs", "geo", "verbs"]),
      Note(id: 2, guid: "b", noteTypeID: 1, fields: [], tags: ["VERBS", "Animals::Cats"]),
      Note(id: 3, guid: "c", noteTypeID: 1, fields: [], tags: []),
    ]
    let summary = DeckSummary(LoadedDeck(collection: collection, formatName: "test", warnings: []))
    #expect(summary.tags.map(\.name) == ["Animals::Cats", "geo", "Verbs"])
    #expect(summary.tags.map(\.notes) == [1, 1, 2])
    #expect(summary.lines.contains("Tags: 3") && summary.lines.contains("  Verbs (2 notes)"))

    collection.notes = (0..<40).map {
      Note(id: Int64($0 + 1), guid: "g\($0)", noteTypeID: 1, fields: [], tags: ["t\($0)"])
    }
    let many = DeckSummary(LoadedDeck(collection: collection, formatName: "test", warnings: []))
    #expect(many.tags.count == 40)
    #expect(many.lines.filter { $0.hasPrefix("  t") }.count == 30 && many.lines.contains("  … and 10 more"))
  }

  @Test(
    "the warnings are the reader's diagnostics, typed; JSON gives each as its one line, under every key the summary has"
  )
  func typedWarnings() throws {
    // A package Anki's v1 scheduler kept: reading it upgrades its scheduling, with one warning.
    let path = Fixtures.path("real/personal-collection-legacy1.apkg")
    let deck = try DeckLoader().load(path: path)
    let summary = DeckSummary(deck)
    #expect(summary.warnings == deck.warnings)
    #expect(summary.warnings.map(\.category) == [.schedulerV1Upgraded])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(try summary.jsonText().utf8)) as? [String: Any])
    #expect(
      object["warnings"] as? [String]
        == [
          "\(path): member 'collection.anki2': table col: warning: [scheduler-v1-upgraded] the collection was kept by Anki's v1 scheduler; as Anki does when it imports or opens it, 957 learning answers in the review log took v2's button numbers (good 2 → 3, easy 3 → 4)"
        ])
    // Every stored property is a key (the selection only when there is one), and no other.
    let properties = Set(Mirror(reflecting: summary).children.compactMap(\.label))
    #expect(Set(object.keys) == properties.subtracting(["selection"]))
    let part = try DeckSummary(deck, onlyDecks: ["*"], at: SourceLocation(file: path))
    let partObject = try #require(
      try JSONSerialization.jsonObject(with: Data(try part.jsonText().utf8)) as? [String: Any])
    #expect(Set(partObject.keys) == properties)
  }
}
