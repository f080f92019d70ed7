import DeckConversion
import DeckCore
import DeckTestSupport
import Foundation
import Testing

/// `DeckDifference` compares deck option groups (by id, then name) setting by setting, as Anki's
/// schema-11 `dconf` entry has them whatever the collection's schema, and the group each deck
/// uses. (`Tests/anki/test_diff_collection_data.py` checks the same against edits the real Anki
/// backend made, in both layouts.)
@Suite("DeckDifference: deck option groups")
struct DeckDifferenceDeckOptionsTests {
  /// `text` (a schema-11 `dconf` entry) with `edit` applied to its parsed object.
  private static func edited(_ text: String, _ edit: (inout [String: Any]) -> Void) throws -> String {
    var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    edit(&object)
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  @Test("settings by path, a group added, a deck moved to it; the same settings in the other schema are equal")
  func optionGroups() throws {
    let latest = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    let legacy = try DeckLoader().load(path: Fixtures.path("anki/legacy.colpkg"))
    // The same collection, its Default group as schema-18 protobuf and as schema-11 JSON.
    guard case .anki18Protobuf = latest.collection.deckOptions.first?.settings,
      case .anki11JSON(let text) = legacy.collection.deckOptions.first?.settings
    else {
      Issue.record("expected the Default group in both encodings")
      return
    }
    #expect(try DeckDifference(from: latest, to: legacy).deckOptions.count.isEmpty)

    var changed = legacy
    changed.collection.deckOptions[0].settings = .anki11JSON(
      try Self.edited(text) { object in
        var new = object["new"] as? [String: Any] ?? [:]
        new["perDay"] = 33
        new["delays"] = [2.0, 15.0]  // written [2,15] by JSONSerialization
        object["new"] = new
        object["maxTaken"] = 90
        object["deckportProbe"] = true
      })
    changed.collection.deckOptions.append(
      DeckOptions(id: 1_700_000_000_000, name: "Fast", settings: .anki11JSON(try Self.edited(text) { _ in })))
    let french = try #require(changed.collection.decks.firstIndex { $0.name == "Languages::French" })
    changed.collection.decks[french].kind = .normal(optionsID: 1_700_000_000_000)

    let difference = try DeckDifference(from: latest, to: changed)
    #expect(difference.deckOptions.added.map(\.name) == ["Fast"])
    #expect(difference.deckOptions.removed.isEmpty)
    let change = try #require(difference.deckOptions.changed.first)
    #expect(difference.deckOptions.changed.count == 1 && change.name == "Default" && change.rename == nil)
    #expect(
      change.settings.map { "\($0.key): \($0.old ?? "-") → \($0.new ?? "-")" } == [
        "deckportProbe: - → true", "maxTaken: 60 → 90", "new.delays: [1.0,10.0] → [2,15]", "new.perDay: 20 → 33",
      ])
    #expect(
      difference.deckOptions.decksMoved.map { "\($0.deck): \($0.old) → \($0.new)" } == [
        "Languages::French: Default → Fast"
      ])
    #expect(difference.counts.deckOptions.added == 1 && difference.counts.deckOptions.changed == 2)
    let lines = difference.lines
    #expect(lines.contains("Deck option groups: 1 added, 2 changed"))
    #expect(lines.contains("  + Fast (id 1700000000000)"))
    #expect(lines.contains("  ~ Default"))
    #expect(lines.contains("      new.perDay: 20 → 33"))
    #expect(lines.contains("      deckportProbe: (none) → true"))
    #expect(lines.contains("  ~ deck 'Languages::French': Default → Fast"))
    #expect(difference.statLines.contains("options:    1 added, 0 removed, 2 changed"))
  }

  @Test("a schema-18 group's sync state is compared; against CrowdAnki, which keeps none, it is not")
  func syncState() throws {
    let latest = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    var waiting = latest
    waiting.collection.deckOptions[0].ankiProperties = [AnkiProperty(key: "usn", jsonText: "-1")]
    let difference = try DeckDifference(from: latest, to: waiting)
    #expect(difference.deckOptions.changed.first?.settings.map(\.key) == ["usn"])
    #expect(difference.deckOptions.changed.first?.settings.first?.new == "-1")
    let crowdAnki = DeckDifferenceTests.read(waiting, as: "crowdanki")
    #expect(try DeckDifference(from: latest, to: crowdAnki).deckOptions.count.isEmpty)
  }
}
