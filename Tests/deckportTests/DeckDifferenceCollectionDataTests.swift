import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// `DeckDifference` compares a collection's settings and list of tags, and Anki's other
/// properties of decks, note types, fields and templates. (`Tests/anki/test_diff_collection_data.py`
/// checks the same against edits the real Anki backend made.)
@Suite("DeckDifference: settings, the list of tags and Anki's properties")
struct DeckDifferenceCollectionDataTests {
  @Test("by key and name; values by meaning; a tag's collapse state where both sides say")
  func collectionData() throws {
    let original = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    var changed = original
    var collection = changed.collection
    let rollover = try #require(collection.settings.firstIndex { $0.key == "rollover" })
    #expect(collection.settings[rollover].jsonText == "4")
    collection.settings[rollover].jsonText = "2"
    #expect(collection.settings.contains { $0.key == "sortBackwards" && $0.jsonText == "false" })
    collection.settings.removeAll { $0.key == "sortBackwards" }
    collection.settings.append(AnkiProperty(key: "probe", jsonText: #"{"b":1,"a":[true]}"#))
    let geo = try #require(collection.tagRegistry.firstIndex { $0.name == "geo" })
    #expect(collection.tagRegistry[geo].isCollapsed == true && collection.tagRegistry[geo].updateSequenceNumber == -1)
    collection.tagRegistry[geo].isCollapsed = false
    collection.tagRegistry[geo].updateSequenceNumber = 7
    collection.tagRegistry.append(RegisteredTag(name: "parent"))
    let french = try #require(collection.decks.firstIndex { $0.name == "Languages::French" })
    #expect(!collection.decks[french].ankiProperties.contains { $0.key == "collapsed" })
    collection.decks[french].ankiProperties.append(AnkiProperty(key: "collapsed", jsonText: "false"))
    let basic = try #require(collection.noteTypes.firstIndex { $0.name == "Basic" })
    collection.noteTypes[basic].fields[0].ankiProperties.append(AnkiProperty(key: "media", jsonText: "[]"))
    changed.collection = collection
    let difference = try DeckDifference(from: original, to: changed)

    func entries(_ list: [DeckDifference.PropertyEntry]) -> [String] {
      list.map { "\($0.owner ?? "-") | \($0.key) | \($0.value)" }
    }
    #expect(entries(difference.settings.added) == [#"- | probe | {"b":1,"a":[true]}"#])
    #expect(entries(difference.settings.removed) == ["- | sortBackwards | false"])
    #expect(
      difference.settings.changed.map { "\($0.owner ?? "-") | \($0.key) | \($0.old) | \($0.new)" } == [
        "- | rollover | 4 | 2"
      ])
    #expect(
      difference.tagRegistry.added.map { "\($0.name) \($0.usn) \(String(describing: $0.collapsed))" } == [
        "parent -1 nil"
      ])
    let geoChange = try #require(difference.tagRegistry.changed.first)
    #expect(difference.tagRegistry.changed.count == 1 && geoChange.name == "geo")
    #expect(geoChange.usn?.old == -1 && geoChange.usn?.new == 7)
    #expect(geoChange.collapsed?.old == true && geoChange.collapsed?.new == false)
    #expect(difference.tagRegistry.removed.isEmpty)
    #expect(
      entries(difference.ankiProperties.added) == [
        "deck 'Languages::French' | collapsed | false", "note type 'Basic', field 'Front' | media | []",
      ])
    #expect(difference.ankiProperties.removed.isEmpty && difference.ankiProperties.changed.isEmpty)
    let counts = difference.counts
    #expect(
      [counts.settings, counts.tagRegistry, counts.ankiProperties].map { [$0.added, $0.removed, $0.changed] }
        == [[1, 1, 1], [1, 0, 1], [2, 0, 0]])
    #expect(!difference.isEmpty)

    let lines = difference.lines
    #expect(lines.contains("Collection settings: 1 added, 1 removed, 1 changed"))
    #expect(lines.contains(#"  + probe {"b":1,"a":[true]}"#))
    #expect(lines.contains("  - sortBackwards false"))
    #expect(lines.contains("  ~ rollover: 4 → 2"))
    #expect(lines.contains("List of tags: 1 added, 1 changed"))
    #expect(lines.contains("  + parent (usn -1)"))
    #expect(lines.contains("  ~ geo: usn -1 → 7, collapsed true → false"))
    #expect(lines.contains("Anki's other properties: 2 added"))
    #expect(lines.contains("  + deck 'Languages::French': collapsed false"))
    #expect(lines.contains("  + note type 'Basic', field 'Front': media []"))
    #expect(difference.statLines.contains("settings:   1 added, 1 removed, 1 changed"))
    #expect(difference.statLines.contains("tag list:   1 added, 0 removed, 1 changed"))
    #expect(difference.statLines.contains("properties: 2 added, 0 removed, 0 changed"))
  }

  @Test("the same values written otherwise are no difference; text that is not JSON is compared as text")
  func sameMeaning() throws {
    let original = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    var before = original
    before.collection.settings.append(AnkiProperty(key: "probe", jsonText: #"{"b":1,"a":[true,{"y":2,"x":1}]}"#))
    var after = before
    let rollover = try #require(after.collection.settings.firstIndex { $0.key == "rollover" })
    after.collection.settings[rollover].jsonText = "4.0"
    let probe = try #require(after.collection.settings.firstIndex { $0.key == "probe" })
    after.collection.settings[probe].jsonText = #"{"a":[true,{"x":1,"y":2.0}],"b":1}"#
    let geo = try #require(after.collection.tagRegistry.firstIndex { $0.name == "geo" })
    after.collection.tagRegistry[geo].isCollapsed = nil
    let same = try DeckDifference(from: before, to: after)
    #expect(same.isEmpty, "\(same.lines.joined(separator: "\n"))")

    // An array's order is its meaning.
    after.collection.settings[probe].jsonText = #"{"a":[{"x":1,"y":2},true],"b":1}"#
    #expect(try DeckDifference(from: before, to: after).settings.changed.map(\.key) == ["probe"])
    after.collection.settings[probe].jsonText = "{not json"
    #expect(try DeckDifference(from: before, to: after).settings.changed.map(\.key) == ["probe"])
  }

  @Test(
    "against CSV, CrowdAnki and app storage none of the three is compared; against a deck package, the properties are")
  func notComparedWhereAFormatHasNoPlace() throws {
    let collection = try DeckLoader().load(path: Fixtures.path("anki/latest.colpkg"))
    for (format, aspects) in [
      ("csv", [DeckAspect.settings, .tagRegistry, .ankiProperties]),
      ("crowdanki", [.settings, .tagRegistry, .ankiProperties]), ("apkg", [.settings, .tagRegistry]),
    ] {
      var other = DeckDifferenceTests.read(collection, as: format)
      other.collection.settings = []
      other.collection.tagRegistry = []
      other.collection.decks = other.collection.decks.map { deck in
        var deck = deck
        deck.ankiProperties = []
        return deck
      }
      let difference = try DeckDifference(from: collection, to: other)
      let notCompared = Set(difference.notCompared.map(\.aspect))
      #expect(Set(aspects).isSubset(of: notCompared), "\(format)")
      #expect(difference.settings.count.isEmpty && difference.tagRegistry.count.isEmpty, "\(format)")
      #expect(difference.ankiProperties.count.isEmpty == aspects.contains(.ankiProperties), "\(format)")
    }
  }
}

/// Every collection package in `fixtures/` against deckport's conversion of it: no difference
/// but what a written collection package adds to the settings of a collection Anki's v1
/// scheduler kept (the JSON deck keeps the settings as they were), compared in the time zone
/// the upgrade counts its days in.
@Suite("DeckDifference: collection packages against their conversions")
struct CollectionConversionDifferenceTests {
  /// The settings a written collection has that a v1 collection lacks: the v2 scheduler (as
  /// Anki's upgrade sets it), the day's rollover and `sched2021` at Anki's defaults, and the time
  /// zone of the collection's creation.
  private static let addedToV1 = ["creationOffset", "rollover", "sched2021", "schedVer"]

  @Test(
    "the same collection, apart from a v1 collection's upgrade",
    arguments: [
      "anki/latest.colpkg", "anki/legacy.colpkg", "real/indian-music-legacy.colpkg",
      "real/it-passport-empty-legacy.colpkg", "real/word-list-latest.colpkg",
    ], ["colpkg", "colpkg-modern", "json"])
  func conversionIsEqual(file: String, format: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let source = Fixtures.path(file)
    let output = scratch.path(for: "copy.\(format == "json" ? "json" : "colpkg")")
    let run = try CommandRun.deckport(["convert", source, output, "--to", format, "--quiet"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let original = try DeckLoader().load(path: source)
    let converted = try DeckLoader().load(path: output)
    let upgradesV1 =
      format != "json" && !original.collection.settings.contains { $0.key == "schedVer" && $0.jsonText != "1" }
    // A v1 collection counts whole days from its creation time; the upgrade counts them from
    // 04:00 on the day it was made, in the zone where its creation time is 04:00
    // (`creationOffset`, minutes west): in that zone each day starts at the same moment.
    let createdIn = converted.collection.settings.first { upgradesV1 && $0.key == "creationOffset" }
      .flatMap { Int($0.jsonText) }.flatMap { TimeZone(secondsFromGMT: -$0 * 60) }
    let difference = try DeckDifference(from: original, to: converted, timeZone: createdIn ?? .current)
    var expected = difference
    expected.settings.added.removeAll { upgradesV1 && Self.addedToV1.contains($0.key) && $0.owner == nil }
    #expect(expected.isEmpty, "\(difference.lines.joined(separator: "\n"))")
    #expect(difference.notCompared.isEmpty)
    if upgradesV1 { #expect(difference.settings.added.map(\.key) == Self.addedToV1) }
  }
}
