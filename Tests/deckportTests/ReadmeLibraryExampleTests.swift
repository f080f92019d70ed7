import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// The library example of the README and the DocC article "Import an Anki deck into your app's
/// model": their Swift code is `ArticleCode/ImportingAnAnkiDeck.swift`, word for word (so it is
/// compiled with the tests), and it runs against a package the real Anki backend described.
/// `scripts/check-library-example.sh` builds the README's code again in a new package that
/// depends on this one by path.
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

  static let exampleCode = Fixtures.path("../Tests/deckportTests/ArticleCode/ImportingAnAnkiDeck.swift")

  @Test("the DocC article shows exactly the compiled code")
  func articleShowsIt() throws {
    let article = try Self.swiftBlocks(of: Fixtures.path("../Sources/DeckKit/DeckKit.docc/ImportingAnAnkiDeck.md"))
    #expect(article == (try String(contentsOfFile: Self.exampleCode, encoding: .utf8)))
  }

  @Test("the README's library section shows the same code, after how to depend on DeckKit")
  func readmeShowsIt() throws {
    let readme = try String(contentsOfFile: Fixtures.path("../README.md"), encoding: .utf8)
    let code = try String(contentsOfFile: Self.exampleCode, encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## Using the library").dropFirst().first)
    let blocks = code.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(blocks.allSatisfy { section.contains($0) })
    #expect(section.contains(#".product(name: "DeckKit", package: "deckport")"#))
  }

  @Test(
    "the code runs: one flashcard per card, fields, decks and schedules as the real Anki backend saw them, media saved")
  func runs() async throws {
    let package = Fixtures.path("anki/latest_sched.apkg")
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let media = URL(filePath: scratch.path(for: "media"), directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: false)

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
