import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// A JSON file of records with pictures, as an app's `Codable` types write it: base64 strings,
/// slashes escaped. deckport writes it a piece at a time and reads each picture from the file
/// straight into a mapped value.
@Suite("JSON record files with pictures: streamed out, mapped in")
struct JSONRecordFileTests {
  /// NeoMnemo's record, as the app's `Codable` type would be.
  struct Mnemonic: Codable, Equatable {
    var keyword: String
    var story: String
    var image: Data
  }

  /// Bytes whose base64 has slashes in many places (0xFF bytes make `////`).
  static func picture(_ count: Int, seed: UInt64 = 1) -> Data {
    var state = seed
    return Data(
      (0..<count).map { index in
        state = state &* 6_364_136_223_846_793_005 &+ 1
        return index % 5 == 0 ? 0xFF : UInt8(truncatingIfNeeded: state >> 33)
      })
  }

  @Test("a deck's large picture written as a JSON file decodes with JSONDecoder, and reads back mapped")
  func deckToJSONFileAndBack() throws {
    var deck = AppRecordMappingTests.ankiDeck()
    let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Self.picture(300_000)
    deck.media = [MediaFile(name: "cat.png", blob: MediaBlob(data: picture))]
    let (records, _) = try AppRecordMapping.records(from: deck, profile: .named(.neoMnemo))
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "mnemonics.json")
    _ = try AppStorageWriter().write(records, to: path)

    // Foundation's decoder, not deckport's reader, checks the text.
    let cards = try JSONDecoder().decode([Mnemonic].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(cards.map(\.keyword) == ["Katze", "Hund"])
    #expect(cards[0].image == picture)
    #expect(cards[1].image.isEmpty)

    let read = try AppStorageReader().read(path: path, options: AppStorageOptions(profile: .named(.neoMnemo)))
    guard case .data(let image)? = read.records.records[0]["image"] else {
      Issue.record("no image: \(read.records.records[0])")
      return
    }
    #expect(image == picture)
    #if os(Linux)
    #expect(MemoryMaps.isSpilled(image), "\(MemoryMaps.file(holding: image) ?? "heap")")
    #endif
  }

  @Test(
    "a file another program cuts short after it was parsed, before its pictures are read: an error naming it, no crash")
  func shortenedWhileRead() throws {
    let cards = (0..<4).map { Mnemonic(keyword: "k\($0)", story: "s", image: Self.picture(300_000, seed: UInt64($0))) }
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "cards.json")
    try JSONEncoder().encode(cards).write(to: URL(fileURLWithPath: path))
    let file = JSONRecordFile(location: SourceLocation(file: path))
    let document = try file.document()
    // The pictures are still in the mapped file; another program now keeps only its first 4 KB.
    #expect(truncate(path, 4096) == 0)
    let error = #expect(throws: DeckError.self) {
      try file.read(document, key: nil, profile: .named(.neoMnemo))
    }
    #expect(error?.kind == .unreadableFile)
    #expect(error?.location.file == path)
    #expect(error?.message.contains("shortened while deckport read it") == true)
  }

  @Test("a file JSONEncoder wrote is read as it always was: data for the profile's data key, text without a profile")
  func fileFromJSONEncoder() throws {
    let cards = [
      Mnemonic(keyword: "eins", story: "one", image: Self.picture(200_001)),
      Mnemonic(keyword: "zwei", story: "two", image: Self.picture(3, seed: 2)),
      Mnemonic(keyword: "drei", story: "three", image: Data(repeating: 0xFF, count: 150_000)),
    ]
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "cards.json")
    try JSONEncoder().encode(cards).write(to: URL(fileURLWithPath: path))

    let typed = try AppStorageReader().read(path: path).records
    #expect(typed.profile?.id == "neomnemo")
    #expect(typed.records.map { $0["image"] } == cards.map { .data($0.image) })
    #if os(Linux)
    for record in typed.records {
      guard case .data(let image)? = record["image"] else { continue }
      #expect(MemoryMaps.isSpilled(image) == (image.count >= SpilledBytes.threshold))
    }
    #endif

    let untyped = try AppStorageReader().read(path: path, options: AppStorageOptions(profile: .generic)).records
    #expect(untyped.records.map { $0["image"] } == cards.map { .string($0.image.base64EncodedString()) })
  }

  /// Long strings under the data key that are not canonical base64 are what they were before the
  /// file was mapped: Foundation's `Data(base64Encoded:)` and its own encoding decide.
  @Test(
    "a long string that is not canonical base64 stays text, one with other escapes is still data",
    arguments: [
      ("QR==", "non-zero bits after the last byte"), ("QUJD\\nQUJD", "a line break"), ("QUJD QUJD", "a space"),
      ("QUJD\\u002FQUJD", "a slash written as \\u002F"), ("QUJDQUJD", "canonical"), ("QUJD=QUJD", "padding inside"),
    ])
  func notCanonical(tail: String, _ what: String) throws {
    let head = Data(repeating: 0x41, count: 150_000).base64EncodedString()
    let escaped = head + tail
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "cards.json")
    try Data(#"[{"keyword":"k","story":"s","image":"\#(escaped)"}]"#.utf8).write(to: URL(fileURLWithPath: path))
    let text =
      try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: String]])[0][
        "image"] ?? ""
    let decoded = Data(base64Encoded: text).flatMap { $0.base64EncodedString() == text ? $0 : nil }
    let read = try AppStorageReader().read(path: path, options: AppStorageOptions(profile: .named(.neoMnemo)))
    #expect(read.records.records[0]["image"] == (decoded.map(AppValue.data) ?? .string(text)), "\(what)")
  }

  @Test("writing into an existing file keeps its other keys and its records, pictures byte for byte")
  func existingKeyedFile() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "backup.json")
    struct Backup: Codable {
      var version: Int
      var mnemonics: [Mnemonic]
    }
    let old = Backup(version: 3, mnemonics: [Mnemonic(keyword: "alt", story: "old", image: Self.picture(140_000))])
    try JSONEncoder().encode(old).write(to: URL(fileURLWithPath: path))
    let new = Mnemonic(keyword: "neu", story: "new", image: Self.picture(260_000, seed: 9))
    let records = AppRecords(
      name: "mnemonics",
      records: [
        AppRecord([("keyword", .string(new.keyword)), ("story", .string(new.story)), ("image", .data(new.image))])
      ],
      profile: .neoMnemo)
    var options = AppWriteOptions(existing: .replace)
    options.storage.key = "mnemonics"
    _ = try AppStorageWriter().write(records, to: path, options: options)
    let backup = try JSONDecoder().decode(Backup.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(backup.version == 3)
    #expect(backup.mnemonics.map(\.keyword).sorted() == ["alt", "neu"])
    #expect(backup.mnemonics.first { $0.keyword == "neu" }?.image == new.image)
    #expect(backup.mnemonics.first { $0.keyword == "alt" }?.image == old.mnemonics[0].image)
  }
}
