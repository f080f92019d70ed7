import Testing

@testable import DeckAnki

/// BLAKE3 against the official test vectors' inputs (byte `i` is `i % 251`), in the default hash
/// mode; the digests are those of the reference implementation (PyPI `blake3` 1.0.11, the
/// Rust crate's bindings), the same as the official `test_vectors.json`.
@Suite("BLAKE3: the official test vectors")
struct BLAKE3Tests {
  /// Input lengths and their 32-byte digests in hex.
  static let vectors: [(length: Int, digest: String)] = [
    (0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
    (1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"),
    (1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"),
    (1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"),
    (1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"),
    (2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"),
    (2049, "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030"),
    (3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2"),
    (3073, "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd3"),
    (4096, "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969"),
    (4097, "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995"),
    (5120, "9cadc15fed8b5d854562b26a9536d9707cadeda9b143978f319ab34230535833"),
    (5121, "628bd2cb2004694adaab7bbd778a25df25c47b9d4155a55f8fbd79f2fe154cff"),
    (6144, "3e2e5b74e048f3add6d21faab3f83aa44d3b2278afb83b80b3c35164ebeca205"),
    (6145, "f1323a8631446cc50536a9f705ee5cb619424d46887f3c376c695b70e0f0507f"),
    (7168, "61da957ec2499a95d6b8023e2b0e604ec7f6b50e80a9678b89d2628e99ada77a"),
    (7169, "a003fc7a51754a9b3c7fae0367ab3d782dccf28855a03d435f8cfe74605e7817"),
    (8192, "aae792484c8efe4f19e2ca7d371d8c467ffb10748d8a5a1ae579948f718a2a63"),
    (8193, "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b"),
    (16384, "f875d6646de28985646f34ee13be9a576fd515f76b5b0a26bb324735041ddde4"),
    (31744, "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47"),
    (102400, "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"),
  ]

  /// The vectors' input of `length` bytes.
  static func input(_ length: Int) -> [UInt8] {
    (0..<length).map { UInt8($0 % 251) }
  }

  /// `bytes` in lowercase hex.
  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }

  @Test(arguments: vectors.map(\.length))
  func wholeInput(length: Int) throws {
    let expected = try #require(Self.vectors.first { $0.length == length }).digest
    #expect(Self.hex(BLAKE3.hash(Self.input(length))) == expected)
  }

  /// The digest depends only on the bytes, not on how they are cut: pieces of 1, 63, 64, 65,
  /// 1000 and 1024 bytes, crossing block and chunk boundaries at every offset.
  @Test(arguments: [1, 63, 64, 65, 1000, 1024])
  func inPieces(pieceLength: Int) {
    for (length, digest) in Self.vectors where length <= 8193 {
      let bytes = Self.input(length)
      var hasher = BLAKE3()
      var start = 0
      while start < bytes.count {
        let end = min(start + pieceLength, bytes.count)
        hasher.update(bytes[start..<end])
        start = end
      }
      #expect(Self.hex(hasher.finalize()) == digest, "length \(length)")
    }
  }

  @Test func stringsAndCopies() {
    #expect(
      Self.hex(BLAKE3.hash("abc".utf8)) == "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85")
    var hasher = BLAKE3()
    hasher.update(Self.input(1500))
    let copy = hasher
    hasher.update(Self.input(2049).suffix(549))
    #expect(Self.hex(copy.finalize()) == Self.hex(BLAKE3.hash(Self.input(1500))))
    // Finishing leaves the hasher as it was: more bytes give the longer input's digest.
    _ = copy.finalize()
    #expect(Self.hex(copy.finalize()) == Self.hex(BLAKE3.hash(Self.input(1500))))
  }
}
