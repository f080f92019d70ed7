import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("SHA1")
struct SHA1Tests {
  @Test("known vectors")
  func vectors() {
    #expect(SHA1.hex(SHA1.digest(Data())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(SHA1.hex(SHA1.digest(Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      SHA1.hex(SHA1.digest(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(
      SHA1.hex(SHA1.digest(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test("a string's UTF-8 is hashed in place: known vectors, an empty string, a bridged and a non-ASCII one")
  func utf8Text() {
    #expect(SHA1.hex(SHA1.digest(utf8: "")) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(SHA1.hex(SHA1.digest(utf8: "abc")) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    // A small string (kept inside the value), a large native one, a non-ASCII one and one made by
    // Foundation, each against the digest of its bytes copied out.
    let texts = [
      "abc", String(repeating: "xyz", count: 5000), "日本語 Café\u{301}",
      NSString(string: "bridged \u{E9}").appending(" text"),
    ]
    for text in texts { #expect(SHA1.digest(utf8: text) == SHA1.digest(Data(text.utf8))) }
  }

  @Test("digest is 20 bytes and hex is lowercase")
  func shape() {
    let digest = SHA1.digest(Data("abc".utf8))
    #expect(digest.count == 20)
    #expect(digest.first == 0xA9)
    #expect(SHA1.hex([0x00, 0x0F, 0xAB, 0xFF]) == "000fabff")
  }

  @Test("chunked updates give the same digest at every split", arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
  func chunked(chunkSize: Int) {
    let data = Shell.randomBytes(5000)
    var hasher = SHA1()
    var offset = 0
    while offset < data.count {
      let end = min(offset + chunkSize, data.count)
      hasher.update(data[offset..<end])
      offset = end
    }
    #expect(hasher.finalize() == SHA1.digest(data))
  }

  @Test(
    "padding boundaries match sha1sum", .enabled(if: Shell.has("sha1sum")),
    arguments: [55, 56, 57, 63, 64, 65, 119, 120, 128])
  func boundaries(length: Int) throws {
    let data = Shell.randomBytes(length, seed: UInt64(length))
    let output = try Shell.run("sha1sum", input: data).output
    let expected = String(decoding: output.prefix(40), as: UTF8.self)
    #expect(SHA1.hex(SHA1.digest(data)) == expected)
  }

  @Test("a few MB file streamed through a ByteSource matches sha1sum", .enabled(if: Shell.has("sha1sum")))
  func streamedFile() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "random.bin")
    let data = Shell.randomBytes(3_000_017)
    try data.write(to: URL(fileURLWithPath: path))
    var source = try FileByteSource(path: path, location: SourceLocation(file: path))
    let (digest, size) = try SHA1.digest(of: &source)
    #expect(size == Int64(data.count))
    let output = try Shell.run("sha1sum '\(path)'").output
    #expect(SHA1.hex(digest) == String(decoding: output.prefix(40), as: UTF8.self))
    #expect(digest == SHA1.digest(data))
  }

  @Test("a copied hasher goes on independently of the original")
  func copiesAreIndependent() {
    var first = SHA1()
    first.update(Data("ab".utf8))
    var second = first
    first.update(Data("c".utf8))
    #expect(SHA1.hex(first.finalize()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    second.update(Data("x".utf8))
    #expect(second.finalize() == SHA1.digest(Data("abx".utf8)))
  }

  @Test("update with a raw buffer")
  func rawBuffer() {
    var hasher = SHA1()
    Data("abc".utf8).withUnsafeBytes { hasher.update($0) }
    hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
    #expect(SHA1.hex(hasher.finalize()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
  }
}
