import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// The library examples of the README and the DocC articles "Import an Anki deck into your app's
/// model" and "Export your app's cards as an Anki deck": their Swift code is in `ArticleCode/`,
/// word for word (so it is compiled with the tests); the import runs against packages the real
/// Anki backend described (their cards' sides against the backend's own rendering, a filtered
/// deck's borrowed cards against their home decks), and what the export writes is imported by
/// the real Anki backend, twice. `scripts/check-library-example.sh` builds the README's code again in a new package
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

  /// A package's truth file (what the real Anki backend saw in it).
  static func truth(of package: String) throws -> (cards: [[String: Any]], notes: [[String: Any]]) {
    let truth =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: package + ".truth.json"))) as? [String: Any]
    return (try #require(truth?["cards"] as? [[String: Any]]), try #require(truth?["notes"] as? [[String: Any]]))
  }

  /// The flashcards the article's code makes of `package`, its media saved in a scratch folder.
  static func flashcards(of package: String) async throws -> [Flashcard] {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    return try await importAnkiDeck(
      from: URL(filePath: package), mediaInto: URL(filePath: scratch.path(for: "media"), directoryHint: .isDirectory))
  }

  @Test(
    "the code runs: one flashcard per card, tags, home decks and schedules as the real Anki backend saw them, media saved"
  )
  func importRuns() async throws {
    let package = Fixtures.path("anki/latest_sched.apkg")
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    // A folder that does not exist yet: the article's code makes it.
    let media = URL(filePath: scratch.path(for: "app/media"), directoryHint: .isDirectory)

    let flashcards = try await importAnkiDeck(from: URL(filePath: package), mediaInto: media)

    let (cards, notes) = try Self.truth(of: package)
    #expect(flashcards.count == cards.count)
    #expect(Set(flashcards.map(\.id)).count == flashcards.count)
    for card in cards {
      let guid = try #require(card["noteGuid"] as? String)
      let ord = try #require(card["ord"] as? Int)
      let flashcard = try #require(flashcards.first { $0.id == "\(guid)/\(ord)" })
      let note = try #require(notes.first { $0["guid"] as? String == guid })
      #expect(flashcard.deck == (card["odeck"] as? String ?? card["deck"] as? String))
      #expect(flashcard.tags == note["tags"] as? [String])
      #expect(flashcard.isNew == (card["type"] as? Int == 0) && flashcard.isSuspended == (card["queue"] as? Int == -1))
      #expect(flashcard.intervalDays == card["ivl"] as? Int)
    }
    let truth =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: package + ".truth.json"))) as? [String: Any]
    let saved = try FileManager.default.contentsOfDirectory(atPath: media.path(percentEncoded: false)).sorted()
    let truthMedia = try #require(truth?["media"] as? [String: String])
    #expect(saved == truthMedia.keys.sorted() && !saved.isEmpty)
    for name in saved {
      let bytes = try Data(contentsOf: media.appending(path: name))
      #expect(try MediaBlob(data: bytes).sha1Hex() == truthMedia[name])
    }
  }

  @Test(
    "the code shows each card's own sides: a reversed card asks for the back, a cloze card hides its own cloze",
    arguments: ["anki/latest_sched.apkg", "real/mixed-note-types-legacy2.apkg"])
  func sidesAreEachCards(package: String) async throws {
    let flashcards = try await Self.flashcards(of: Fixtures.path(package))
    let (_, notes) = try Self.truth(of: Fixtures.path(package))
    var reversed = 0
    var clozes = 0
    for note in notes {
      let guid = try #require(note["guid"] as? String)
      let fields = try #require(note["fields"] as? [String])
      let siblings = flashcards.filter { $0.id.hasPrefix("\(guid)/") }
      // Siblings never show the same front (the example once gave every card its note's first
      // two fields).
      #expect(Set(siblings.map(\.front)).count == siblings.count, "\(guid)")
      switch note["noteType"] as? String {
      case "Basic (and reversed card)", "Basic (optional reversed card)":
        let card1 = try #require(siblings.first { $0.id == "\(guid)/0" })
        #expect(card1.front == fields[0] && card1.back.hasSuffix("<hr id=answer>\n\n\(fields[1])"))
        if let card2 = siblings.first(where: { $0.id == "\(guid)/1" }) {
          #expect(card2.front == fields[1] && card2.back.hasSuffix("<hr id=answer>\n\n\(fields[0])"))
          reversed += 1
        }
      case "Cloze":
        for card in siblings {
          // The card's own cloze hidden, as Anki marks it, and no cloze syntax left.
          let number = try #require(Int(card.id.split(separator: "/").last ?? "")) + 1
          #expect(card.front.contains(#"<span class="cloze""#), "\(card.front)")
          #expect(card.front.contains(#"data-ordinal="\#(number)">["#), "\(card.front)")
          #expect(!(card.front + card.back).contains("{{c"))
          clozes += 1
        }
      default: break
      }
    }
    #expect(reversed >= 2 && clozes >= 3)
  }

  @Test(
    "the code's sides are what the real Anki backend renders for each card",
    .enabled(if: PythonScript.hasAnkiBackend),
    arguments: ["anki/latest_sched.apkg", "real/mixed-note-types-legacy2.apkg"])
  func sidesAreAnkis(package: String) async throws {
    let path = Fixtures.path(package)
    let flashcards = try await Self.flashcards(of: path)
    struct Render: Decodable {
      var question: String
      var answer: String
    }
    let renders = try JSONDecoder().decode(
      [String: Render].self, from: Data(try PythonScript.runWithAnki("anki_render.py", [path]).utf8))
    // The backend names cards by id: each card's id, note and template, as the package holds them.
    let collection = try DeckLoader().load(path: path).collection
    let guids = Dictionary(collection.notes.map { ($0.id, $0.guid) }, uniquingKeysWith: { first, _ in first })
    #expect(renders.count == flashcards.count)
    for card in collection.cards {
      let flashcard = try #require(flashcards.first { $0.id == "\(guids[card.noteID] ?? "")/\(card.templateOrdinal)" })
      let anki = try #require(renders[String(card.id)])
      #expect(flashcard.front == anki.question, "\(flashcard.id)")
      #expect(flashcard.back == anki.answer, "\(flashcard.id)")
    }
  }

  @Test("the code puts a card a filtered deck borrowed in its home deck, as the real Anki backend saw it")
  func homeDecks() async throws {
    let package = Fixtures.path("real/c-notes-filtered-legacy1.apkg")
    let flashcards = try await Self.flashcards(of: package)
    let (cards, _) = try Self.truth(of: package)
    #expect(flashcards.count == cards.count)
    var borrowed = 0
    for card in cards {
      let id = "\(try #require(card["noteGuid"] as? String))/\(try #require(card["ord"] as? Int))"
      let flashcard = try #require(flashcards.first { $0.id == id })
      let home = card["odeck"] as? String
      if home != nil { borrowed += 1 }
      #expect(flashcard.deck == home ?? card["deck"] as? String, "\(id)")
    }
    // The package's 15 borrowed cards are in "Custom Study Session" only for now.
    #expect(borrowed == 15)
    #expect(!flashcards.contains { $0.deck == "Custom Study Session" })
    #expect(Set(flashcards.map(\.deck)) == ["algorithms", "c-language", "soft engi", "write-great-code"])
  }
}
