import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// `deckport convert --duplicate-guids fail|keep-first|new-guid` on a package whose notes share
/// a GUID (the legacy fixture with note 1795331276846 given the GUID of note 1795331276845).
@Suite("deckport convert --duplicate-guids")
struct DuplicateGUIDCommandTests {
  static let first: Int64 = 1_795_331_276_845
  static let second: Int64 = 1_795_331_276_846
  static let guid = "An7DBu|ids"

  static func input(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "dup.apkg")
    try DamagedInputTests.alteredCollection("UPDATE notes SET guid = '\(guid)' WHERE id = \(second)")(path)
    return path
  }

  @Test(
    "without the option (fail): exit 1, both notes named, nothing written",
    arguments: ["apkg", "apkg-modern", "colpkg"])
  func refused(format: String) throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(in: scratch)
    let output = scratch.path(for: "out.\(format == "colpkg" ? "colpkg" : "apkg")")
    let run = try CommandRun.deckport(["convert", input, output, "--to", format])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "deckport: error: \(output): note \(Self.second): note has the GUID '\(Self.guid)' of note \(Self.first); Anki matches notes by GUID, so importing the package again would update only one of them (--duplicate-guids keep-first or new-guid writes them)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test(
    "keep-first: the first note is written, the later one left out with its card and named",
    arguments: ["apkg", "apkg-modern", "colpkg"])
  func keepFirst(format: String) throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(in: scratch)
    let output = scratch.path(for: "out.\(format == "colpkg" ? "colpkg" : "apkg")")
    let run = try CommandRun.deckport(["convert", input, output, "--to", format, "--duplicate-guids", "keep-first"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardError.contains(
        "deckport: \(output): note \(Self.second): warning: [guid-duplicate] note has the GUID '\(Self.guid)' of note \(Self.first), and Anki matches notes by GUID (importing the package again would update only one of them); it is left out, with its cards\n"
      ))
    let deck = try DeckLoader().load(path: output).collection
    #expect(deck.notes.count == 8)
    #expect(deck.notes.contains { $0.id == Self.first && $0.guid == Self.guid })
    #expect(!deck.notes.contains { $0.id == Self.second })
    #expect(!deck.cards.contains { $0.noteID == Self.second })
  }

  @Test("keep-first with --strict fails: the dropped note is a warning")
  func keepFirstStrict() throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(in: scratch)
    let output = scratch.path(for: "out.apkg")
    let run = try CommandRun.deckport(["convert", input, output, "--duplicate-guids", "keep-first", "--strict"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("[guid-duplicate]"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test(
    "new-guid: every note is written, the later one with a GUID derived from its old GUID and id",
    arguments: ["apkg", "apkg-modern", "colpkg"])
  func newGUID(format: String) throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(in: scratch)
    let output = scratch.path(for: "out.\(format == "colpkg" ? "colpkg" : "apkg")")
    let run = try CommandRun.deckport(["convert", input, output, "--to", format, "--duplicate-guids", "new-guid"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let fresh = DerivedID.guid(for: [Self.guid, String(Self.second)])
    #expect(
      run.standardError.contains(
        "deckport: \(output): note \(Self.second): warning: [guid-duplicate] note has the GUID '\(Self.guid)' of note \(Self.first), and Anki matches notes by GUID (importing the package again would update only one of them); it is written with the new GUID '\(fresh)'\n"
      ))
    let deck = try DeckLoader().load(path: output).collection
    #expect(deck.notes.count == 9)
    #expect(deck.notes.first { $0.id == Self.second }?.guid == fresh)
    #expect(deck.notes.first { $0.id == Self.first }?.guid == Self.guid)
  }

  @Test("an unknown policy is a usage error (exit 64)")
  func unknownPolicy() throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy2_sched.apkg"), scratch.path(for: "o.apkg"), "--duplicate-guids", "merge",
    ])
    #expect(run.status == 64)
    #expect(run.standardError.contains("--duplicate-guids"))
  }
}
