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

/// Strings taken at their declared length must be plain text; the check reads only those not
/// decoded by the time the reader asks, since a string that decodes is plain text.
@Suite("JSON deck format: declared lengths checked by decoding or by reading the text")
struct DeclaredLengthVerdictTests {
  /// `count` strings of ``MediaPrecheckTests/strings(count:)`` (every third one broken by an `@`,
  /// which is plain text), each marked as taken at its declared length; `damaged` gets a byte
  /// that is not plain text (`byte`) in the middle instead.
  static func queued(count: Int, damaged: Int? = nil, byte: UInt8 = UInt8(ascii: "\"")) throws -> (
    MediaPrecheck, scratch: TemporaryDirectory, [(JSONSyntaxPass.SetAside, Data?)]
  ) {
    let (path, scratch, strings) = try MediaPrecheckTests.strings(count: count)
    if let damaged {
      let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
      let string = strings[damaged].0
      try handle.seek(toOffset: UInt64(string.offset + string.length / 2))
      try handle.write(contentsOf: [byte])
      try handle.close()
    }
    let precheck = MediaPrecheck(path: path)
    for (string, _) in strings {
      var declared = string
      declared.lengthDeclared = true
      precheck.add(declared)
    }
    return (precheck, scratch, strings)
  }

  @Test("every byte that is not plain text, anywhere in a block, makes a string not decode")
  func onlyPlainTextDecodes() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "text.txt")
    let good = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }).base64EncodedData()
    let rejected = (0...255).map(UInt8.init).filter { byte in
      [byte].withUnsafeBytes { !JSONSyntaxPass.isPlainText($0) }
    }
    #expect(rejected.count == 2 + 32 + 128)
    // In the vector code's blocks of 32, in the pairs after them, and in the last group.
    for position in [0, 5, 31, 33, 200, good.count - 6, good.count - 1] {
      for byte in rejected {
        var text = good
        text[position] = byte
        try text.write(to: URL(fileURLWithPath: path))
        let source = Base64FileRangeSource(
          path: path, offset: 0, length: text.count, location: SourceLocation(file: path))
        #expect(throws: DeckError.self, "byte \(byte) at \(position)") { try MediaBlob(source: source).fingerprint() }
      }
    }
  }

  @Test("strings decoded before the reader asks are not read again for their text")
  func decodedAreNotReadAgain() throws {
    let (precheck, scratch, strings) = try Self.queued(count: 18)
    _ = scratch
    defer { precheck.stop() }
    // The first twelve are decoded (the thread and the reader share them); the thread may or
    // may not have got to some of the last six when it is stopped.
    for number in 0..<12 { _ = precheck.fingerprint(of: number) }
    precheck.stop()
    #expect(precheck.declaredLengthsHold())
    // Broken strings do not decode, so each is read for its text; of the good ones, only the
    // last six can be (the first twelve were decoded).
    let broken = strings.filter { $0.1 == nil }.count
    let lastSixGood = strings.suffix(6).filter { $0.1 != nil }.count
    #expect(broken == 6)
    #expect((broken...(broken + lastSixGood)).contains(precheck.textReadCount))
  }

  @Test("a string that is not plain text fails the verdict, decoded by then or not", arguments: [0, 4, 16])
  func notPlainFails(damaged: Int) throws {
    for byte in [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0xC3] {
      let (precheck, scratch, _) = try Self.queued(count: 18, damaged: damaged, byte: byte)
      _ = scratch
      for number in 0..<6 { _ = precheck.fingerprint(of: number) }
      precheck.finishAdding()
      #expect(!precheck.declaredLengthsHold(), "byte \(byte) in string \(damaged)")
      #expect(!precheck.declaredLengthsHold(), "asked again")
      precheck.stop()
    }
  }

  @Test("with the thread running on, the verdict holds for plain strings and asking twice is the same")
  func runningOn() throws {
    let (precheck, scratch, _) = try Self.queued(count: 30)
    _ = scratch
    defer { precheck.stop() }
    precheck.finishAdding()
    #expect(precheck.declaredLengthsHold())
    #expect(precheck.declaredLengthsHold())
    // The ten broken strings (plain text that is not base64) cannot be shown plain by decoding.
    #expect((10...30).contains(precheck.textReadCount))
  }
}
