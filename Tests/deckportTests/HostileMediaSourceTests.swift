import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A media source of an app's own (``MediaSource`` is public) whose reader answers a count no
/// read can give: below zero, or past the end of the buffer it was handed. Every writer, and
/// ``MediaFile/write(into:replacing:)``, reports the file by name instead of trapping on the
/// slice of its buffer (`Range requires lowerBound <= upperBound`, an out-of-bounds slice).
@Suite("A media source answering an impossible byte count: named, no trap")
struct HostileMediaSourceTests {
  /// A reader that answers `count(bufferSize)` to its first read and 0 (the end) after.
  final class Reader: MediaByteReader {
    let count: @Sendable (Int) -> Int
    var calls = 0
    init(count: @escaping @Sendable (Int) -> Int) { self.count = count }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      calls += 1
      return calls == 1 ? count(buffer.count) : 0
    }
  }

  struct Source: MediaSource {
    let count: @Sendable (Int) -> Int
    func openReader() throws -> any MediaByteReader { Reader(count: count) }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var id: String
    var count: @Sendable (Int) -> Int
    /// Whether the blob declares its SHA-1 and size (so no writer hashes it first).
    var declared: Bool
    var testDescription: String { id }
  }

  static let cases: [Case] = [
    Case(id: "-1", count: { _ in -1 }, declared: false),
    Case(id: "one past the buffer", count: { $0 + 1 }, declared: false),
    Case(id: "Int.min, size declared", count: { _ in Int.min }, declared: true),
    Case(id: "Int.max, size declared", count: { _ in Int.max }, declared: true),
  ]

  static func collection(_ testCase: Case) -> DeckCollection {
    let source = Source(count: testCase.count)
    let blob =
      testCase.declared
      ? MediaBlob(source: source, sha1: Array(repeating: 7, count: 20), size: 3) : MediaBlob(source: source)
    return DeckCollection(
      creationTime: 1_795_320_000, decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: 77, name: "Basic", fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
      ],
      notes: [Note(id: 100, guid: "g", noteTypeID: 77, fields: ["<img src=\"a.png\">", "b"])],
      cards: [Card(id: 200, noteID: 100, templateOrdinal: 0, deckID: 1)],
      media: [MediaFile(name: "a.png", blob: blob)])
  }

  @Test("every writer names the media file", arguments: cases)
  func writers(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let collection = Self.collection(testCase)
    let registry = FormatRegistry.standard
    var refused: [String] = []
    for name in registry.outputNames where name != .coreData {
      let format = try #require(registry.writer(named: name))
      let description = format.description
      let path = scratch.path(for: "deck-\(name.rawValue).\(description.newFileExtension ?? "folder")")
      let context = FormatWriteContext(destination: path)
      do {
        let warnings: [Diagnostic]
        if description.changesInPlace {
          warnings = try format.write(collection, to: path, context: context).warnings
        } else if description.isFolder {
          warnings = try AtomicOutput.writeFolder(to: path, replacing: false) {
            try format.write(collection, to: $0, context: context)
          }.warnings
        } else {
          warnings = try AtomicOutput.write(to: path, replacing: false) {
            try format.write(collection, to: $0, context: context)
          }.warnings
        }
        // A format that writes no media files leaves it out, or (app storage) warns it is unread.
        let unread = warnings.first { $0.message.contains("cannot read a.png") }
        if let unread { #expect(unread.message.contains("bytes into a buffer of"), "\(name.rawValue)") }
      } catch let error as DeckError {
        refused.append(name.rawValue)
        #expect(error.kind == .unreadableFile, "\(name.rawValue): \(error)")
        #expect(error.location.item?.contains("media file 'a.png'") == true, "\(name.rawValue): \(error)")
        #expect(error.message.contains("bytes into a buffer of"), "\(name.rawValue): \(error)")
      }
    }
    // Every format that carries media files refuses; with the size declared, the JSON formats
    // and CrowdAnki read the bytes as well.
    for name in ["apkg", "apkg-modern", "colpkg", "colpkg-modern", "json", "json-dir", "crowdanki"] {
      #expect(refused.contains(name), "\(name) wrote the media file: \(refused)")
    }
  }

  @Test("MediaFile.write(into:) names the media file", arguments: cases)
  func export(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let file = try #require(Self.collection(testCase).media.first)
    let error = try #require(throws: DeckError.self) {
      try file.write(into: URL(fileURLWithPath: scratch.path))
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.message.contains("bytes into a buffer of"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "a.png")))
  }

  @Test("MediaBlob's own reads throw instead of trapping", arguments: cases)
  func blob(_ testCase: Case) throws {
    let blob = MediaBlob(source: Source(count: testCase.count))
    #expect(throws: MediaReadCountError.self) { try blob.data() }
    #expect(throws: MediaReadCountError.self) { try blob.fingerprint() }
  }
}
