import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("Zstd")
struct ZstdTests {
  static let location = SourceLocation(file: "deck.apkg", member: "collection.anki21b")
  /// Anki's frame for an empty payload: single segment, content size 0.
  static let emptyFrame = Data([0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00])

  /// A source that hands out at most `chunk` bytes per read, to exercise refills.
  struct DribblingSource: ByteSource {
    var data: Data
    var chunk: Int
    var offset = 0
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      let count = min(chunk, buffer.count, data.count - offset)
      guard count > 0 else { return 0 }
      data.copyBytes(to: buffer, from: (data.startIndex + offset)..<(data.startIndex + offset + count))
      offset += count
      return count
    }
  }

  @Test("a frame the zstd CLI wrote from a pipe (no content size) decodes", .enabled(if: Shell.has("zstd")))
  func cliFrame() throws {
    let frame = try Shell.run("printf 'hello, anki\\n%.0s' $(seq 1 1000) | zstd -q -c").output
    // Frame_Header_Descriptor bit 7-6 (content size flag) and bit 5 (single segment) are 0.
    #expect(frame.count > 4 && frame[frame.startIndex + 4] & 0xE0 == 0)
    let decoded = try Zstd.decompress(frame, limit: 1 << 20, location: Self.location)
    #expect(decoded == Data(String(repeating: "hello, anki\n", count: 1000).utf8))
  }

  @Test("a large random payload streams through in small input chunks", .enabled(if: Shell.has("zstd")))
  func streamedLarge() throws {
    let payload = Shell.randomBytes(1_500_000) + Data(repeating: 0x41, count: 2_000_000)
    let frame = try Shell.run("zstd -q -c -3", input: payload).output
    var source = DribblingSource(data: frame, chunk: 1000)
    var output = Data()
    let total = try Zstd.decompress(from: &source, limit: Int64(payload.count), location: Self.location) {
      output.append(contentsOf: $0)
    }
    #expect(total == Int64(payload.count))
    #expect(output == payload)
  }

  @Test("the 9-byte empty frame gives no bytes")
  func emptyFrame() throws {
    #expect(try Zstd.decompress(Self.emptyFrame, limit: 0, location: Self.location).isEmpty)
  }

  @Test("concatenated frames decode one after another")
  func concatenated() throws {
    let first = try Zstd.compress(Data("first ".utf8))
    let second = try Zstd.compress(Data("second".utf8), level: 19)
    let joined = first + Self.emptyFrame + second
    #expect(try Zstd.decompress(joined, limit: 100, location: Self.location) == Data("first second".utf8))
  }

  @Test(
    "garbage is wrongFormat: not a zstd frame (Unknown frame descriptor)",
    arguments: [
      Data("SQLite format 3\0 not compressed".utf8), Data("{}".utf8), Data([0x00]),
    ])
  func garbage(input: Data) throws {
    let error = try #require(throws: DeckError.self) {
      _ = try Zstd.decompress(input, limit: 1 << 20, location: Self.location)
    }
    #expect(error.kind == .wrongFormat)
    #expect(error.description == "deck.apkg: member 'collection.anki21b': not a zstd frame (Unknown frame descriptor)")
  }

  @Test("empty input is wrongFormat")
  func emptyInput() throws {
    let error = try #require(throws: DeckError.self) {
      _ = try Zstd.decompress(Data(), limit: 10, location: Self.location)
    }
    #expect(error.kind == .wrongFormat)
  }

  @Test("a truncated frame is corrupt: zstd frame is truncated", arguments: [1, 2, 4, 6, 100, 2000])
  func truncated(keep: Int) throws {
    let frame = try Zstd.compress(Shell.randomBytes(50_000))
    let error = try #require(throws: DeckError.self) {
      _ = try Zstd.decompress(frame.prefix(keep), limit: 1 << 20, location: Self.location)
    }
    #expect(error.kind == .corrupt)
    #expect(error.message == "zstd frame is truncated")
  }

  @Test("a damaged frame is corrupt")
  func damaged() throws {
    var frame = [UInt8](try Zstd.compress(Data(String(repeating: "abc", count: 10_000).utf8)))
    for index in 8..<frame.count { frame[index] ^= 0xA5 }
    let error = try #require(throws: DeckError.self) {
      _ = try Zstd.decompress(Data(frame), limit: 1 << 20, location: Self.location)
    }
    #expect(error.kind == .corrupt)
  }

  @Test("output past the limit is limitExceeded; exactly the limit passes")
  func limit() throws {
    let payload = Data(repeating: 0x61, count: 100_000)
    let frame = try Zstd.compress(payload)
    #expect(try Zstd.decompress(frame, limit: 100_000, location: Self.location) == payload)
    let error = try #require(throws: DeckError.self) {
      _ = try Zstd.decompress(frame, limit: 99_999, location: Self.location)
    }
    #expect(error.kind == .limitExceeded)
    #expect(
      error.description
        == "deck.apkg: member 'collection.anki21b': the decompressed data is larger than the limit of 99999 bytes")
  }

  @Test("decompressing into a file writes it, and removes it after a failure")
  func toFile() throws {
    let scratch = try TemporaryDirectory()
    let payload = Shell.randomBytes(300_000)
    var source = DataByteSource(try Zstd.compress(payload))
    let path = scratch.path(for: "out.sqlite")
    #expect(try Zstd.decompress(from: &source, toFile: path, limit: 1 << 20, location: Self.location) == 300_000)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == payload)

    var bad = DataByteSource(Data("not zstd at all".utf8))
    let badPath = scratch.path(for: "bad.sqlite")
    #expect(throws: DeckError.self) {
      try Zstd.decompress(from: &bad, toFile: badPath, limit: 1 << 20, location: Self.location)
    }
    #expect(!FileManager.default.fileExists(atPath: badPath))
  }

  @Test("ZstdDecompressingReader streams like decompress, in any output chunk size", arguments: [1, 100, 65_536])
  func reader(chunk: Int) throws {
    let payload = Shell.randomBytes(20_000) + Data(repeating: 0, count: 30_000)
    let source = DribblingSource(data: try Zstd.compress(payload), chunk: 777)
    var reader = ZstdDecompressingReader(source: source, limit: 1 << 20, location: Self.location)
    #expect(try ByteSourceTests.readAll(&reader, chunk: chunk) == payload)
    #expect(reader.bytesProduced == Int64(payload.count))
  }

  @Test("ZstdDecompressingReader reports errors, and again on the next read")
  func readerErrors() throws {
    let reader = ZstdDecompressingReader(
      source: DataByteSource(Data("plain".utf8)), limit: 100, location: Self.location)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
    defer { buffer.deallocate() }
    let first = try #require(throws: DeckError.self) { _ = try reader.read(into: buffer) }
    let second = try #require(throws: DeckError.self) { _ = try reader.read(into: buffer) }
    #expect(first == second)
    #expect(first.kind == .wrongFormat)
  }

  @Test("compress writes no content size, and an empty payload gives Anki's empty frame")
  func compressFormat() throws {
    #expect(try Zstd.compress(Data()) == Self.emptyFrame)
    let frame = try Zstd.compress(Data(repeating: 1, count: 5000))
    #expect(frame.prefix(4) == Data([0x28, 0xB5, 0x2F, 0xFD]))
    #expect(frame[frame.startIndex + 4] & 0xE0 == 0, "no content size, not single-segment")
  }

  @Test("the zstd CLI decodes our streaming output", .enabled(if: Shell.has("zstd")))
  func cliAcceptsOurs() throws {
    let payload = Shell.randomBytes(200_000) + Data(String(repeating: "x", count: 100_000).utf8)
    let compressor = ZstdCompressor(level: 3)
    var frame = Data()
    var offset = 0
    while offset < payload.count {
      let end = min(offset + 12_345, payload.count)
      try payload[offset..<end].withUnsafeBytes { chunk in
        try compressor.compress(chunk) { frame.append(contentsOf: $0) }
      }
      offset = end
    }
    try compressor.finish { frame.append(contentsOf: $0) }
    #expect(frame.count < payload.count)
    let decoded = try Shell.run("zstd -q -d -c", input: frame)
    #expect(decoded.status == 0)
    #expect(decoded.output == payload)

    // The compressor starts a fresh frame after finish.
    var second = Data()
    try Data("again".utf8).withUnsafeBytes { chunk in
      try compressor.compress(chunk) { second.append(contentsOf: $0) }
    }
    try compressor.finish { second.append(contentsOf: $0) }
    #expect(try Zstd.decompress(second, limit: 10, location: Self.location) == Data("again".utf8))
  }
}

