import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A collection's deletion records (Anki's `graves`) go into every Anki package, JSON document
/// and json-dir folder (a deck package saying that Anki's import ignores them), and a collection
/// package's settings into collection packages and the JSON formats; a format without a place
/// for them says so, counting them, and fails a `--strict` conversion.
@Suite("Conversions: deletion records")
struct DeletionRecordsConversionTests {
  /// A real collection package holding 4 deletion records (and one note).
  static let input = Fixtures.path("real/indian-music-legacy.colpkg")

  @Test(
    "kept by formats that hold them, with no warning about them",
    arguments: ["out.colpkg", "out.apkg", "out.json"])
  func kept(output: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: output)
    let report = try DeckConverter().convert(input: Self.input, output: path)
    #expect(!report.warnings.contains { $0.category == "deletions-dropped" })
    // A deck package keeps them, and says that Anki's import of it ignores them.
    let ignored = report.warnings.filter { $0.category == "deletions-ignored" }
    #expect(ignored.count == (output == "out.apkg" ? 1 : 0))
    #expect(ignored.allSatisfy { $0.message.hasPrefix("4 deletion records are kept in the package") })
    #expect(ignored.allSatisfy { $0.location.file == path && $0.location.table == "graves" })
    #expect(report.summary.deletions == 4)
    #expect(try DeckLoader().load(path: path).collection.deletions.count == 4)
    // Settings: a collection package's (15), kept but in a deck package.
    #expect(report.summary.settings == (output == "out.apkg" ? 0 : 15))
    #expect(report.warnings.contains { $0.category == "settings-dropped" } == (output == "out.apkg"))
  }

  @Test(
    "dropped with a warning counting them by formats that have no place for them",
    arguments: [("out.csv", "a CSV file"), ("out-crowdanki", "a CrowdAnki folder"), ("Cards.plist", "app storage")])
  func dropped(output: String, format: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: output)
    let to: FormatName? = output.hasSuffix("crowdanki") ? "crowdanki" : nil
    let report = try DeckConverter().convert(input: Self.input, output: path, options: ConversionOptions(to: to))
    let dropped = report.warnings.filter { $0.category == "deletions-dropped" }
    #expect(dropped.count == 1)
    #expect(dropped.first?.message.hasPrefix("4 deletion records are not kept") == true)
    #expect(dropped.first?.message.hasSuffix(": \(format) has no place for them") == true)
    #expect(dropped.first?.location.file == path)
    #expect(report.summary.deletions == 0)
    // The collection package's own settings go the same way.
    let settings = report.warnings.filter { $0.category == "settings-dropped" }
    #expect(settings.count == 1)
    #expect(settings.first?.message.hasPrefix("the collection's 15 settings are not kept") == true)
    #expect(settings.first?.message.hasSuffix(": \(format) has no place for them") == true)
  }

  @Test("--strict fails a conversion that drops them (and nothing else), and writes nothing")
  func strict() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    // One note of Anki's stock Basic note type, no tags or markup: app storage keeps everything
    // of it but the one deletion record.
    try Data(
      """
      {"format": "deckport-deck", "version": 1,
       "notes": [{"noteType": "Basic", "fields": {"Front": "a", "Back": "b"}}],
       "deletions": [{"id": 5, "kind": 1, "usn": -1}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: input))
    let path = scratch.path(for: "Cards.plist")
    var warnings: [Diagnostic] = []
    let error = try #require(throws: DeckError.self) {
      try DeckConverter().convert(
        input: input, output: path, options: ConversionOptions(to: "plist", strict: true),
        onWarning: { warnings.append($0) })
    }
    #expect(error.kind == .notFaithful)
    #expect(warnings.map(\.category) == ["deletions-dropped"])
    #expect(warnings.first?.message.hasPrefix("1 deletion record is not kept") == true)
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
