import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// What `DeckLoader` says of a folder: one that holds no deck is not of the format asked (or of
/// none it can tell), one it may not read is unreadable, whether a format is named or not.
@Suite("DeckLoader: a folder that is no deck, and one that cannot be read")
struct DeckLoaderFolderTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  /// A folder holding one file that is no deck.
  static func plainFolder(in scratch: TemporaryDirectory) throws -> String {
    let folder = scratch.path(for: "notes")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try Data("shopping list\n".utf8).write(to: URL(filePath: folder).appending(path: "list.txt"))
    return folder
  }

  @Test("a folder that is no deck: its format cannot be told without a name, and is not the one named")
  func folderThatIsNoDeck() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let folder = try Self.plainFolder(in: scratch)
    let unnamed = try #require(throws: DeckError.self) { try DeckLoader().load(path: folder) }
    #expect(unnamed.kind == .unknownFormat)
    #expect(
      unnamed.description
        == "\(folder): is a folder holding none of the folder formats deckport reads (json-dir, crowdanki)")
    // A format that reads a file, named for a folder: not the container that format needs.
    let asPackage = try #require(throws: DeckError.self) { try DeckLoader().load(path: folder, format: .apkg) }
    #expect(asPackage.kind == .wrongFormat)
    #expect(asPackage.description == "\(folder): is a folder, not a file: apkg is read from a file")
    // By URL, as by path.
    let byURL = try #require(throws: DeckError.self) { try DeckLoader().load(URL(filePath: folder), format: .apkg) }
    #expect(byURL == asPackage)
    // A folder format named for a folder without its index: that format's own missing part.
    let asDirectory = try #require(throws: DeckError.self) { try DeckLoader().load(path: folder, format: .jsonDir) }
    #expect(asDirectory.kind == .missingPart)
  }

  @Test("a file named as a folder format is not that format's container")
  func fileAsFolderFormat() throws {
    for format: FormatName in [.jsonDir, .crowdanki] {
      let error = try #require(throws: DeckError.self) { try DeckLoader().load(path: Self.package, format: format) }
      #expect(error.kind == .wrongFormat)
      #expect(error.description == "\(Self.package): is a file, not a folder: \(format.rawValue) is read from a folder")
    }
  }

  @Test("a folder that cannot be read is unreadable, with or without a format named, as the CLI shows it")
  func unreadableFolder() throws {
    // A copy of a real deck folder, made unreadable: the kind must not depend on whether a deck
    // is inside. Root may read any folder, so the command runs as `nobody` then.
    let scratch = try TemporaryDirectory()
    defer {
      _ = chmod(scratch.path(for: "French"), 0o755)
      scratch.remove()
    }
    let folder = scratch.path(for: "French")
    let written = try DeckConverter().convert(
      input: Self.package, output: folder, options: ConversionOptions(to: .jsonDir))
    #expect(written.summary.notes == 9)
    #expect(chmod(scratch.path, 0o755) == 0 && chmod(folder, 0o000) == 0)
    for format in [[], ["--from", "json-dir"], ["--from", "apkg"]] {
      let arguments = ["inspect", folder, "--verbose"] + format
      let run = try CommandRun.deckportWithoutRoot(arguments)
      #expect(run.status == 1, "\(format): \(run.standardError)")
      #expect(
        run.standardError.hasPrefix(
          "deckport: error: \(folder): is a folder that cannot be read (Permission denied)\n"),
        "\(format): \(run.standardError)")
      #expect(run.standardError.contains("kind: unreadableFile"), "\(format): \(run.standardError)")
    }
  }
}
