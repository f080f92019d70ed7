import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// A schema-18 option group's sync state, which Anki keeps in the `usn` column of `deck_config`
/// outside the group's protobuf, is read into ``DeckOptions/ankiProperties`` and laid over the
/// `dconf` entry written (it was written as 0: synced). That Anki's restore of what deckport
/// writes has the group Anki made, member for member, is checked against the real backend in
/// `Tests/anki/test_writer_judged_by_anki.py` (`test_option_groups_made_by_anki_survive`).
@Suite("Anki packages: what Anki keeps of an option group besides its settings")
struct OptionGroupPropertiesTests {
  /// `anki/latest.colpkg` with its `Default` group waiting for a sync, as Anki leaves a group
  /// the user changed (no fixture has one: each was exported right after a sync or creation).
  static func waitingPackage(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "waiting.colpkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest.colpkg"), to: path, runningOnCollection: "UPDATE deck_config SET usn = -1")
    return path
  }

  @Test("read from the usn column; a group at 0 has none")
  func read() throws {
    let scratch = try TemporaryDirectory()
    let synced = try AnkiPackageReader().read(path: Fixtures.path("anki/latest.colpkg")).collection
    #expect(synced.deckOptions.map(\.ankiProperties) == [[]])
    let waiting = try AnkiPackageReader().read(path: Self.waitingPackage(in: scratch)).collection
    #expect(waiting.deckOptions.map(\.ankiProperties) == [[AnkiProperty(key: "usn", jsonText: "-1")]])
  }

  @Test("written over the converted settings; a key the model owns is left out with a warning")
  func written() throws {
    let scratch = try TemporaryDirectory()
    var collection = try AnkiPackageReader().read(path: Self.waitingPackage(in: scratch)).collection
    collection.deckOptions[0].ankiProperties.append(AnkiProperty(key: "name", jsonText: #""Other""#))
    let path = scratch.path(for: "written.colpkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .colpkg))
      .write(collection, to: path, reportingAs: path)
    let invalid = warnings.filter { $0.category == "anki-property-invalid" }
    #expect(invalid.map(\.location.item) == ["option group 'Default' (id 1), property 'name'"])
    let group = try #require(try AnkiPropertiesTests.writtenObjects("dconf", at: path)["Default"])
    #expect(group["usn"] as? Int == -1)
    #expect((group["new"] as? [String: Any])?["perDay"] as? Int == 20)
    let back = try AnkiPackageReader().read(path: path).collection
    guard case .anki11JSON(let text) = back.deckOptions.first?.settings else {
      Issue.record("a legacy collection's group is schema-11 JSON")
      return
    }
    #expect(text.contains(#""usn":-1"#))
  }

  @Test("formats without a place for them say so, naming the option groups")
  func droppedWarning() throws {
    let scratch = try TemporaryDirectory()
    let collection = try AnkiPackageReader().read(path: Self.waitingPackage(in: scratch)).collection
    let warnings = collection.ankiOnlyLosses(at: SourceLocation(file: "out.csv"), format: "a CSV file")
    let dropped = try #require(warnings.first { $0.category == "anki-properties-dropped" })
    #expect(
      dropped.message.hasPrefix("what Anki keeps of 3 decks, 1 note type and 1 option group besides their content"))
    #expect(collection.withoutAnkiOnlyData().deckOptions.allSatisfy { $0.ankiProperties.isEmpty })
  }
}
