import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// What becomes of a Flashzilla card's `id` on its way through a deck: a UUID in any spelling
/// stays that UUID, and an id that is no UUID is replaced with a word.
@Suite("Flashzilla ids through a deck")
struct FlashzillaIDTests {
  /// The records a Flashzilla file holding one card of `id` gives back after a trip through a
  /// deck into a new JSON file, and the warnings of the way there.
  private static func throughDeck(id: String) throws -> (written: String, warnings: [Diagnostic]) {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "cards.json")
    try Data(#"[{"id":"\#(id)","prompt":"Zwölf?","answer":"12"}]"#.utf8).write(to: URL(fileURLWithPath: source))
    let content = try AppStorageReader().read(path: source)
    #expect(content.records.profile == .flashzilla)
    let (deck, readWarnings) = try AppRecordMapping.collection(from: content.records, file: source)
    let (records, writeWarnings) = try AppRecordMapping.records(from: deck)
    let destination = scratch.path(for: "back.json")
    _ = try AppStorageWriter().write(records, to: destination)
    let written = try String(contentsOfFile: destination, encoding: .utf8)
    return (written, content.warnings + readWarnings + writeWarnings)
  }

  @Test("a UUID in lower case is that UUID, written as the app writes it, without a word")
  func lowerCaseUUID() throws {
    let (written, warnings) = try Self.throughDeck(id: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    #expect(written == #"[{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","prompt":"Zwölf?","answer":"12"}]"#)
    #expect(warnings.isEmpty)
  }

  @Test(
    "an id that is no UUID is replaced, and the warning names the record, the old id and the new",
    arguments: [
      "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "E621E1F8C36C495A93FC0C247A3E6E5F",
      "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "",
    ])
  func notAUUID(id: String) throws {
    let (written, warnings) = try Self.throughDeck(id: id)
    let replaced = warnings.filter { $0.category == "id-not-uuid" }
    #expect(replaced.count == 1)
    let newID = try #require(written.split(separator: "\"").dropFirst(3).first.map(String.init))
    #expect(UUID(uuidString: newID) != nil)
    #expect(
      replaced.first?.message
        == "the id of 1 record is no UUID, which the app cannot decode: record 1 (id '\(id)' becomes \(newID)); the note's GUID is the old id (made from the record's text when that is empty), and writing the note into app storage gives the record the new one, the same every time"
    )
  }

  @Test("a deck written into a file of lower-case ids updates its cards and keeps their text")
  func lowerCaseIDsMatchOnWriting() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.json")
    let text = #"[{"id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","prompt":"Zwölf?","answer":"12"}]"#
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let content = try AppStorageReader().read(path: path)
    var (deck, _) = try AppRecordMapping.collection(from: content.records, file: path)
    deck.notes[0].fields[1] = "zwölf"
    let (records, _) = try AppRecordMapping.records(from: deck)
    let report = try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
    #expect(report.merge.updated == 1 && report.merge.added == 0)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == #"[{"id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","prompt":"Zwölf?","answer":"zwölf"}]"#)
  }

  @Test("two notes whose GUIDs are one UUID in two cases get two ids, and the second is said")
  func guidsDifferingInCase() throws {
    let basic = try #require(StockNoteType.noteType(named: "Basic"))
    let deck = DeckCollection(
      decks: [Deck(id: 1, name: "Default")], noteTypes: [basic],
      notes: [
        Note(id: 1, guid: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", noteTypeID: basic.id, fields: ["Katze", "cat"]),
        Note(id: 2, guid: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", noteTypeID: basic.id, fields: ["Maus", "mouse"]),
      ])
    let (records, warnings) = try AppRecordMapping.records(from: deck, profile: .named(.flashzilla))
    let ids = records.records.compactMap { $0["id"] }
    #expect(ids.count == 2)
    #expect(Set(ids).count == 2)
    #expect(ids.first == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
    let repeated = warnings.filter { $0.category == "id-repeated" }
    #expect(repeated.count == 1)
    #expect(
      repeated.first?.message.hasPrefix("the note's GUID 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f' is the UUID of note")
        == true)
  }
}
