import DeckCore
import Foundation
import Testing

@testable import DeckIO

@Suite("ZstdAhead: one zstd frame begun before the file is complete")
struct ZstdAheadTests {
  static let held = 4096

  /// Text that compresses, with random stretches.
  static func content(_ count: Int) -> Data { ParallelDeflateTests.content(count) }

  /// Writes the first `final` bytes of `content` at `path` with a first block of zeros (the
  /// header a database rewrites last), starts `ahead`, then writes the rest and the real first
  /// block, as a collection database is written.
  static func write(_ content: Data, final: Int, to path: String, ahead: ZstdAhead) throws {
    var early = content.prefix(final)
    early.replaceSubrange(0..<held, with: Data(count: held))
    try early.write(to: URL(fileURLWithPath: path))
    ahead.start(finalBytes: UInt64(final))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: content.dropFirst(final))
    try handle.seek(toOffset: 0)
    try handle.write(contentsOf: content.prefix(held))
    try handle.close()
  }

  static func ahead(_ file: String, _ scratch: TemporaryDirectory) -> ZstdAhead {
    ZstdAhead(
      file: file, scratch: scratch.path(for: "ahead.zst"), held: held, level: 3, workers: 2, jobSize: 1 << 20,
      location: SourceLocation(file: file))
  }

  @Test(
    "the frame decodes to the whole file as it ends, first bytes included",
    arguments: [(3_500_000, 2_000_000), (1_100_000, 1_048_576), (2_500_000, 2_500_000)])
  func decodes(size: Int, final: Int) throws {
    let scratch = try TemporaryDirectory()
    let file = scratch.path(for: "file")
    let content = Self.content(size)
    let ahead = Self.ahead(file, scratch)
    try Self.write(content, final: final, to: file, ahead: ahead)
    let output = scratch.path(for: "out.zst")
    #expect(try ahead.finish(to: output))
    let frame = try Data(contentsOf: URL(fileURLWithPath: output))
    // One frame: no content size, not single-segment, no checksum; a raw block of the first bytes.
    #expect(frame.prefix(4) == Data([0x28, 0xB5, 0x2F, 0xFD]))
    #expect(frame[4] & 0xE4 == 0)
    #expect(frame[6..<9] == Data([0x00, 0x80, 0x00]), "raw block, not the last, of 4096 bytes")
    #expect(try Zstd.decompress(frame, limit: 1 << 26, location: SourceLocation(file: output)) == content)
    if Shell.has("zstd") {
      // The zstd command (libzstd's own reader, not deckport's) decodes it to the same bytes.
      let decoded = try Shell.run("zstd -q -d -c", input: frame)
      #expect(decoded.status == 0)
      #expect(decoded.output == content)
    }
  }

  @Test("a final part that changed after it was compressed: nothing written, the caller compresses again")
  func changed() throws {
    let scratch = try TemporaryDirectory()
    let file = scratch.path(for: "file")
    var content = Self.content(3_000_000)
    let ahead = Self.ahead(file, scratch)
    try Self.write(content, final: 2_000_000, to: file, ahead: ahead)
    ahead.waitForFinalPart()
    content[1_500_000] ^= 0xFF
    try content.write(to: URL(fileURLWithPath: file))
    let output = scratch.path(for: "out.zst")
    #expect(try !ahead.finish(to: output))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("nothing ahead for a final part under 1 MiB, or after a cancel")
  func notAhead() throws {
    let scratch = try TemporaryDirectory()
    let file = scratch.path(for: "file")
    let small = Self.ahead(file, scratch)
    try Self.write(Self.content(900_000), final: 800_000, to: file, ahead: small)
    #expect(try !small.finish(to: scratch.path(for: "small.zst")))

    let cancelled = Self.ahead(file, scratch)
    try Self.write(Self.content(3_000_000), final: 2_000_000, to: file, ahead: cancelled)
    cancelled.cancel()
    #expect(try !cancelled.finish(to: scratch.path(for: "cancelled.zst")))
  }

  @Test("frame headers: the size of those a block can go behind")
  func headers() {
    func size(_ bytes: [UInt8]) -> Int? { ZstdFrameHeader.size(of: bytes[...]) }
    let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
    #expect(size(magic + [0x00, 0x58]) == 6)  // deckport's and Anki's
    #expect(size(magic + [0x40, 0x58, 0x00, 0x01]) == 8)  // a 2-byte content size
    #expect(size(magic + [0x02, 0x58, 0x01, 0x02]) == 8)  // a 2-byte dictionary id
    #expect(size(magic + [0x20, 0x05, 0, 0, 0]) == nil)  // single segment
    #expect(size(magic + [0x04, 0x58]) == nil)  // content checksum
    #expect(size([0x28, 0xB5, 0x2F, 0xFE, 0x00, 0x58]) == nil)  // not zstd
  }
}
