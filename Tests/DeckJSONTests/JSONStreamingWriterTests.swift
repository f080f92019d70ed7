import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import JSONCore
import Testing

@testable import DeckJSON

/// The writer streams notes, cards and reviews straight into the file; its output must be the
/// bytes the whole-document value (`OrderedJSONEncoder` over ``DeckJSONDocument``, laid out by
/// `JSONWriter`) gives.
@Suite("JSON deck format: the streaming writer writes what the document tree would")
struct JSONStreamingWriterTests {
  /// The document written the way the writer did before it streamed.
  static func treeBytes(_ collection: DeckCollection) throws -> Data {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "tree.json")
    let document = try DeckJSONDocument(collection, location: SourceLocation(file: path))
    var tree = try OrderedJSONEncoder().encode(document)
    if case .object(var entries) = tree, let mediaIndex = entries.firstIndex(where: { $0.key == "media" }),
      case .array(let items) = entries[mediaIndex].value
    {
      entries[mediaIndex].value = .array(
        zip(items, collection.media).map { item, file in
          guard case .object(var fields) = item, let data = fields.firstIndex(where: { $0.key == "data" }) else {
            return item
          }
          var bytes = Data()
          try? file.blob.forEachChunk { bytes.append(contentsOf: $0) }
          fields[data].value = .string(bytes.base64EncodedString())
          return .object(fields)
        })
      tree = .object(entries)
    }
    try FileSink.writing(to: path) { sink in
      var writer = JSONStreamWriter(sink: sink)
      try writer.write(tree)
    }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  static func streamedBytes(_ collection: DeckCollection) throws -> Data {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "streamed.json")
    try DeckJSONWriter().write(collection, to: path)
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test("every fixture", arguments: Fixtures.ankiPackages)
  func fixture(package: String) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    #expect(try Self.streamedBytes(collection) == Self.treeBytes(collection))
  }

  @Test("odd values: escapes, empty lists, no fields, names a JSON object would merge")
  func oddValues() throws {
    let nfd = "cafe\u{301}"
    let collection = DeckCollection(
      creationTime: -5,
      // The card's deck exists: a card in a missing deck is repaired (CollectionRepair), which
      // the document tree alone does not do.
      decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: 1, name: "Two", fields: [.init(name: "A \"quoted\"\n"), .init(name: "B\\")],
          templates: [.init(name: "Card 1", questionFormat: "{{A}}", answerFormat: "")]),
        NoteType(
          id: 2, name: "Merged", fields: [.init(name: "caf\u{E9}"), .init(name: nfd)],
          templates: [.init(name: "Card 1", questionFormat: "x", answerFormat: "")]),
        NoteType(
          id: 3, name: "None", fields: [], templates: [.init(name: "Card 1", questionFormat: "x", answerFormat: "")]),
      ],
      notes: [
        Note(id: 10, guid: "g\u{1}\t", noteTypeID: 1, fields: ["\u{0}\u{1F}é\r\n", ""], tags: ["a", "b::c"]),
        Note(id: 11, guid: "", noteTypeID: 2, fields: ["x", "y"], tags: [], modificationTime: -1),
        Note(id: 12, guid: "h", noteTypeID: 3, fields: []),
      ],
      cards: [
        Card(
          id: 20, noteID: 10, templateOrdinal: 0, deckID: 1,
          scheduling: CardScheduling(type: .review, queue: .suspended, due: -3, data: "{\"pos\":1}"))
      ],
      reviews: [
        Review(
          id: 30, cardID: 20, ease: 3, interval: -600, lastInterval: 1, easeFactor: 2500, duration: 4000, kind: .review)
      ],
      media: [MediaFile(name: "a.txt", blob: MediaBlob(data: Data("abc".utf8)))])
    #expect(try Self.streamedBytes(collection) == Self.treeBytes(collection))
    #expect(try Self.streamedBytes(DeckCollection()) == Self.treeBytes(DeckCollection()))
  }

  @Test("a note that cannot be keyed by field name fails as before, and leaves no file")
  func badNote() throws {
    let collection = DeckCollection(notes: [Note(id: 1, guid: "g", noteTypeID: 9, fields: ["x"])])
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "bad.json")
    let error = try #require(throws: DeckError.self) { try DeckJSONWriter().write(collection, to: path) }
    #expect(error.message.hasPrefix("note 1 uses note type 9"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// Media of many sizes: empty, one and two bytes past a group of three, a worker's block and
  /// more, and larger than a worker keeps in memory (spilled into a scratch file).
  static func mediaOfManySizes() -> [MediaFile] {
    let sizes =
      [0, 1, 2, 3, 4, 5, 100, MediaWorkers.blockBytes - 1, MediaWorkers.blockBytes * 3 + 2]
      + Array(repeating: 700, count: 40) + [MediaWorkers.memberBytes + 1, 12]
    return sizes.enumerated().map { index, size in
      var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
      let bytes = Data(
        (0..<size).map { _ in
          state ^= state << 13
          state ^= state >> 7
          state ^= state << 17
          return UInt8(truncatingIfNeeded: state)
        })
      return MediaFile(name: "file\(index).bin", blob: MediaBlob(data: bytes))
    }
  }

  @Test("media encoded on worker threads give the text Foundation's base64 gives, in order")
  func mediaFromWorkers() throws {
    let media = Self.mediaOfManySizes()
    let collection = DeckCollection(decks: [Deck(id: 1, name: "Default")], media: media)
    #expect(try Self.streamedBytes(collection) == Self.treeBytes(collection))
    // A blob whose SHA-1 is declared is written with it, unread until its data is encoded.
    let declared = MediaBlob(
      source: InMemoryMediaSource(data: Data("abc".utf8)), sha1: Array(repeating: 7, count: 20), size: 3)
    let streamed = try Self.streamedBytes(
      DeckCollection(decks: [Deck(id: 1, name: "Default")], media: [MediaFile(name: "d.txt", blob: declared)]))
    #expect(String(decoding: streamed, as: UTF8.self).contains(String(repeating: "07", count: 20)))
  }

  @Test("a media file that cannot be read fails the document, naming the first such file, and leaves no file")
  func unreadableMedia() throws {
    var media = Self.mediaOfManySizes()
    let failing = FailingMediaSource(data: Data(count: 300_000), failAfter: 70_000)
    media[20] = MediaFile(name: "broken.mp3", blob: MediaBlob(source: failing))
    media[30] = MediaFile(name: "later.mp3", blob: MediaBlob(source: failing))
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "broken.json")
    let error = try #require(throws: DeckError.self) {
      try DeckJSONWriter().write(DeckCollection(decks: [Deck(id: 1, name: "Default")], media: media), to: path)
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.location.item == "media file 'broken.mp3'")
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}

@Suite("JSON deck format: progress")
struct JSONProgressTests {
  @Test("the writer and the reader report their phases")
  func phases() throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let recorder = PhaseRecorder()
    let reporter = ProgressReporter(minimumInterval: 0) { recorder.record($0) }
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter(progress: reporter).write(collection, to: path)
    #expect(recorder.phases == [.writingNotes, .writingCards, .writingReviews, .copyingMedia])
    let readRecorder = PhaseRecorder()
    let readReporter = ProgressReporter(minimumInterval: 0) { readRecorder.record($0) }
    _ = try DeckJSONReader(progress: readReporter).read(path: path)
    #expect(readRecorder.phases == [.checkingJSON, .readingNotes, .readingCards, .readingReviews, .checkingMedia])
  }
}
