import DeckIO
import DeckKit
import Foundation
import Testing

@testable import DeckTestSupport

/// Decks built from an app's records (`DeckBuilder`), written by `DeckConverter.write`, judged
/// by the real Anki backend (`fixtures/anki_import_sequence.py`, run with `.venv`'s Python):
/// Anki imports what the app gave, with the cards and media it expects, and a second export
/// after edits updates the notes it already has instead of adding them again. Written as CSV,
/// the deck is judged by Anki's own CSV import (`fixtures/make_csv_fixtures.py --view`).
@Suite("Decks built by an app, judged by the real Anki backend", .enabled(if: PythonScript.hasAnkiBackend))
struct DeckBuilderAnkiTests {
  /// What `anki_import_sequence.py` prints: the backend's counts per import, its day number,
  /// the decks' descriptions, and the view of the collection the truth files hold.
  struct Collection: Decodable {
    struct ImportCounts: Decodable, Equatable {
      var new: Int
      var updated: Int
      var duplicate: Int
    }
    struct DeckDescription: Decodable, Equatable {
      var description: String
      var markdown: Bool
    }
    struct ReviewTime: Decodable, Equatable {
      var noteGuid: String
      var ord: Int
      var id: Int64
    }
    var imports: [ImportCounts]
    var reviewTimes: [ReviewTime]
    var today: Int64
    var deckDescriptions: [String: DeckDescription]
    var view: AnkiTruth

    func note(_ guid: String) -> AnkiTruth.Note? { view.notes.first { $0.guid == guid } }
  }

  static let namespace = "com.example.vocabulary"
  static func guid(_ id: String, namespace: String = namespace) -> String {
    AnkiGUID.derived(from: [namespace, id])
  }

  static let picture = Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

