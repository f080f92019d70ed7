import DeckAnki
import DeckCore
import DeckIO
import DeckJSON
import DeckTestSupport
import Foundation
import Testing

/// The JSON deck document and json-dir carry a collection's deletion records (Anki's `graves`)
/// in a `deletions` array, left out when there are none.
@Suite("JSON deck format: deletion records")
struct DeletionJSONTests {
  static let records = [
    Deletion(objectID: 1_514_872_010_727, kind: .card, updateSequenceNumber: 14),
    Deletion(objectID: 1_514_870_373_123, kind: .note),
    Deletion(objectID: 9, kind: DeletionKind(rawValue: 7), updateSequenceNumber: 0),
  ]

  static func collection(deletions: [Deletion]) throws -> DeckCollection {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    collection.deletions = deletions
    return collection
  }

  @Test("written after the review log, before the media, one object per record")
  func written() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(try Self.collection(deletions: Self.records), to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let expected = """
        "deletions": [
          {
            "id": 1514872010727,
            "kind": 0,
            "usn": 14
          },
          {
            "id": 1514870373123,
            "kind": 1,
            "usn": -1
          },
          {
            "id": 9,
            "kind": 7,
            "usn": 0
          }
        ],
        "media"
      """
    #expect(text.contains(expected))
    let reviews = try #require(text.range(of: "\"reviews\":"))
    let deletions = try #require(text.range(of: "\"deletions\":"))
    #expect(reviews.lowerBound < deletions.lowerBound)
  }

  @Test("a collection without any: no member, and the same bytes as before the member existed")
  func leftOut() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(try Self.collection(deletions: []), to: path)
    #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("deletions"))
    #expect(try DeckJSONReader().read(path: path).collection.deletions.isEmpty)
  }

  @Test("read back the same, by the split reader and by decoding the whole document")
  func readBack() throws {
    let collection = try Self.collection(deletions: Self.records)
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    #expect(try DeckJSONReader().read(path: path).collection == collection)
    #expect(try whole.read(path: path).collection == collection)
  }

  @Test("a record of the wrong shape is refused at its JSON path, either way")
  func wrongShape() throws {
    let errors = try EditedDocument.readErrors(
      try Self.collection(deletions: Self.records), replacing: "\"kind\": 1,", with: "\"kind\": \"note\",")
    for error in errors { #expect(error.location.jsonPath == "deletions[1].kind", "\(error)") }
  }

  @Test("a json-dir folder keeps them in its index, and reads them back")
  func directory() throws {
    let collection = try Self.collection(deletions: Self.records)
    let scratch = try TemporaryDirectory()
    let folder = try JSONDirectoryTests.write(collection, scratch, "deck")
    let index = try String(contentsOfFile: folder + "/" + DeckJSONDirectory.indexFileName, encoding: .utf8)
    #expect(index.contains("\"deletions\": ["))
    #expect(try DeckJSONDirectoryReader().read(path: folder).collection == collection)
  }
}
