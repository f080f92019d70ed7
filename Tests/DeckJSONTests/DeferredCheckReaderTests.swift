import DeckCore
import DeckIO
import Foundation
import Testing

@testable import DeckJSON

/// The reader with deferred media checks (a conversion's): data left in the file is checked
/// against its declaration when it is first read whole, with the same message as a reading
/// that checks it at once, and at the same point whether or not the second thread had hashed
/// it by the end of reading.
@Suite("JSON deck format: media checks deferred to the first whole read")
struct DeferredCheckReaderTests {
  /// Reads `json` with deferred checks, waiting for the second thread's results when `waits`.
  static func read(_ json: String, waits: Bool, in scratch: TemporaryDirectory) throws -> (String, DeckCollection) {
    let path = scratch.path(for: "deck.json")
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    var reader = DeckJSONReader()
    reader.defersMediaChecks = true
    reader.waitsForPrecheck = waits
    return (path, try reader.read(path: path).collection)
  }

  /// The reader's cases of bad data left in the file, by name.
  static let dataCases = [
    "long media SHA-1 mismatch", "long media size mismatch", "long media not base64", "long media cut short",
  ]

  @Test(
    "bad data is not reported while reading but by the check, with the reader's message",
    arguments: dataCases, [false, true])
  func badDataReportedByCheck(id: String, waits: Bool) throws {
    let testCase = try #require(JSONErrorTests.setAsideCases.first { $0.id == id })
    let scratch = try TemporaryDirectory()
    let (path, collection) = try Self.read(testCase.json, waits: waits, in: scratch)
    let file = try #require(collection.media.first)
    #expect(file.blob.hasPendingCheck)
    let error = try #require(throws: DeckError.self) { try collection.checkPendingMedia() }
    #expect(error.kind == testCase.kind)
    #expect(error.description == path + testCase.message)
    // A whole read fails the same way.
    let again = try #require(throws: DeckError.self) { try file.blob.data() }
    #expect(again.description == path + testCase.message)
  }

  @Test("a bad name is reported while reading, before bad data earlier in the list", arguments: [false, true])
  func nameBeforeData(waits: Bool) throws {
    let testCase = try #require(JSONErrorTests.setAsideCases.first { $0.id == "a bad long file before a bad name" })
    let scratch = try TemporaryDirectory()
    let error = try #require(throws: DeckError.self) { try Self.read(testCase.json, waits: waits, in: scratch) }
    #expect(error.description.hasPrefix(scratch.path(for: "deck.json") + ": at media[1].name: "))
  }

  @Test("data the second thread found as declared is kept as checked; the rest is checked when read")
  func goodDataKept() throws {
    let json =
      "{\(JSONErrorTests.valid), \(JSONErrorTests.basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"sha1\": \"\(JSONErrorTests.longSHA1)\", \"size\": 6000, \"data\": \"\(JSONErrorTests.long)\"}]}"
    let scratch = try TemporaryDirectory()
    let (_, waited) = try Self.read(json, waits: true, in: scratch)
    let kept = try #require(waited.media.first)
    #expect(!kept.blob.hasPendingCheck)
    #expect(kept.blob.computedFingerprint.map { SHA1.hex($0.sha1) } == JSONErrorTests.longSHA1)
    let other = try TemporaryDirectory()
    let (_, taken) = try Self.read(json, waits: false, in: other)
    try taken.checkPendingMedia()
    let file = try #require(taken.media.first)
    #expect(!file.blob.hasPendingCheck)
    #expect(try file.blob.data() == Data(String(repeating: "ABC", count: 2000).utf8))
  }

  @Test("the second thread goes on after reading, and checks what it finds as declared without a read")
  func threadGoesOn() throws {
    // Large enough that the thread is still hashing when the reader returns.
    let bytes = Data((0..<(1 << 21)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
    let sha1 = SHA1.hex(SHA1.digest(bytes))
    let entry = "\"sha1\": \"\(sha1)\", \"size\": \(bytes.count), \"data\": \"\(bytes.base64EncodedString())\"}"
    let entries = (0..<40).map { "{\"name\": \"f\($0).bin\", " + entry }
    let json =
      "{\(JSONErrorTests.valid), \(JSONErrorTests.basic), \"notes\": [], \"media\": [\(entries.joined(separator: ", "))]}"
    let scratch = try TemporaryDirectory()
    let (_, collection) = try Self.read(json, waits: false, in: scratch)
    #expect(collection.media.count == 40)
    // Nothing reads the blobs here: the thread records each one's fingerprint, making its check.
    let deadline = Date().addingTimeInterval(60)
    while collection.media.contains(where: \.blob.hasPendingCheck) && Date() < deadline { usleep(2_000) }
    for file in collection.media {
      #expect(!file.blob.hasPendingCheck, "\(file.name)")
      #expect(file.blob.computedFingerprint.map { SHA1.hex($0.sha1) } == sha1, "\(file.name)")
    }
  }
}
