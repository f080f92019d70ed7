import DeckAnki
import DeckCore
import DeckIO
import DeckJSON
import DeckTestSupport
import Foundation
import Testing

@Suite("JSON deck format: round trips")
struct JSONRoundTripTests {
  static let packages = Fixtures.ankiPackages

  @Test("package -> JSON -> model equals the model read from the package", arguments: packages)
  func packageThroughJSON(package: String) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let scratch = try TemporaryDirectory()
    let json = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(original, to: json)
    let (readBack, warnings) = try DeckJSONReader().read(path: json)
    #expect(warnings.isEmpty)
    #expect(readBack == original)
    // Media bytes, not only declared digests: decode every blob from the JSON and hash it.
    for (file, originalFile) in zip(readBack.media, original.media) {
      var hasher = SHA1()
      try file.blob.forEachChunk { hasher.update($0) }
      #expect(SHA1.hex(hasher.finalize()) == (try originalFile.blob.sha1Hex()), "\(file.name)")
    }
  }

  @Test(
    "a card whose note is missing, a card in a missing deck and a note with extra fields give a document deckport reads back"
  )
  func damagedCollectionIsRepairedSoItReadsBack() throws {
    var original = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    original.notes.removeAll { $0.id == 1_795_331_276_845 }
    original.cards[1].deckID = 4242
    original.notes[0].fields.append("extra")
    let scratch = try TemporaryDirectory()
    let json = scratch.path(for: "deck.json")
    let (written, warnings) = try DeckJSONWriter().write(original, to: json)
    #expect(warnings.map(\.category) == ["field-count", "orphan-card", "unknown-deck"])
    #expect(warnings.map(\.location.item) == ["note 1795331276846", "card 1795331276845", "card 1795331276846"])
    let (readBack, _) = try DeckJSONReader().read(path: json)
    #expect(readBack.cards.count == original.cards.count - 1)
    #expect(readBack.cards == written.cards)
    #expect(readBack.decks.first { $0.id == 4242 }?.name == "recovered4242")
    #expect(readBack.notes[0].fields.last?.hasSuffix("; extra") == true)
  }

  @Test("JSON -> JSON is byte-identical, and the same input always gives the same bytes", arguments: packages)
  func byteStable(package: String) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let scratch = try TemporaryDirectory()
    let first = scratch.path(for: "first.json")
    let again = scratch.path(for: "again.json")
    let second = scratch.path(for: "second.json")
    try DeckJSONWriter().write(original, to: first)
    try DeckJSONWriter().write(original, to: again)
    try DeckJSONWriter().write(try DeckJSONReader().read(path: first).collection, to: second)
    let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
    #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: again))))
    #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
  }

  @Test("the document starts with the format name and version, and fields are keyed by name in order")
  func layout() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let json = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(original, to: json)
    let text = try String(contentsOfFile: json, encoding: .utf8)
    #expect(text.hasPrefix("{\n  \"format\": \"deckport-deck\",\n  \"version\": 1,\n"))
    #expect(text.contains("\"fields\": {\n        \"Word\": \"être\",\n        \"Meaning\": "))
    // Apps can decode it with plain JSONDecoder.
    let document = try JSONDecoder().decode(DeckJSONDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
    #expect(document.notes.count == original.notes.count)
    let pixel = try #require(document.media?.first { $0.name == "pixel.png" })
    #expect(Data(base64Encoded: pixel.data).map { SHA1.hex(SHA1.digest($0)) } == pixel.sha1)
  }

  @Test("large media stay in the file: streamed on write, decoded lazily on read")
  func largeMediaStream() throws {
    let scratch = try TemporaryDirectory()
    var bytes = Data(count: 3_000_001)
    for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
    let collection = DeckCollection(
      noteTypes: [
        NoteType(
          id: 1, name: "Basic", fields: [.init(name: "Front")],
          templates: [.init(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "")])
      ],
      notes: [Note(id: 5, guid: "g", noteTypeID: 1, fields: [#"<img src="big.bin">"#])],
      media: [MediaFile(name: "big.bin", blob: MediaBlob(data: bytes))])
    let json = scratch.path(for: "big.json")
    try DeckJSONWriter().write(collection, to: json)
    let (readBack, _) = try DeckJSONReader().read(path: json)
    let blob = try #require(readBack.media.first?.blob)
    #expect(!(blob.source is InMemoryMediaSource), "a large media file must be read from the JSON file, not memory")
    #expect(try blob.data() == bytes)
    // Checked on the reader's second thread: its SHA-1 is known from the bytes, and a Latest
    // package written from it records that SHA-1 without hashing the file again.
    let known = try #require(blob.computedFingerprint)
    #expect(SHA1.hex(known.sha1) == SHA1.hex(SHA1.digest(bytes)) && known.size == Int64(bytes.count))
    let package = scratch.path(for: "big.apkg")
    _ = try AnkiPackageWriter(options: .init(generation: .latest, kind: .apkg)).write(
      readBack, to: package, reportingAs: package)
    let copied = try #require(try AnkiPackageReader().read(path: package).collection.media.first?.blob)
    #expect(try copied.verify())
    #expect(try copied.sha1Hex() == SHA1.hex(SHA1.digest(bytes)))
  }

  @Test("a hand-written document: names for references, ids and GUIDs derived, its cards made in Default")
  func handWritten() throws {
    let scratch = try TemporaryDirectory()
    let json = scratch.path(for: "hand.json")
    try Data(
      """
      {"format": "deckport-deck", "version": 1,
       "noteTypes": [{"name": "Basic", "fields": [{"name": "Front"}, {"name": "Back"}],
                      "templates": [{"name": "Card 1", "question": "{{Front}}", "answer": "{{Back}}"}]}],
       "notes": [{"noteType": "Basic", "fields": {"Back": "dog", "Front": "chien"}, "tags": ["fr"]}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: json))
    let first = try DeckJSONReader().read(path: json).collection
    let second = try DeckJSONReader().read(path: json).collection
    #expect(first == second)
    let note = try #require(first.notes.first)
    #expect(note.fields == ["chien", "dog"])
    #expect(!note.guid.isEmpty)
    #expect(note.noteTypeID == first.noteTypes.first?.id)
    #expect(note.id > 1_000_000_000_000 && note.id < 1_600_000_000_000)
    #expect(first.cards.map(\.noteID) == [note.id])
    #expect(first.decks.map(\.name) == ["Default"])
  }
}
