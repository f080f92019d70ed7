import DeckCore
import DeckTestSupport
import Foundation
import Testing

/// A blob whose declaration is checked when its bytes are first read whole
/// (``MediaBlob/init(source:checkedOnRead:)``): every whole read checks, a failing check throws
/// at the read's end, and a passing one is remembered, so the bytes are not read again.
@Suite("Media blobs: a declaration checked by the first whole read")
struct MediaBlobCheckTests {
  /// "abc", whose SHA-1 is FIPS 180's first example.
  static let bytes = Data("abc".utf8)
  static let abcSHA1 = "a9993e364706816aba3e25717850c26c9cd0d89d"

  struct Mismatch: Error, Equatable {
    var sha1: String
    var size: Int64
  }

  /// A blob over "abc" whose check passes only for `expectedSHA1`, recording each call.
  static func blob(expecting expectedSHA1: String, calls: CallCounter) -> (MediaBlob, CountingMediaSource) {
    let source = CountingMediaSource(data: bytes)
    let blob = MediaBlob(source: source) { sha1, size in
      calls.add()
      let hex = sha1.map { String(format: "%02x", $0) }.joined()
      if hex != expectedSHA1 { throw Mismatch(sha1: hex, size: size) }
    }
    return (blob, source)
  }

  @Test("a whole read that passes the check is remembered: the bytes are not read again")
  func passingReadIsRemembered() throws {
    let calls = CallCounter()
    let (blob, source) = Self.blob(expecting: Self.abcSHA1, calls: calls)
    #expect(blob.hasPendingCheck)
    var read = Data()
    try blob.forEachChunk { read.append(contentsOf: $0) }
    #expect(read == Self.bytes)
    #expect(!blob.hasPendingCheck)
    #expect(calls.count == 1)
    #expect(try blob.sha1Hex() == Self.abcSHA1)
    #expect(try blob.size() == 3)
    #expect(blob.computedFingerprint?.size == 3)
    #expect(source.opened.count == 1)
  }

  @Test("each kind of whole read throws the check's error at its end, and the check stays pending")
  func failingReadThrows() throws {
    let calls = CallCounter()
    let (blob, _) = Self.blob(expecting: String(repeating: "0", count: 40), calls: calls)
    let mismatch = Mismatch(sha1: Self.abcSHA1, size: 3)
    var chunks = 0
    #expect(throws: mismatch) { try blob.forEachChunk { _ in chunks += 1 } }
    #expect(chunks == 1)
    #expect(throws: mismatch) { try blob.data() }
    #expect(throws: mismatch) { try blob.fingerprint() }
    #expect(throws: mismatch) { try blob.size() }
    #expect(try blob.verify() == false)
    #expect(blob.hasPendingCheck)
    #expect(blob.computedFingerprint == nil)
  }

  @Test("a writer's own hash makes the check, once")
  func recordComputedChecks() throws {
    let calls = CallCounter()
    let (blob, source) = Self.blob(expecting: Self.abcSHA1, calls: calls)
    let wrong = [UInt8](repeating: 0, count: 20)
    #expect(throws: Mismatch(sha1: String(repeating: "00", count: 20), size: 3)) {
      try blob.recordComputed(sha1: wrong, size: 3)
    }
    #expect(blob.hasPendingCheck)
    let right = try MediaBlob(data: Self.bytes).sha1()
    try blob.recordComputed(sha1: right, size: 3)
    #expect(!blob.hasPendingCheck)
    #expect(try blob.sha1Hex() == Self.abcSHA1)
    #expect(source.opened.count == 0)
    #expect(calls.count == 2)
  }

  @Test("the collection makes the checks no read made, in media order")
  func collectionChecksPending() throws {
    let calls = CallCounter()
    let (good, _) = Self.blob(expecting: Self.abcSHA1, calls: calls)
    let (bad, _) = Self.blob(expecting: String(repeating: "1", count: 40), calls: calls)
    let (later, laterSource) = Self.blob(expecting: String(repeating: "2", count: 40), calls: calls)
    let collection = DeckCollection(media: [
      MediaFile(name: "good.txt", blob: good), MediaFile(name: "plain.txt", blob: MediaBlob(data: Self.bytes)),
      MediaFile(name: "bad.txt", blob: bad), MediaFile(name: "later.txt", blob: later),
    ])
    #expect(throws: Mismatch(sha1: Self.abcSHA1, size: 3)) { try collection.checkPendingMedia() }
    #expect(!good.hasPendingCheck)
    #expect(bad.hasPendingCheck)
    #expect(laterSource.opened.count == 0)
    try DeckCollection(media: [MediaFile(name: "good.txt", blob: good)]).checkPendingMedia()
  }
}
