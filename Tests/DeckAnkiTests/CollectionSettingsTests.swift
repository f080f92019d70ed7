import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import JSONCore
import Testing

@testable import DeckAnki

/// A collection package's own settings (the `col` row's `conf` in schema 11, the `config` table
/// later) are read as stored and written back into collection packages; a deck package's are
/// never read (Anki's import ignores them), and a deck package written from a collection says
/// it leaves them out.
///
/// The expected values are what the `sqlite3` shell showed in each package's collection, written
/// here as data; that Anki's own restore of what deckport writes holds the same settings is
/// checked against the real backend in `Tests/anki/test_writer_judged_by_anki.py`.
@Suite("Anki packages: the collection's settings")
struct CollectionSettingsTests {
  static func settings(_ package: String) throws -> [String: String] {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    #expect(collection.settings.map(\.key) == collection.settings.map(\.key).sorted())
    return Dictionary(collection.settings.map { ($0.key, $0.jsonText) }, uniquingKeysWith: { first, _ in first })
  }

  @Test("schema 11: the members of conf, each value's JSON text")
  func schema11() throws {
    let settings = try Self.settings("real/indian-music-legacy.colpkg")
    #expect(settings.count == 15)
    #expect(settings["activeDecks"] == "[1558917643584]")
    #expect(settings["curModel"] == "\"1558663646059\"")  // Anki 2.0 wrote it as text
    #expect(settings["sortType"] == "\"noteFld\"")
    #expect(settings["estTimes"] == "true")
    #expect(settings["schedVer"] == nil)
  }

  @Test("schema 18: the rows of the config table")
  func schema18() throws {
    let settings = try Self.settings("real/word-list-latest.colpkg")
    #expect(settings.count == 49)
    #expect(settings["creationOffset"] == "420")
    #expect(settings["rollover"] == "4")
    #expect(settings["backups"] == #"{"daily":12,"weekly":10,"monthly":9,"minimum_interval_mins":30}"#)
    #expect(settings["nextPos"] == "1562")
  }

  @Test(
    "a deck package's settings are not read",
    arguments: ["real/c-notes-filtered-legacy1.apkg", "anki/latest_sched.apkg"])
  func deckPackage(package: String) throws {
    #expect(try Self.settings(package).isEmpty)
  }

