import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// The library examples of the README and the DocC articles "Import an Anki deck into your app's
/// model" and "Export your app's cards as an Anki deck": their Swift code is in `ArticleCode/`,
/// word for word (so it is compiled with the tests); the import runs against a package the real
/// Anki backend described, and what the export writes is imported by the real Anki backend,
/// twice. `scripts/check-library-example.sh` builds the README's code again in a new package
/// that depends on this one by path.
@Suite("the library example (README and DocC article)")
struct ReadmeLibraryExampleTests {
  /// The Swift blocks of a Markdown file, joined as the example file joins them.
  static func swiftBlocks(of markdownPath: String) throws -> String {
    let text = try String(contentsOfFile: markdownPath, encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.map { $0 + "\n" }.joined())
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks.joined(separator: "\n")
  }

  /// The articles, each by the name of its Markdown file and of its code's file.
  static let articles = ["ImportingAnAnkiDeck", "ExportingToAnki"]

  static func code(of article: String) throws -> String {
    try String(
      contentsOfFile: Fixtures.path("../Tests/deckportTests/ArticleCode/\(article).swift"), encoding: .utf8)
  }

  @Test("each DocC article shows exactly the compiled code", arguments: articles)
  func articleShowsIt(article: String) throws {
    let shown = try Self.swiftBlocks(of: Fixtures.path("../Sources/DeckKit/DeckKit.docc/\(article).md"))
    #expect(shown == (try Self.code(of: article)))
  }

  @Test("the README's library section shows the same code, after how to depend on DeckKit", arguments: articles)
  func readmeShowsIt(article: String) throws {
    let readme = try String(contentsOfFile: Fixtures.path("../README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## Using the library").dropFirst().first)
    let blocks = try Self.code(of: article).components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(blocks.allSatisfy { section.contains($0) })
    #expect(section.contains(#".product(name: "DeckKit", package: "deckport")"#))
  }

  @Test(
    "the export code runs: the real Anki backend imports the words with a card each way and the recording, then updates the edited word",
    .enabled(if: PythonScript.hasAnkiBackend))
  func exportRuns() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let recording = URL(filePath: scratch.path(for: "hablar.m4a"))
    try Data("not really audio".utf8).write(to: recording)
    // A voice memo saved without an extension: named by the word's id alone.
    let memo = URL(filePath: scratch.path(for: "memo"))
    try Data("a memo".utf8).write(to: memo)
    let day = Date(timeIntervalSince1970: 1_700_000_000)
    var words = [
      Word(id: UUID(), spanish: "hablar", english: "to speak", recording: recording, updatedAt: day),
      Word(id: UUID(), spanish: "la casa", english: "the house & home", recording: nil, updatedAt: day),
      Word(id: UUID(), spanish: "el perro", english: "the dog", recording: memo, updatedAt: day),
    ]
    let first = URL(filePath: scratch.path(for: "Spanish.apkg"))
    let report = try await exportToAnki(words, to: first)
    #expect(report.warnings.isEmpty && report.summary.notes == 3 && report.summary.cards == 6)

    words[1].english = "the house"
    words[1].updatedAt = day.addingTimeInterval(3_600)
    let second = URL(filePath: scratch.path(for: "Spanish again.apkg"))
    _ = try await exportToAnki(words, to: second)

    let anki = try JSONDecoder().decode(
      DeckBuilderAnkiTests.Collection.self,
      from: Data(try PythonScript.runWithAnki("anki_import_sequence.py", [first.path, second.path]).utf8))
    #expect(
      anki.imports == [
        .init(new: 3, updated: 0, duplicate: 0),
        .init(new: 0, updated: 1, duplicate: 2),
      ])
    let recorded = "\(words[0].id.uuidString).m4a"
    let memoName = words[2].id.uuidString
    #expect(
      anki.view.notes.map(\.fields).sorted { $0[0] < $1[0] } == [
        ["el perro [sound:\(memoName)]", "the dog"], ["hablar [sound:\(recorded)]", "to speak"],
        ["la casa", "the house"],
      ])
    #expect(anki.view.cards.count == 6 && anki.view.cards.allSatisfy { $0.deck == "Spanish" })
    #expect(anki.view.media.keys.sorted() == [recorded, memoName].sorted())
  }

  @Test(
    "the code runs: one flashcard per card, fields, decks and schedules as the real Anki backend saw them, media saved")
  func importRuns() async throws {
    let package = Fixtures.path("anki/latest_sched.apkg")
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    // A folder that does not exist yet: the article's code makes it.
    let media = URL(filePath: scratch.path(for: "app/media"), directoryHint: .isDirectory)

    let flashcards = try await importAnkiDeck(from: URL(filePath: package), mediaInto: media)

    let truth =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: package + ".truth.json"))) as? [String: Any]
    let cards = try #require(truth?["cards"] as? [[String: Any]])
    let notes = try #require(truth?["notes"] as? [[String: Any]])
    #expect(flashcards.count == cards.count)
    #expect(Set(flashcards.map(\.id)).count == flashcards.count)
    for card in cards {
      let guid = try #require(card["noteGuid"] as? String)
      let ord = try #require(card["ord"] as? Int)
      let flashcard = try #require(flashcards.first { $0.id == "\(guid)/\(ord)" })
      let note = try #require(notes.first { $0["guid"] as? String == guid })
      let fields = try #require(note["fields"] as? [String])
      #expect(flashcard.front == fields.first && flashcard.deck == card["deck"] as? String)
      #expect(flashcard.tags == note["tags"] as? [String])
      #expect(flashcard.isNew == (card["type"] as? Int == 0) && flashcard.isSuspended == (card["queue"] as? Int == -1))
      #expect(flashcard.intervalDays == card["ivl"] as? Int)
    }
    let saved = try FileManager.default.contentsOfDirectory(atPath: media.path(percentEncoded: false)).sorted()
    let truthMedia = try #require(truth?["media"] as? [String: String])
    #expect(saved == truthMedia.keys.sorted() && !saved.isEmpty)
    for name in saved {
      let bytes = try Data(contentsOf: media.appending(path: name))
      #expect(try MediaBlob(data: bytes).sha1Hex() == truthMedia[name])
    }
  }
}
