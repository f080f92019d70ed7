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

  @Test("every string's SHA-1 and size, nil for one that does not decode, whoever does it")
  func fingerprints() throws {
    let (path, scratch, strings) = try Self.strings(count: 30)
    _ = scratch
    let precheck = MediaPrecheck(path: path)
    defer { precheck.stop() }
    for (string, _) in strings { precheck.add(string) }
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
    let (path, scratch, strings) = try Self.strings(count: 12)
    _ = scratch
    let precheck = MediaPrecheck(path: path)
    for (string, _) in strings { precheck.add(string) }
    precheck.stop()
    #expect(precheck.fingerprint(of: 11) == nil)
  }
}
