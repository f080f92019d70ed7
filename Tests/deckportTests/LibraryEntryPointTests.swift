import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// The entry points an app calls through `import DeckKit`: URLs, `async`, typed scheduling
/// values, and writing media into the app's own folder.
@Suite("DeckKit: the entry points an app calls")
struct LibraryEntryPointTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  @Test("a file URL loads the same deck as its path, with and without async")
  func loadsByURL() async throws {
    let byPath = try DeckLoader().load(path: Self.package)
    let url = URL(filePath: Self.package)
    func loadedSynchronously() throws -> LoadedDeck { try DeckLoader().load(url) }
    let byURL = try loadedSynchronously()
    let byAsyncURL = try await DeckLoader().load(url)
    #expect(byURL.collection == byPath.collection && byAsyncURL.collection == byPath.collection)
    #expect(byAsyncURL.formatName == "apkg-latest" && byAsyncURL.collection.notes.count == 9)
  }

  @Test("a URL that is not a file URL is refused, naming it")
  func refusesRemoteURL() async throws {
    let url = try #require(URL(string: "https://example.com/French.apkg"))
    let error = try #require(await #expect(throws: DeckError.self) { try await DeckLoader().load(url) })
    #expect(error.kind == .invalidRequest)
    #expect(
      error.description.contains("https://example.com/French.apkg") && error.description.contains("not a file URL"))
  }

  @Test("a missing file, caught as NSError as an app's alert sees it: deckport's domain, its kind's code and reason")
  func missingFileAsNSError() async throws {
    let missing = FileManager.default.temporaryDirectory.appending(path: "deckport-no-such-deck-\(UUID()).apkg")
    let error = try #require(await #expect(throws: DeckError.self) { try await DeckLoader().load(missing) })
    let bridged = error as NSError
    #expect(error.kind == .unreadableFile)
    #expect(bridged.domain == "deckport.DeckError" && bridged.code == 1)
    #expect(bridged.localizedFailureReason == "The file does not exist or cannot be opened.")
    #expect(bridged.localizedDescription == error.description)
    #expect(bridged.localizedDescription.contains(missing.lastPathComponent))
  }

  @Test("the output format by file URL is the one its path gives; a name without a format, or a remote URL, is refused")
  func outputFormatByURL() throws {
    let converter = DeckConverter()
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    for name in ["French.json", "French.apkg", "French.csv", "French.colpkg", "French.txt"] {
      let path = scratch.path(for: name)
      let byURL = try converter.outputFormat(named: nil, for: URL(filePath: path))
      #expect(byURL.name == (try converter.outputFormat(named: nil, for: path)).name)
    }
    #expect(try converter.outputFormat(named: nil, for: URL(filePath: scratch.path(for: "French.json"))).name == .json)
    // A named format wins over the extension, as by path.
    #expect(try converter.outputFormat(named: .csv, for: URL(filePath: scratch.path(for: "French.json"))).name == .csv)
    // An existing output is told by its content: a Core Data store named as any SQLite file
    // (a copy: the fixture is not opened in place).
    let store = URL(filePath: scratch.path(for: "Idealic.sqlite"))
    try FileManager.default.copyItem(
      atPath: Fixtures.path("app/Idealic.sqlite"), toPath: store.path(percentEncoded: false))
    #expect(
      try converter.outputFormat(named: nil, for: store).name
        == (try converter.outputFormat(named: nil, for: store.path(percentEncoded: false))).name)
    let unknown = try #require(throws: DeckError.self) {
      try converter.outputFormat(named: nil, for: URL(filePath: scratch.path(for: "French.unknown")))
    }
    #expect(unknown.kind == .unknownFormat && unknown.description.contains("French.unknown"))
    let remote = try #require(URL(string: "https://example.com/French.json"))
    let refused = try #require(throws: DeckError.self) { try converter.outputFormat(named: nil, for: remote) }
    #expect(refused.kind == .invalidRequest && refused.description.contains("not a file URL"))
  }

  @Test("a cancelled task does not start reading")
  func cancelled() async throws {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await DeckLoader().load(URL(filePath: Self.package))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("convert by URL, async, writes the output and reports it; warnings reach the callback")
  func convertsByURL() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = URL(filePath: scratch.path(for: "French.json"))
    let report = try await DeckConverter().convert(
      URL(filePath: Self.package), to: output, options: ConversionOptions(to: .json), onWarning: { _ in })
    #expect(report.outputFormat == .json && report.summary.notes == 9)
    let back = try DeckLoader().load(path: output.path(percentEncoded: false))
    #expect(
      back.collection.notes.map(\.guid) == (try DeckLoader().load(path: Self.package)).collection.notes.map(\.guid))
  }

  @Test("media are written into a folder by name, byte for byte; an unsafe name is refused and nothing escapes")
  func writesMedia() throws {
    let deck = try DeckLoader().load(path: Self.package)
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let folder = URL(filePath: scratch.path(for: "media"), directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    for file in deck.collection.media {
      let saved = try file.write(into: folder)
      #expect(saved.lastPathComponent == file.name)
      #expect(try Data(contentsOf: saved) == file.blob.data())
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).count
        == deck.collection.media.count)

    let first = try #require(deck.collection.media.first)
    #expect(throws: DeckError.self) { try first.write(into: folder) }  // exists, not replacing
    try first.write(into: folder, replacing: true)

    let hostile = MediaFile(name: "../escaped.png", blob: MediaBlob(data: Data("x".utf8)))
    let error = try #require(#expect(throws: DeckError.self) { try hostile.write(into: folder) })
    #expect(error.kind == .invalidRequest)
    #expect(
      !FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appending(path: "escaped.png").path))
  }

  @Test(
    "card type, queue and review kind carry Anki's values under their names (checked against the real backend's view)")
  func typedScheduling() throws {
    let deck = try DeckLoader().load(path: Self.package)
    let truth =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(filePath: Self.package + ".truth.json"))) as? [String: Any]
    let truthCards = try #require(truth?["cards"] as? [[String: Any]])
    func count(_ key: String, _ value: Int) -> Int { truthCards.filter { $0[key] as? Int == value }.count }
    let scheduling = deck.collection.cards.map(\.scheduling)
    #expect(scheduling.filter { $0.type == .review }.count == count("type", 2))
    #expect(scheduling.filter { $0.type == .relearning }.count == count("type", 3))
    #expect(scheduling.filter { $0.queue == .suspended }.count == count("queue", -1))
    #expect(scheduling.filter { $0.queue == .buriedByUser }.count == count("queue", -3))
    #expect(scheduling.filter { $0.queue == .suspended }.count == 1)
    #expect(deck.collection.reviews.contains { $0.kind == .manual })
    #expect(CardQueue.buriedByUser.description == "buried by user" && CardType(rawValue: 9).description == "9")
  }

  @Test("a value Anki does not define is kept through a conversion, not mapped to a name")
  func unknownValuesKept() throws {
    var collection = try DeckLoader().load(path: Self.package).collection
    collection.cards[0].scheduling.type = CardType(rawValue: 9)
    collection.reviews[0].kind = ReviewKind(rawValue: 7)
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "odd.json")
    _ = try DeckJSONFormat().write(collection, to: path, context: FormatWriteContext(destination: path))
    let back = try DeckLoader().load(path: path).collection
    #expect(back.cards[0].scheduling.type.rawValue == 9 && back.reviews[0].kind == ReviewKind(rawValue: 7))
  }

  @Test("a batch converts by URL, with and without async, as it does by path")
  func batchByURL() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let inputs = [Self.package, Fixtures.path("anki/legacy1.apkg")].map { URL(filePath: $0) }
    let folder = URL(filePath: scratch.path(for: "out"), directoryHint: .isDirectory)
    func synchronously() throws -> [BatchConversionItem] {
      try BatchConverter(jobs: 1).convert(inputs, into: folder, options: ConversionOptions(to: .json))
    }
    let items = try synchronously()
    #expect(items.count == 2 && items.allSatisfy(\.succeeded))
    let written = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    #expect(written == ["latest_sched.json", "legacy1.json"])
    let again = try await BatchConverter(jobs: 2).convert(
      inputs, into: URL(filePath: scratch.path(for: "async"), directoryHint: .isDirectory),
      options: ConversionOptions(to: .json))
    #expect(
      again.map(\.output) == items.map { $0.output.map { $0.replacingOccurrences(of: "/out/", with: "/async/") } })
    let remote = try #require(URL(string: "https://example.com/deck.apkg"))
    let error = try #require(
      #expect(throws: DeckError.self) {
        try BatchConverter().convert([remote], into: folder, options: ConversionOptions(to: .json))
      })
    #expect(error.kind == .invalidRequest)
  }

  @Test("a whole store migrates by URL, async, as it does by path")
  func storeMigrationByURL() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let source = scratch.path(for: "source.sqlite")
    let destination = scratch.path(for: "destination.sqlite")
    try FileManager.default.copyItem(atPath: Fixtures.path("apple-stores/SampleModel_V1.sqlite"), toPath: source)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    let report = try await AppMigrator().migrateStore(
      URL(filePath: source), to: URL(filePath: destination), options: AppMigrationOptions(existing: .replace))
    #expect(report.entities.map(\.entity) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
    #expect(report.entities.allSatisfy { $0.merge.added == 0 }, "the same store: every record is there already")
  }
}