@Suite("ZstdStoredFrame: frames of stored blocks that zstd reads back")
struct ZstdStoredFrameTests {
  static func frame(_ payload: Data, chunk: Int, frames: Int = 1) throws -> Data {
    var frame = ZstdStoredFrame()
    var output = Data()
    for _ in 0..<frames {
      var offset = 0
      while offset < payload.count {
        let end = min(offset + chunk, payload.count)
        try payload[offset..<end].withUnsafeBytes { try frame.write($0) { output.append(contentsOf: $0) } }
        offset = end
      }
      try frame.finish { output.append(contentsOf: $0) }
    }
    return output
  }

  @Test(
    "libzstd decodes every size and chunking",
    arguments: [(0, 1), (1, 1), (1_000, 7), (131_072, 65_536), (131_073, 131_073), (400_000, 300_000)])
  func decodes(size: Int, chunk: Int) throws {
    let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) })
    let location = SourceLocation(file: "frame.zst")
    let frame = try Self.frame(payload, chunk: chunk)
    #expect(try Zstd.decompress(frame, limit: Int64(size), location: location) == payload)
    // Two frames from one writer: the second starts with its own header.
    let two = try Self.frame(payload, chunk: chunk, frames: 2)
    #expect(two.count == 2 * frame.count)
    #expect(try Zstd.decompress(two, limit: Int64(2 * size), location: location) == payload + payload)
  }

  @Test(
    "the zstd command reads the frame, and the frame is the payload and a few bytes", .enabled(if: Shell.has("zstd")))
  func cli() throws {
    let payload = Shell.randomBytes(300_000)
    let frame = try Self.frame(payload, chunk: 65_536)
    #expect(frame.count == payload.count + 6 + 3 * 5 + 3)  // header, five data blocks, the last one empty
    #expect(try Shell.run("zstd -q -d -c", input: frame).output == payload)
  }
}
