import DeckCSV
import DeckCore
import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// A deck name of tens of thousands of levels (`a::a::…`, found by `FuzzBuilder`): each level
/// needs a parent deck named in full, so making them took memory growing with the square of the
/// name (a 180 KB CSV file aborted `deckport convert` out of memory). Such a name is an error
/// naming where it is, wherever it comes from, and a name of up to 100 levels still works.
@Suite("Deck names of absurd depth")
struct DeckDepthTests {
  static func name(levels: Int) -> String {
    (1...levels).map { "L\($0)" }.joined(separator: "::")
  }

  @Test("a name of 100 levels gets its 99 parents, in order; one of 101 levels is refused and adds nothing")
  func deckTable() throws {
    var table = DeckTable()
    let here = SourceLocation(file: "cards.csv")
    let id = try table.id(for: Self.name(levels: 100), at: here)
    #expect(table.decks.count == 100)
    #expect(table.decks.last?.id == id)
    #expect(table.decks.map { $0.nameComponents.count } == Array(1...100))
    let error = try #require(throws: DeckError.self) { try table.id(for: Self.name(levels: 101), at: here) }
    #expect(error.kind == .corrupt)
    #expect(error.message.hasSuffix("has 101 levels; deckport takes deck names of at most 100 levels"))
    #expect(table.decks.count == 100)
    // Counted as the name is split: `:::` is one separator and a colon.
    #expect(Deck.depthProblem(ofName: String(repeating: "a:::", count: 99) + "a") == nil)
    #expect(Deck.depthProblem(ofName: String(repeating: "a:::", count: 100) + "a") != nil)
  }

  @Test("a CSV file whose deck has 60,001 levels is refused at its line, at once")
  func csv() throws {
    let text = "#separator:comma\n#deck:" + String(repeating: "a::", count: 60_000) + "b\nfront,back\n"
    let started = Date()
    let error = try #require(throws: DeckError.self) {
      try CSVReader().read(data: Data(text.utf8), name: "deep.csv")
    }
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(error.kind == .corrupt)
    #expect(error.location.line == 3)
    #expect(error.message.contains("has 60001 levels"))
    #expect(error.description.count < 300)
  }

  @Test("an app's deck name of 101 levels is refused naming the note; every writer refuses such a deck")
  func builderAndWriters() async throws {
    var builder = DeckBuilder(namespace: "com.example")
    let error = try #require(throws: DeckError.self) {
      try builder.addNote(id: "deep", fields: ["a", "b"], deck: Self.name(levels: 101))
    }
    #expect(error.kind == .invalidRequest)
    #expect(error.description.contains("note 'deep'"))
    #expect(builder.build().collection.notes.isEmpty)

    // A model with such a deck (from a JSON deck, or an app's own model) and a card in it.
    var deck = try DeckLoader().load(path: Fixtures.path("anki/legacy1.apkg"))
    let deepID: Int64 = 424_242
    deck.collection.decks.append(Deck(id: deepID, name: Self.name(levels: 5_000)))
    deck.collection.cards[0].deckID = deepID
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    for format in [FormatName.apkg, .apkgModern, .crowdanki, .csv, .tsv] {
      let output = scratch.path(for: "deep-\(format.rawValue)")
      let error = try await #require(throws: DeckError.self) {
        try await DeckConverter().write(deck, to: URL(filePath: output), options: ConversionOptions(to: format))
      }
      #expect(error.kind == DeckError.Kind.corrupt, "\(format)")
      #expect(error.message.contains("has 5000 levels"), "\(format)")
      #expect(!FileManager.default.fileExists(atPath: output), "\(format)")
    }
  }
}
