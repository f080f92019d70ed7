import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// A collection package's list of tags (the `tags` table, or the `col` row's `tags` JSON in
/// schema 11) is read as stored and written back into collection packages; a deck package's is
/// never read (Anki's deck export leaves it empty and its import ignores it).
///
/// The expected values are what the `sqlite3` shell (with a `unicase` collation) showed in each
/// package's collection, written here as data; that Anki's restore of what deckport writes holds
/// the same list is checked against the real backend in `Tests/anki/test_writer_judged_by_anki.py`.
@Suite("Anki packages: the collection's list of tags")
struct TagRegistryTests {
  static func registry(_ package: String) throws -> [RegisteredTag] {
    try AnkiPackageReader().read(path: Fixtures.path(package)).collection.tagRegistry
  }

  @Test("schema 18: the rows of the tags table, with whether each is collapsed")
  func schema18() throws {
    #expect(
      try Self.registry("real/word-list-latest.colpkg") == [
        RegisteredTag(name: "HF", updateSequenceNumber: -1, isCollapsed: true),
        RegisteredTag(name: "PSAT", updateSequenceNumber: -1, isCollapsed: true),
      ])
  }

  @Test("schema 11: the members of col.tags in their order, without collapsed state")
  func schema11() throws {
    #expect(
      try Self.registry("anki/legacy.colpkg").map(\.name) == ["a::b", "marked", "a::b::c", "日本語", "geo"])
    #expect(
      try Self.registry("anki/legacy.colpkg").allSatisfy { $0.updateSequenceNumber == -1 && $0.isCollapsed == nil })
  }

  @Test("a deck package's list is not read", arguments: ["anki/latest_sched.apkg", "real/zhongwen-latest.apkg"])
  func deckPackage(package: String) throws {
    #expect(try Self.registry(package).isEmpty)
  }

  @Test("a tag whose number is not an integer is left out, with a warning naming it")
  func unreadableTag() throws {
    let read = try CollectionSettingsTests.readChanged(#"UPDATE col SET tags = '{"kept":3,"odd":"x"}'"#)
    #expect(read.collection.tagRegistry == [RegisteredTag(name: "kept", updateSequenceNumber: 3)])
    let warning = try #require(read.warnings.first { $0.category == "tag-registry-unreadable" })
    #expect(warning.location.item == "column tags, tag 'odd'")
  }

  @Test("a list that is not a JSON object gives no tags, with a warning")
  func unreadableList() throws {
    let read = try CollectionSettingsTests.readChanged("UPDATE col SET tags = '[1]'")
    #expect(read.collection.tagRegistry.isEmpty)
    #expect(read.warnings.contains { $0.category == "tag-registry-unreadable" && $0.location.table == "col" })
  }

  @Test("written: the list first, with each tag's number, then the notes' other tags; an expanded tag is reported")
  func written() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    let noteTag = try #require(collection.notes.flatMap(\.tags).first)
    collection.tagRegistry = [
      RegisteredTag(name: "parent", updateSequenceNumber: 7, isCollapsed: false),
      RegisteredTag(name: noteTag.uppercased(), updateSequenceNumber: 2, isCollapsed: true),
    ]
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.colpkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .colpkg))
      .write(collection, to: path, reportingAs: path)
    #expect(warnings.filter { $0.category == "tag-collapse-dropped" }.count == 1)
    #expect(warnings.first { $0.category == "tag-collapse-dropped" }?.message.hasPrefix("1 tag is expanded") == true)
    let back = try AnkiPackageReader().read(path: path).collection.tagRegistry
    #expect(back.prefix(2).map(\.name) == ["parent", noteTag.uppercased()])
    #expect(back.prefix(2).map(\.updateSequenceNumber) == [7, 2])
    // The note's own spelling is not listed again (tags compare without case).
    #expect(!back.dropFirst(2).contains { $0.name.lowercased() == noteTag.lowercased() })
    #expect(
      Set(back.map { $0.name.lowercased() })
        == Set((collection.notes.flatMap(\.tags) + ["parent"]).map { $0.lowercased() }))
  }
}