  /// The app's records as they were at the first export, or (`edited`) after word-1 was edited
  /// and word-3 added.
  static func firstExport(namespace: String = namespace, edited: Bool = false) throws -> DeckBuilder {
    var builder = DeckBuilder(namespace: namespace, modificationDate: Date(timeIntervalSince1970: 1_700_000_000))
    try builder.addNote(
      id: "word-1", fields: ["hablar", edited ? "to speak, to talk" : "to speak <loudly>"], format: .plainText,
      deck: "Spanish::Verbs", tags: ["verbs"],
      modified: Date(timeIntervalSince1970: edited ? 1_710_000_000 : 1_700_000_100))
    try builder.addNote(
      id: "word-2", fields: [#"la casa <img src="casa.png">"#, "the house"],
      noteType: StockNoteType.basicAndReversedCard.noteType, deck: "Spanish::Nouns")
    try builder.addNote(
      id: "sentence-1", fields: ["{{c1::Yo}} {{c2::hablo}} español", ""], noteType: StockNoteType.cloze.noteType,
      deck: "Spanish")
    if edited { try builder.addNote(id: "word-3", fields: ["comer", "to eat"], deck: "Spanish::Verbs") }
    try builder.describeDeck("Spanish", as: "Words from **the app**", isMarkdown: true)
    try builder.addMedia(picture, named: "casa.png")
    return builder
  }

  static func judge(_ packages: [String]) throws -> Collection {
    let output = try PythonScript.runWithAnki("anki_import_sequence.py", packages)
    return try JSONDecoder().decode(Collection.self, from: Data(output.utf8))
  }

  static func write(_ builder: DeckBuilder, to path: String, as format: FormatName) async throws {
    let report = try await DeckConverter().write(
      builder.build(), to: URL(filePath: path), options: ConversionOptions(to: format))
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  @Test("Anki imports the notes, cards, decks and media the app gave", arguments: [FormatName.apkg, .apkgModern])
  func imported(format: FormatName) async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let package = scratch.path(for: "Spanish.apkg")
    try await Self.write(try Self.firstExport(), to: package, as: format)

    let anki = try Self.judge([package])
    #expect(anki.imports == [Collection.ImportCounts(new: 3, updated: 0, duplicate: 0)])
    #expect(anki.view.notes.count == 3)
    let word1 = try #require(anki.note(Self.guid("word-1")))
    #expect(word1.fields == ["hablar", "to speak &lt;loudly&gt;"])
    #expect(word1.tags == ["verbs"])
    #expect(word1.mod == 1_700_000_100)
    #expect(word1.noteType.hasPrefix("Basic"))
    #expect(anki.note(Self.guid("word-2"))?.fields == [#"la casa <img src="casa.png">"#, "the house"])
    #expect(anki.note(Self.guid("sentence-1"))?.noteType.hasPrefix("Cloze") == true)

    let cards = anki.view.cards.map {
      "\($0.noteGuid == Self.guid("word-2") ? "word-2" : $0.noteGuid == Self.guid("word-1") ? "word-1" : "sentence-1")/\($0.ord) \($0.deck)"
    }
    #expect(
      cards.sorted() == [
        "sentence-1/0 Spanish", "sentence-1/1 Spanish", "word-1/0 Spanish::Verbs", "word-2/0 Spanish::Nouns",
        "word-2/1 Spanish::Nouns",
      ])
    #expect(anki.view.cards.allSatisfy { $0.type == 0 && $0.queue == 0 })
    #expect(anki.view.media == ["casa.png": SHA1.hex(SHA1.digest(Self.picture))])
    #expect(
      anki.deckDescriptions == [
        "Spanish": .init(description: "Words from **the app**", markdown: true),
        "Spanish::Nouns": .init(description: "", markdown: false),
        "Spanish::Verbs": .init(description: "", markdown: false),
      ])
  }

  @Test("a second export after edits updates the notes Anki has, adds the new one, and duplicates none")
  func exportedAgain() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let first = scratch.path(for: "first.apkg")
    try await Self.write(try Self.firstExport(), to: first, as: .apkg)

    // The app edited word-1 (later), kept the rest, and added word-3.
    let second = scratch.path(for: "second.apkg")
    try await Self.write(try Self.firstExport(edited: true), to: second, as: .apkg)

    // Another app's deck with the same record ids and the same text.
    let otherApp = scratch.path(for: "other.apkg")
    try await Self.write(try Self.firstExport(namespace: "org.example.flashcards"), to: otherApp, as: .apkg)

    let anki = try Self.judge([first, second, otherApp])
    #expect(
      anki.imports == [
        Collection.ImportCounts(new: 3, updated: 0, duplicate: 0),
        Collection.ImportCounts(new: 1, updated: 1, duplicate: 2),
        Collection.ImportCounts(new: 3, updated: 0, duplicate: 0),
      ])
    #expect(anki.view.notes.count == 7)
    #expect(anki.note(Self.guid("word-1"))?.fields == ["hablar", "to speak, to talk"])
    #expect(anki.note(Self.guid("word-1"))?.mod == 1_710_000_000)
    #expect(anki.note(Self.guid("word-3"))?.fields == ["comer", "to eat"])
    #expect(
      anki.note(Self.guid("word-1", namespace: "org.example.flashcards"))?.fields == [
        "hablar", "to speak &lt;loudly&gt;",
      ])
    // One note type each, however many exports: the ids are the same each time.
    #expect(anki.view.noteTypes.filter { $0.name.hasPrefix("Basic (and reversed card)") }.count == 2)
    #expect(anki.view.noteTypes.filter { $0.name.hasPrefix("Cloze") }.count == 2)
  }

  @Test(
    "an app's own note type, changed in a later version of the app, is updated in Anki: one note type, the new template"
  )
  func ownNoteTypeUpdated() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    func export(back: String, css: String, on day: TimeInterval, to name: String) async throws -> String {
      var builder = DeckBuilder(namespace: Self.namespace, modificationDate: Date(timeIntervalSince1970: day))
      let listening = builder.noteType(
        named: "Listening", fields: ["Audio", "Text"],
        templates: [NoteType.CardTemplate(name: "Listen", questionFormat: "{{Audio}}", answerFormat: back)], css: css)
      try builder.addNote(id: "1", fields: ["[sound:hola.mp3]", "hola"], noteType: listening)
      try builder.addMedia(Data("not really audio".utf8), named: "hola.mp3")
      let path = scratch.path(for: name)
      try await Self.write(builder, to: path, as: .apkg)
      return path
    }
    let first = try await export(back: "{{Text}}", css: ".card { color: red }", on: 1_700_000_000, to: "v1.apkg")
    let second = try await export(
      back: "{{FrontSide}}<hr id=answer>{{Text}}", css: ".card { color: navy }", on: 1_710_000_000, to: "v2.apkg")

    let anki = try Self.judge([first, second])
    let listening = anki.view.noteTypes.filter { $0.name.hasPrefix("Listening") }
    #expect(listening.map(\.name) == ["Listening"])
    #expect(
      listening.first?.templates
        == [.init(name: "Listen", qfmt: "{{Audio}}", afmt: "{{FrontSide}}<hr id=answer>{{Text}}")])
    #expect(listening.first?.css == ".card { color: navy }")
    #expect(anki.view.notes.count == 1)
  }

  @Test(
    "the app's review states arrive as Anki schedules: due on the day the app said, intervals, ease, counts, suspension"
  )
  func reviewStates() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let now = Date()
    var builder = DeckBuilder(namespace: Self.namespace)
    try builder.addNote(
      id: "due-soon", fields: ["ir", "to go"],
      reviewState: DeckBuilder.ReviewState(
        due: now.addingTimeInterval(10 * 86_400), intervalDays: 12, ease: 2.3, reviews: 5, lapses: 1))
    try builder.addNote(
      id: "overdue", fields: ["ser", "to be"],
      reviewState: DeckBuilder.ReviewState(due: now.addingTimeInterval(-3 * 86_400), intervalDays: 4))
    try builder.addNote(
      id: "suspended-review", fields: ["estar", "to be"],
      reviewState: DeckBuilder.ReviewState(due: now.addingTimeInterval(86_400), intervalDays: 30, ease: 2.7),
      suspended: true)
    try builder.addNote(id: "suspended-new", fields: ["tener", "to have"], suspended: true)
    try builder.addNote(id: "new", fields: ["hacer", "to do"])
    try builder.addNote(
      id: "one-way", fields: ["poder", "can"], noteType: StockNoteType.basicAndReversedCard.noteType,
      reviewState: DeckBuilder.ReviewState(due: now.addingTimeInterval(2 * 86_400), intervalDays: 5),
      suspendedCards: [1])
    let package = scratch.path(for: "progress.apkg")
    try await Self.write(builder, to: package, as: .apkg)

    let anki = try Self.judge([package])
    func card(_ id: String) throws -> AnkiTruth.Card {
      try #require(anki.view.cards.first { $0.noteGuid == Self.guid(id) })
    }
    let soon = try card("due-soon")
    #expect(
      [soon.type, soon.queue, soon.ivl, soon.factor, soon.reps, soon.lapses] == [2, 2, 12, 2_300, 5, 1] as [Int])
    #expect(soon.due == anki.today + 10)
    let overdue = try card("overdue")
    #expect([overdue.type, overdue.queue, overdue.ivl, overdue.factor, overdue.reps] == [2, 2, 4, 2_500, 1] as [Int])
    #expect(overdue.due == anki.today - 3)
    let suspendedReview = try card("suspended-review")
    #expect([suspendedReview.type, suspendedReview.queue, suspendedReview.ivl] == [2, -1, 30] as [Int])
    #expect(suspendedReview.due == anki.today + 1)
    let suspendedNew = try card("suspended-new")
    #expect([suspendedNew.type, suspendedNew.queue] == [0, -1] as [Int])
    let new = try card("new")
    #expect([new.type, new.queue] == [0, 0] as [Int])
    let oneWay = anki.view.cards.filter { $0.noteGuid == Self.guid("one-way") }.sorted { $0.ord < $1.ord }
    #expect(oneWay.map { [$0.ord, $0.type, $0.queue, $0.ivl] } == [[0, 2, 2, 5], [1, 2, -1, 5]])
    #expect(oneWay.allSatisfy { $0.due == anki.today + 2 })
  }

  @Test(
    "a card's own review state and its history arrive in Anki's review log, once however often the deck is imported; a later export leaves the progress Anki has"
  )
  func reviewHistory() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let now = Date()
    let first = Date(timeIntervalSince1970: (now.timeIntervalSince1970 - 30 * 86_400).rounded(.down))
    let history = [
      DeckBuilder.PastReview(date: first, answer: .good, intervalDays: 0, duration: 8.25, kind: .learning),
      DeckBuilder.PastReview(
        date: first.addingTimeInterval(86_400 + 0.5), answer: .good, intervalDays: 4, ease: 2.5, duration: 5),
      DeckBuilder.PastReview(
        date: first.addingTimeInterval(5 * 86_400), answer: .again, intervalDays: 1, previousIntervalDays: 4,
        ease: 2.3, duration: 61, kind: .relearning),
    ]
    func export(_ history: [DeckBuilder.PastReview], reviews: Int, modified: Date, to name: String) async throws
      -> String
    {
      var builder = DeckBuilder(namespace: Self.namespace)
      try builder.addNote(
        id: "casa", fields: ["la casa", "the house"], noteType: StockNoteType.basicAndReversedCard.noteType,
        modified: modified,
        reviewState: DeckBuilder.ReviewState(due: now.addingTimeInterval(6 * 86_400), intervalDays: 8),
        cardReviewStates: [
          1: DeckBuilder.ReviewState(
            due: now.addingTimeInterval(2 * 86_400), intervalDays: 3, ease: 2.3, reviews: reviews, lapses: 1,
            history: history)
        ])
      let package = scratch.path(for: name)
      try await Self.write(builder, to: package, as: .apkg)
      return package
    }
    let package = try await export(history, reviews: 3, modified: first, to: "history.apkg")

    let anki = try Self.judge([package, package])
    let cards = anki.view.cards.filter { $0.noteGuid == Self.guid("casa") }.sorted { $0.ord < $1.ord }
    #expect(
      cards.map { [$0.ord, $0.type, $0.queue, $0.ivl, $0.factor, $0.reps, $0.lapses] } == [
        [0, 2, 2, 8, 2_500, 1, 0], [1, 2, 2, 3, 2_300, 3, 1],
      ])
    #expect(cards.map(\.due) == [anki.today + 6, anki.today + 2])
    #expect(
      anki.view.reviews == [
        AnkiTruth.Review(
          noteGuid: Self.guid("casa"), ord: 1, ease: 3, ivl: 0, lastIvl: 0, factor: 0, time: 8_250, type: 0),
        AnkiTruth.Review(
          noteGuid: Self.guid("casa"), ord: 1, ease: 3, ivl: 4, lastIvl: 0, factor: 2_500, time: 5_000, type: 1),
        AnkiTruth.Review(
          noteGuid: Self.guid("casa"), ord: 1, ease: 1, ivl: 1, lastIvl: 4, factor: 2_300, time: 61_000, type: 2),
      ])
    let moments = history.map { Int64(($0.date.timeIntervalSince1970 * 1_000).rounded(.down)) }
    #expect(anki.reviewTimes == moments.map { Collection.ReviewTime(noteGuid: Self.guid("casa"), ord: 1, id: $0) })

    // A later export, after one more answer in the app: Anki updates the note, and keeps the
    // progress it has of the card (its state and history) as it is.
    let later =
      history + [
        DeckBuilder.PastReview(
          date: now.addingTimeInterval(-86_400), answer: .hard, intervalDays: 3, previousIntervalDays: 1, ease: 2.15,
          duration: 3)
      ]
    let updated = try await export(later, reviews: 4, modified: now.addingTimeInterval(-60), to: "later.apkg")
    let again = try Self.judge([package, updated])
    #expect(again.imports.map(\.updated) == [0, 1])
    #expect(again.reviewTimes == anki.reviewTimes)
    #expect(again.view.cards == anki.view.cards)
  }

  /// What Anki's own CSV import makes of a file (`make_csv_fixtures.py --view`), in import order.
  struct CSVImport: Decodable {
    struct Note: Decodable, Equatable {
      var guid: String?
      var noteType: String
      var fields: [String]
      var tags: [String]
      var deck: String
      var cards: [Int]
    }
    var notes: [Note]
  }

  @Test("written as CSV, the built deck is what Anki's own CSV import makes of it")
  func importedAsCSV() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let sheet = scratch.path(for: "Spanish.csv")
    let report = try await DeckConverter().write(
      Self.firstExport().build(), to: URL(filePath: sheet), options: ConversionOptions(to: .csv))
    // Only what a CSV file cannot hold is reported: the picture, the deck's description, the
    // order of the new cards (rows go parents first: the sentence in `Spanish` before the words
    // of its subdecks, which the app added first), and when the app last changed each record.
    #expect(
      Set(report.warnings.map(\.category)) == [
        "csv-media", "csv-deck", "csv-scheduling", "modification-times-dropped",
      ], "\(report.warnings)")

    let output = try PythonScript.runWithAnki("make_csv_fixtures.py", ["--view", sheet])
    let anki = try JSONDecoder().decode(CSVImport.self, from: Data(output.utf8))
    let notes = Dictionary(anki.notes.map { ($0.guid ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    #expect(anki.notes.count == 3)
    #expect(
      notes[Self.guid("word-1")]
        == CSVImport.Note(
          guid: Self.guid("word-1"), noteType: "Basic", fields: ["hablar", "to speak &lt;loudly&gt;"], tags: ["verbs"],
          deck: "Spanish::Verbs", cards: [0]))
    #expect(
      notes[Self.guid("word-2")]
        == CSVImport.Note(
          guid: Self.guid("word-2"), noteType: "Basic (and reversed card)",
          fields: [#"la casa <img src="casa.png">"#, "the house"], tags: [], deck: "Spanish::Nouns", cards: [0, 1]))
    #expect(
      notes[Self.guid("sentence-1")]
        == CSVImport.Note(
          guid: Self.guid("sentence-1"), noteType: "Cloze", fields: ["{{c1::Yo}} {{c2::hablo}} español", ""], tags: [],
          deck: "Spanish", cards: [0, 1]))
  }

  @Test(
    "written as a JSON deck, a json-dir or a CrowdAnki folder and converted to a package, Anki sees what it sees of the package written directly",
    arguments: [FormatName.json, .jsonDir, .crowdanki])
  func throughAnotherFormat(format: FormatName) async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let direct = scratch.path(for: "direct.apkg")
    try await Self.write(try Self.firstExport(), to: direct, as: .apkg)
    let middle = scratch.path(for: format == .json ? "Spanish.json" : "Spanish")
    let report = try await DeckConverter().write(
      Self.firstExport().build(), to: URL(filePath: middle), options: ConversionOptions(to: format))
    // A CrowdAnki folder holds no positions, and CrowdAnki's import adds the subdecks' notes by
    // the subdecks' names: the second word (in `Spanish::Nouns`) would come before the first.
    // Nor does it hold when the app last changed each record.
    let expectedWarnings: [Diagnostic.Category] =
      format == .crowdanki ? ["scheduling", "modification-times-dropped"] : []
    #expect(report.warnings.map(\.category) == expectedWarnings, "\(report.warnings)")
    let package = scratch.path(for: "through.apkg")
    let run = try CommandRun.deckport(["convert", middle, package, "--quiet"])
    #expect(run.status == 0, "\(run.standardError)")

    let expected = try Self.judge([direct]).view
    let anki = try Self.judge([package]).view
    func comparable(_ notes: [AnkiTruth.Note]) -> [String] {
      // CrowdAnki keeps no modification time: the folder's stands for every note.
      notes.map { "\($0.guid) \($0.noteType) \($0.fields) \($0.tags)\(format == .crowdanki ? "" : " \($0.mod)")" }
        .sorted()
    }
    #expect(comparable(anki.notes) == comparable(expected.notes))
    #expect(
      anki.cards.map { "\($0.noteGuid)/\($0.ord) \($0.deck)" }.sorted()
        == expected.cards.map { "\($0.noteGuid)/\($0.ord) \($0.deck)" }.sorted())
    #expect(anki.media == expected.media)
  }
}
