import DeckCore
import DeckIO
import Foundation
import Testing

@testable import DeckJSON

/// The reader's second thread decodes and hashes media strings as the syntax pass finds them;
/// the reader, when it gets there first, does the strings nobody has started itself.
@Suite("JSON deck format: media checked on a second thread")
struct MediaPrecheckTests {
  /// A file holding `count` base64 strings of different sizes, every third one broken, and
  /// the place and the bytes (nil when broken) of each.
  static func strings(count: Int) throws -> (
    path: String, scratch: TemporaryDirectory, [(JSONSyntaxPass.SetAside, Data?)]
  ) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "strings.txt")
    var text = Data()
    var strings: [(JSONSyntaxPass.SetAside, Data?)] = []
    for number in 0..<count {
      var bytes = Data(count: 5_000 + number * 7_919)
      for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: (index &+ number) &* 2_654_435_761 >> 11) }
      var encoded = Data(bytes.base64EncodedString().utf8)
      let broken = number % 3 == 2
      if broken { encoded[encoded.count / 2] = UInt8(ascii: "@") }
      strings.append((JSONSyntaxPass.SetAside(offset: text.count + 1, length: encoded.count), broken ? nil : bytes))
      text.append(UInt8(ascii: "\""))
      text.append(encoded)
      text.append(contentsOf: Array("\", ".utf8))
    }
    try text.write(to: URL(fileURLWithPath: path))
    return (path, scratch, strings)
  }

  /// A precheck over `count` strings of ``strings(count:)``, every one queued.
  static func queued(count: Int) throws -> (
    MediaPrecheck, path: String, scratch: TemporaryDirectory, [(JSONSyntaxPass.SetAside, Data?)]
  ) {
    let (path, scratch, strings) = try Self.strings(count: count)
    let precheck = MediaPrecheck(path: path)
    for (string, _) in strings { precheck.add(string) }
    return (precheck, path, scratch, strings)
  }

  @Test("every string's SHA-1 and size, nil for one that does not decode, whoever does it")
  func fingerprints() throws {
    let (precheck, _, scratch, strings) = try Self.queued(count: 30)
    _ = scratch
    defer { precheck.stop() }
    precheck.finishAdding()
    for (number, (_, bytes)) in strings.enumerated() {
      let found = precheck.fingerprint(of: number)
      if let bytes {
        #expect(found.map { SHA1.hex($0.sha1) } == SHA1.hex(SHA1.digest(bytes)), "string \(number)")
        #expect(found?.size == Int64(bytes.count), "string \(number)")
      } else {
        #expect(found == nil, "string \(number)")
      }
    }
    #expect(precheck.fingerprint(of: strings.count) == nil, "never queued")
  }

  @Test("stopped early, it ends, and gives nothing more")
  func stopped() throws {
    let (precheck, _, scratch, _) = try Self.queued(count: 12)
    _ = scratch
    precheck.stop()
    #expect(precheck.fingerprint(of: 11) == nil)
  }

  /// A blob over string `string` of the file at `path` whose check compares with `bytes`
  /// (failing for a broken string), holding `lease` as a deferring reader's blobs do.
  static func deferredBlob(
    _ string: JSONSyntaxPass.SetAside, bytes: Data?, path: String, lease: MediaPrecheck.Lease?
  ) -> MediaBlob {
    let expected = bytes.map { (SHA1.digest($0), Int64($0.count)) }
    let source = Base64FileRangeSource(
      path: path, offset: string.offset, length: string.length, location: SourceLocation(file: path))
    return MediaBlob(source: source) { sha1, size in
      withExtendedLifetime(lease) {}
      guard let expected, expected.0 == sha1, expected.1 == size else {
        throw DeckError(.corrupt, at: SourceLocation(file: path), "not as declared")
      }
    }
  }

  @Test("blobs handed over are checked by the thread, after the reader is done with it; broken ones stay pending")
  func handedOverBlobs() throws {
    let (precheck, path, scratch, strings) = try Self.queued(count: 24)
    _ = scratch
    // Some strings are done before their blob is handed over, some after.
    _ = precheck.fingerprint(of: 3)
    let blobs = strings.map { Self.deferredBlob($0.0, bytes: $0.1, path: path, lease: nil) }
    for (number, blob) in blobs.enumerated() { precheck.attach(blob, to: number) }
    precheck.finishAdding()
    precheck.waitForEnd()
    for (number, (blob, (_, bytes))) in zip(blobs, strings).enumerated() {
      if let bytes {
        #expect(!blob.hasPendingCheck, "string \(number)")
        #expect(blob.computedFingerprint.map { SHA1.hex($0.sha1) } == SHA1.hex(SHA1.digest(bytes)), "string \(number)")
      } else {
        #expect(blob.hasPendingCheck, "string \(number): left for its reader to report")
        #expect(throws: DeckError.self) { try blob.data() }
      }
    }
  }

  @Test("going backwards, the thread ends on its own where reads have checked the blobs")
  func endsWhereReadsAre() throws {
    let (path, scratch, strings) = try Self.strings(count: 30)
    _ = scratch
    // Every string good, so that a read checks the blob.
    let good = strings.enumerated().filter { $0.element.1 != nil }.map(\.element)
    let precheck = MediaPrecheck(path: path)
    let blobs = good.map { Self.deferredBlob($0.0, bytes: $0.1, path: path, lease: nil) }
    // The writer's workers have read the first ten already.
    for blob in blobs.prefix(10) { _ = try blob.data() }
    for (string, _) in good { precheck.add(string) }
    for (number, blob) in blobs.enumerated() { precheck.attach(blob, to: number) }
    precheck.finishAdding()
    precheck.waitForEnd()
    #expect(!precheck.isCancelled, "it ended on its own")
    // Those after the ten are the thread's (some done before the list was complete).
    for (number, blob) in blobs.enumerated() { #expect(!blob.hasPendingCheck, "string \(number)") }
    #expect(try precheck.fingerprint(of: 15).map { SHA1.hex($0.sha1) } == blobs[15].sha1Hex())
  }

  @Test("once no handed-over blob is left, the thread is cancelled")
  func leaseLetGo() throws {
    let (path, scratch, strings) = try Self.strings(count: 40)
    _ = scratch
    let precheck = MediaPrecheck(path: path)
    defer { precheck.stop() }
    do {
      let lease = MediaPrecheck.Lease(precheck)
      let blobs = strings.map { Self.deferredBlob($0.0, bytes: $0.1, path: path, lease: lease) }
      for (number, blob) in blobs.enumerated() { precheck.attach(blob, to: number) }
      #expect(!precheck.isCancelled)
    }
    #expect(precheck.isCancelled)
  }
}