  /// The real empty collection package with `sql` run on its collection, read.
  static func readChanged(_ sql: String) throws -> AnkiPackageContents {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "changed.colpkg")
    try PackageSurgery.copy(Fixtures.path("real/it-passport-empty-legacy.colpkg"), to: path, runningOnCollection: sql)
    return try AnkiPackageReader().read(path: path)
  }

  @Test("a config row whose value is not JSON text is left out, with a warning naming its key")
  func unreadableRow() throws {
    let read = try Self.readChanged(
      """
      CREATE TABLE config (KEY text NOT NULL PRIMARY KEY, usn integer NOT NULL, mtime_secs integer NOT NULL, val blob NOT NULL);
      INSERT INTO config VALUES ('rollover', 0, 0, CAST('{not json' AS BLOB)), ('timeLim', 0, 0, CAST('60' AS BLOB));
      """)
    #expect(read.collection.settings == [AnkiProperty(key: "timeLim", jsonText: "60")])
    let warning = try #require(read.warnings.first { $0.category == "setting-unreadable" })
    #expect(warning.location.table == "config")
    #expect(warning.location.item == "key 'rollover'")
  }

  @Test("a conf that is not a JSON object gives no settings, with a warning")
  func unreadableConf() throws {
    let read = try Self.readChanged("UPDATE col SET conf = '[1, 2]'")
    #expect(read.collection.settings.isEmpty)
    let warning = try #require(read.warnings.first { $0.category == "setting-unreadable" })
    #expect(warning.location.table == "col")
    #expect(warning.message.contains("none of them is kept"))
  }

  /// Writes `collection` as a legacy collection package and reads its settings back.
  static func writtenSettings(_ collection: DeckCollection) throws -> (
    settings: [String: String], warnings: [Diagnostic]
  ) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.colpkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .colpkg))
      .write(collection, to: path, reportingAs: path)
    let back = try AnkiPackageReader().read(path: path).collection
    return (Dictionary(back.settings.map { ($0.key, $0.jsonText) }, uniquingKeysWith: { first, _ in first }), warnings)
  }

  @Test("written as read, but where the written collection needs its own value")
  func writtenByRule() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    let noteType = try #require(collection.noteTypes.last).id
    collection.settings = [
      AnkiProperty(key: "activeDecks", jsonText: "[1,424242]"),  // a deck it does not have
      AnkiProperty(key: "curDeck", jsonText: "1795331276841"),
      AnkiProperty(key: "curModel", jsonText: "\"\(noteType)\""),
      AnkiProperty(key: "nextPos", jsonText: "2"),  // below the highest new card's position
      AnkiProperty(key: "rollover", jsonText: "2"),
      AnkiProperty(key: "savedFilters", jsonText: #"{"Due today":"prop:due=0"}"#),
      AnkiProperty(key: "schedVer", jsonText: "1"),
    ]
    let (settings, warnings) = try Self.writtenSettings(collection)
    // The raised position is the one change that says so: the others keep what Anki does.
    #expect(warnings.map(\.category) == ["setting-changed"], "\(warnings)")
    #expect(warnings.first?.location.item == "setting 'nextPos'")
    #expect(
      warnings.first?.message.hasPrefix(
        "the position Anki gives the next card added is 2, but a new card already has position 9; it is written as 10"
      ) == true)
    #expect(settings["rollover"] == "2")
    #expect(settings["savedFilters"] == #"{"Due today":"prop:due=0"}"#)
    #expect(settings["curDeck"] == "1795331276841")
    #expect(settings["curModel"] == "\"\(noteType)\"")
    #expect(settings["activeDecks"] == "[1]")
    #expect(settings["schedVer"] == "2")
    // One past the highest new card's position (due 9), not the setting's 2.
    #expect(settings["nextPos"] == "10")
  }

  @Test(
    "a next position that is past every new card's is kept without a warning, and one that is no number is replaced with one",
    arguments: [("9", nil), ("10", "10"), ("123456", "123456"), (#""7""#, nil), ("null", nil)])
  func nextPosition(setting: String, kept: String?) throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    collection.settings = [AnkiProperty(key: "nextPos", jsonText: setting)]
    let (settings, warnings) = try Self.writtenSettings(collection)
    #expect(settings["nextPos"] == kept ?? "10")
    #expect(warnings.map(\.category) == (kept == nil ? ["setting-changed"] : []), "\(warnings)")
    if kept == nil, setting.first != "9" {
      #expect(warnings.first?.message.contains("is \(setting), not a whole number; it is written as 10") == true)
    }
  }

  @Test("a next position below 1 in a collection whose new cards have none past it is raised to 1, saying why")
  func nextPositionBelowOne() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    for index in collection.cards.indices where collection.cards[index].scheduling.type == .new {
      collection.cards[index].scheduling.due = -5
    }
    collection.settings = [AnkiProperty(key: "nextPos", jsonText: "0")]
    let (settings, warnings) = try Self.writtenSettings(collection)
    #expect(settings["nextPos"] == "1")
    #expect(warnings.map(\.category) == ["setting-changed"], "\(warnings)")
    #expect(warnings.first?.message.contains("is 0, and positions start at 1; it is written as 1") == true)
  }

  @Test("a current note type Anki deleted stays named, as Anki's restore keeps it")
  func staleCurrentNoteType() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    let missing = (collection.noteTypes.map(\.id).max() ?? 0) + 1
    #expect(!collection.noteTypes.contains { $0.id == missing })
    collection.settings = [AnkiProperty(key: "curModel", jsonText: "\"\(missing)\"")]
    let (settings, warnings) = try Self.writtenSettings(collection)
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(settings["curModel"] == "\"\(missing)\"")
  }

  @Test("a setting that is not JSON text is left out, with a warning naming it")
  func invalidSetting() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    collection.settings = [
      AnkiProperty(key: "rollover", jsonText: "{not json"), AnkiProperty(key: "timeLim", jsonText: "60"),
    ]
    let (settings, warnings) = try Self.writtenSettings(collection)
    #expect(warnings.map(\.category) == ["setting-invalid"])
    #expect(warnings.first?.location.item == "setting 'rollover'")
    #expect(settings["rollover"] == "4")
    #expect(settings["timeLim"] == "60")
  }

  @Test("a deck package written from a collection leaves them out, and says so")
  func deckPackageWritten() throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path("real/word-list-latest.colpkg")).collection
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.apkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .latest, kind: .apkg))
      .write(collection, to: path, reportingAs: path)
    let dropped = warnings.filter { $0.category == "settings-dropped" }
    #expect(dropped.count == 1)
    #expect(dropped.first?.message.hasPrefix("the collection's 49 settings are not kept") == true)
  }
}
