import DeckConversion
import DeckTestSupport
import Foundation
import Testing

/// The README's library example compiles and runs: its code is checked here word for word
/// against the README (so the two cannot drift), with `print` collecting lines and the package
/// path pointing at a fixture.
@Suite("the README's library example")
struct ReadmeLibraryExampleTests {
  /// The README's Swift block, as it must read.
  static let shown = """
    import DeckConversion

    let deck = try DeckLoader().load(path: "French.apkg")
    print(deck.formatName, deck.collection.notes.count)
    for file in deck.collection.media {
      print(file.name, try file.blob.sha1Hex())   // bytes are streamed from the package
    }
    """

  @Test("the README shows this code")
  func readmeShowsIt() throws {
    let readme = try String(contentsOfFile: Fixtures.path("../README.md"), encoding: .utf8)
    #expect(readme.contains("```swift\n\(Self.shown)\n```\n"))
  }

  @Test("the code runs: format, note count, and every media file's name and SHA-1")
  func runs() throws {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    let path = Fixtures.path("anki/latest_sched.apkg")

    let deck = try DeckLoader().load(path: path)
    print(deck.formatName, deck.collection.notes.count)
    for file in deck.collection.media {
      print(file.name, try file.blob.sha1Hex())  // bytes are streamed from the package
    }

    #expect(printed.first == "apkg-latest 9")
    #expect(printed.count == 7)
    #expect(printed.dropFirst().allSatisfy { $0.range(of: #" [0-9a-f]{40}$"#, options: .regularExpression) != nil })
  }
}
