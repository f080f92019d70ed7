import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckJSON

/// The reader decodes notes, cards and reviews one at a time (mostly with its own fast decoder);
/// the model it makes, and the first problem it reports, must be those of decoding the whole
/// document with `JSONDecoder`.
@Suite("JSON deck format: element-by-element reading equals whole-document reading")
struct JSONSplitReaderTests {
  static func read(_ json: String, splitting: Bool) -> Result<DeckCollection, DeckError> {
    do {
      let scratch = try TemporaryDirectory()
      let path = scratch.path(for: "deck.json")
      try Data(json.utf8).write(to: URL(fileURLWithPath: path))
      // A note without `modified` takes the file's time: the same for both reads, even when
      // they are written on either side of a second.
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: path)
      var reader = DeckJSONReader()
      reader.splitsArrays = splitting
      let collection = try reader.read(path: path).collection
      return .success(collection)
    } catch let error as DeckError {
      // The scratch path differs between the two reads: compare what follows it.
      var relative = error
      relative.location.file = ""
      return .failure(relative)
    } catch {
      Issue.record("unexpected \(error)")
      return .failure(DeckError(.corrupt, at: SourceLocation(file: ""), "\(error)"))
    }
  }

  static func expectSame(_ json: String, _ comment: Comment? = nil) {
    let split = read(json, splitting: true)
    let whole = read(json, splitting: false)
    switch (split, whole) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(comment?.rawValue ?? "") \(json)")
    case (.failure(let a), .failure(let b)): #expect(a == b, comment)
    default: Issue.record("one read failed, the other did not: \(split) / \(whole) \(comment?.rawValue ?? "")")
    }
  }

  static let head =
    #""format": "deckport-deck", "version": 1, "noteTypes": [{"id": 5, "name": "Basic", "fields": [{"name": "Front"}, {"name": "Back"}], "templates": [{"name": "Card 1", "question": "{{Front}}"}]}], "decks": [{"id": 1, "name": "Default"}]"#
  static let note =
    #"{"id": 10, "guid": "g", "noteType": 5, "fields": {"Front": "a", "Back": "b"}, "tags": ["t"], "modified": 3}"#
  static let card =
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "modified": 4, "scheduling": {"type": 2, "queue": 2, "due": 5, "interval": 3, "easeFactor": 2500, "reviews": 1, "lapses": 0, "remainingSteps": 0, "flags": 0, "originalDue": 0, "originalDeck": 0, "data": ""}}"#
  static let review =
    #"{"id": 30, "card": 20, "button": 3, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 900, "kind": 1}"#

  static func document(
    notes: [String] = [note], cards: [String] = [card], reviews: [String] = [review], extra: String = ""
  ) -> String {
    "{\(head), \"notes\": [\(notes.joined(separator: ", "))], \"cards\": [\(cards.joined(separator: ", "))], \"reviews\": [\(reviews.joined(separator: ", "))]\(extra)}"
  }

  @Test("valid documents, written oddly") func valid() {
    Self.expectSame(Self.document())
    Self.expectSame(
      Self.document(
        notes: [
          #"{"noteType": "Basic", "fields": {"Back": "x\ty\\\"z\/", "Front": "\u00e9"}, "extra": [1, {"a": "]"}]}"#
        ], cards: [], reviews: []))
    Self.expectSame(
      Self.document(
        notes: [#"{"noteType": 5, "fields": {"Front": "caf\u0065\u0301", "Back": ""}, "id": -0}"#], cards: [],
        reviews: []))
    Self.expectSame(Self.document(cards: [#"{"id": 20, "note": 10, "template": 0, "deck": "Default"}"#]))
    Self.expectSame(
      Self.document(notes: [#"{"noteType": 5, "fields": {"Front": "a", "Front": "b"}}"#], cards: [], reviews: []))
    Self.expectSame(Self.document(notes: [#"{"noteType": 5, "fields": {}, "id": 1, "id": 2}"#], cards: [], reviews: []))
    Self.expectSame(
      Self.document(reviews: [
        #"{"id": 30, "card": 99, "button": 3, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 900, "kind": 1}"#
      ]))
    Self.expectSame("{\(Self.head), \"notes\": []}")
    Self.expectSame(
      Self.document(
        notes: [
          #"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "id": -9223372036854775808, "modified": 9223372036854775807}"#
        ], cards: [], reviews: []))
    Self.expectSame(
      Self.document(
        notes: [#"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "id": 9223372036854775808}"#], cards: [],
        reviews: []))
    Self.expectSame(Self.document(notes: [#"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "extra": 1e999}"#]))
    Self.expectSame(
      Self.document(notes: [#"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "extra": "\ud800"}"#]))
    Self.expectSame(
      Self.document(notes: [
        #"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "extra": 123456789012345678901234567890}"#
      ]))
    Self.expectSame(
      Self.document(notes: [
        #"{"noteType": 5, "fields": {"Front": "a", "Back": "b"}, "extra": [1.5e3, -0.0, "\u00e9"]}"#
      ]))
  }

  @Test("the first problem is the same") func problems() {
    let badNote = #"{"noteType": 5, "fields": {"Front": 3}}"#
    let unknownType = #"{"noteType": 99, "fields": {}}"#
    let badCard = #"{"id": 20, "note": 10, "template": 1.5, "deck": 1}"#
    let orphanCard = #"{"id": 20, "note": 77, "template": 0, "deck": 1}"#
    let badReview = #"{"id": 30, "card": 20}"#
    Self.expectSame(Self.document(notes: [Self.note, badNote]))
    Self.expectSame(
      Self.document(notes: [unknownType], cards: [badCard]), "a decoding problem comes before a problem of meaning")
    Self.expectSame(Self.document(cards: [orphanCard], reviews: [badReview]))
    Self.expectSame(
      Self.document(notes: [unknownType], extra: #", "media": [{"name": 3, "data": ""}]"#),
      "media decoding before note meaning")
    Self.expectSame(Self.document(notes: [badNote], extra: #", "media": [{"name": 3, "data": ""}]"#))
    Self.expectSame(Self.document(notes: ["1", "null", "[]"]))
    Self.expectSame(Self.document(cards: [#"{"id": 20, "note": 10, "template": 0, "deck": true}"#]))
    Self.expectSame(
      Self.document(cards: [#"{"id": 20, "note": 10, "template": 0, "deck": 1, "scheduling": {"type": 1}}"#]))
    Self.expectSame(Self.document(notes: [#"{"noteType": 5, "fields": {"Front": "a"}, "id": 99999999999999999999}"#]))
    Self.expectSame(Self.document(notes: [#"{"noteType": 5, "fields": {"Front": "\ud800"}}"#]))
    Self.expectSame("{\(Self.head), \"notes\": 3, \"cards\": [\(Self.card)]}")
    Self.expectSame("{\(Self.head), \"cards\": [\(#"{"id": 1}"#)]}", "notes missing, and a bad card")
    Self.expectSame("{\"format\": \"deckport-deck\", \"version\": 1, \"noteTypes\": 3, \"notes\": [\(badNote)]}")
    Self.expectSame(
      Self.document().replacingOccurrences(of: "\"notes\": [", with: "\"notes\": [\(Self.note), ") + "", "duplicate ids"
    )
    Self.expectSame("{\(Self.head), \"notes\": [\(Self.note)], \"notes\": [\(badNote)]}", "a split key twice")
  }

  @Test("a note with several fields that are not text: the same one is reported every time")
  func severalBadFields() {
    let fields = (0..<12).map { "\"f\($0)\": \($0)" }.joined(separator: ", ")
    let json = Self.document(notes: [#"{"noteType": 5, "fields": {"# + fields + "}}"], cards: [], reviews: [])
    var reported = Set<String>()
    for _ in 0..<10 {
      for splitting in [true, false] {
        if case .failure(let error) = Self.read(json, splitting: splitting) { reported.insert("\(error)") }
      }
    }
    // Taken by name: f0 comes first.
    #expect(reported.count == 1 && reported.first?.contains("fields.f0") == true, "\(reported)")
  }

  @Test("text that is not UTF-8 inside a note is judged with the whole document")
  func invalidUTF8() throws {
    var bytes = Array(Self.document().utf8)
    let index = try #require(bytes.firstIndex(of: UInt8(ascii: "a")))  // inside "Front": "a"
    bytes[index] = 0xFF
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    var split = DeckJSONReader()
    split.splitsArrays = true
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    let a = Result { try split.read(path: path).collection }
    let b = Result { try whole.read(path: path).collection }
    #expect(String(describing: a) == String(describing: b))
  }

  @Test("fixtures read back the same either way", arguments: Fixtures.ankiPackages)
  func fixtures(package: String) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    #expect(try DeckJSONReader().read(path: path).collection == whole.read(path: path).collection)
  }

  @Test(
    "past its budget the pass leaves elements to the reader, and the model is the same",
    arguments: [0, 200, 2_000])
  func decodingBudget(budgetBytes: Int) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    var budgeted = DeckJSONReader()
    budgeted.decodingBudgetBytes = budgetBytes
    var whole = DeckJSONReader()
    whole.splitsArrays = false
    let read = try budgeted.read(path: path).collection
    #expect(try read == whole.read(path: path).collection)
    #expect(read.notes.count == collection.notes.count && read.cards.count == collection.cards.count)
  }
}

@Suite("Base64 media read from a range of the file")
struct Base64FileRangeTests {
  @Test("every buffer size reads the same bytes", arguments: [1, 7, 49_155, 65_536, 200_000])
  func bufferSizes(size: Int) throws {
    var bytes = Data(count: 150_001)
    for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 9) }
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "range.txt")
    let text = Data(("xx\"" + bytes.base64EncodedString() + "\"yy").utf8)
    try text.write(to: URL(fileURLWithPath: path))
    let source = Base64FileRangeSource(
      path: path, offset: 3, length: text.count - 6, location: SourceLocation(file: path))
    let reader = try source.openReader()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var read = Data()
    while true {
      let count = try reader.read(into: buffer)
      if count == 0 { break }
      read.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    #expect(read == bytes)
  }
}

@Suite("Base64 encoding of media written")
struct Base64EncodingTests {
  @Test(arguments: [0, 1, 2, 3, 65_535, 65_536, 65_537, 200_001])
  func sameAsFoundation(size: Int) throws {
    var bytes = Data(count: size)
    for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
    let collection = DeckCollection(media: [MediaFile(name: "m.bin", blob: MediaBlob(data: bytes))])
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "m.json")
    try DeckJSONWriter().write(collection, to: path)
    let document = try JSONDecoder().decode(DeckJSONDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(document.media?.first?.data == bytes.base64EncodedString())
  }
}
