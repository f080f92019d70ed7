import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// The summary a conversion reports of what it wrote. A package writer tells the converter what
/// it writes before the file is finished, and the summary is made meanwhile on another thread;
/// it must be the summary of the file as it reads back, as it is for a writer that does not.
@Suite("The summary of a written deck, made while the package is still written")
struct WrittenSummaryTests {
  /// The selection tests' collection, with a note naming a file that is not there.
  static var collection: DeckCollection {
    var collection = DeckSelectionTests.collection
    collection.notes[3].fields[1] = "<img src=\"gone.png\">"
    return collection
  }

  @Test(
    "the reported summary's counts, tags and media are those of the output read back",
    arguments: ["apkg", "colpkg", "json", "csv"])
  func reportedSummaryReadsBack(extension: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = scratch.path(for: "out.\(`extension`)")
    let report = try DeckConverter().write(LoadedDeck(collection: Self.collection, formatName: "test"), to: output)
    let readBack = DeckSummary(try DeckLoader().load(path: output))
    let summary = report.summary
    #expect(readBack.format.hasPrefix(summary.format))
    #expect((summary.notes, summary.cards, summary.media) == (readBack.notes, readBack.cards, readBack.media))
    #expect(summary.tags == readBack.tags)
    #expect(summary.noteTypes == readBack.noteTypes)
    #expect(summary.missingMedia == readBack.missingMedia)
    #expect(summary.unusedMedia == readBack.unusedMedia)
    // A CSV file holds no media, so every file the notes name is missing from it.
    #expect(summary.missingMedia == (`extension` == "csv" ? ["eat.png", "gone.png", "rosa.mp3"] : ["gone.png"]))
    #expect(summary.tags.map(\.name) == ["latin", "verbs::ar"])
  }

  @Test("the summary of an .apkg names no unused file: the writer leaves such files out")
  func apkgLeavesUnusedOut() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let output = scratch.path(for: "out.apkg")
    let report = try DeckConverter().write(LoadedDeck(collection: Self.collection, formatName: "test"), to: output)
    #expect(report.summary.media == 2)
    #expect(report.summary.unusedMedia == [])
    #expect(report.warnings.contains { $0.category == .mediaUnused && $0.location.description.contains("unused.png") })
  }
}
