import DeckCore
import Foundation
import Testing

@testable import DeckIO

@Suite("ParallelDeflate: one deflate stream from chunks compressed on several threads")
struct ParallelDeflateTests {
  /// Text that compresses, with random stretches, so matches cross the chunk boundaries.
  static func content(_ count: Int) -> Data {
    var data = Data()
    var line = 0
    while data.count < count {
      data.append(contentsOf: "line \(line % 977): the quick brown fox jumps over the lazy dog\n".utf8)
      if line % 50 == 0 { data.append(Shell.randomBytes(300)) }
      line += 1
    }
    return data.prefix(count)
  }

  /// A file source over the deflated stream, as a zip member's compressed bytes.
  final class Deflated: ZipMemberSource {
    let stream: FileByteSource
    let crc: UInt32
    let size: UInt64
    init(path: String, crc: UInt32, size: UInt64) throws {
      stream = try FileByteSource(path: path, location: SourceLocation(file: path))
      self.crc = crc
      self.size = size
    }
    func open() throws -> ZipMemberSourceForm { .compressed(method: 8, crc: crc, size: size) }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try stream.read(into: buffer) }
    func close() {}
  }

  @Test(
    "the stream inflates to the file, whatever its size and the number of threads",
    arguments: [
      0, 1, 70_000, ParallelDeflate.chunkSize - 1, ParallelDeflate.chunkSize, ParallelDeflate.chunkSize + 1, 3_500_000,
    ])
  func roundTrip(size: Int) throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "source")
    let content = Self.content(size)
    try content.write(to: URL(fileURLWithPath: source))
    var streams: [Data] = []
    for threads in [1, 2, 3] {
      let deflated = scratch.path(for: "deflated-\(threads)")
      let (crc, written) = try ParallelDeflate.compress(
        file: source, to: deflated, level: 1, threads: threads, location: SourceLocation(file: source))
      #expect(written == UInt64(size))
      streams.append(try Data(contentsOf: URL(fileURLWithPath: deflated)))
      // Copied into a zip as a deflated member, libzip inflates it and checks the CRC.
      let archive = scratch.path(for: "a-\(threads).zip")
      let writer = try ZipWriter(path: archive, location: SourceLocation(file: archive))
      try writer.addStream(
        name: "m", compression: .deflate(level: 1), from: Deflated(path: deflated, crc: crc, size: written))
      try writer.close()
      let reader = try ZipReader(path: archive, location: SourceLocation(file: archive))
      #expect(try reader.compressionMethod(of: "m") == 8)
      #expect(try reader.readAll("m", limit: 1 << 24) == content)
    }
    #expect(streams.allSatisfy { $0 == streams[0] }, "the same stream on any number of threads")
    if size > 100_000 { #expect(streams[0].count < size / 2, "it compresses") }
  }

  /// Compresses `source` at level 1 on two threads (with `ahead`, when given) and returns the
  /// stream, after checking that libzip inflates it to `content` with the CRC returned.
  static func stream(
    of source: String, content: Data, ahead: DeflateAhead? = nil, in scratch: TemporaryDirectory, name: String
  ) throws -> Data {
    let deflated = scratch.path(for: name)
    let (crc, written) = try ParallelDeflate.compress(
      file: source, to: deflated, level: 1, threads: 2, ahead: ahead, location: SourceLocation(file: source))
    #expect(written == UInt64(content.count))
    let archive = scratch.path(for: name + ".zip")
    let writer = try ZipWriter(path: archive, location: SourceLocation(file: archive))
    try writer.addStream(
      name: "m", compression: .deflate(level: 1), from: Deflated(path: deflated, crc: crc, size: written))
    try writer.close()
    let reader = try ZipReader(path: archive, location: SourceLocation(file: archive))
    #expect(try reader.readAll("m", limit: 1 << 26) == content)
    return try Data(contentsOf: URL(fileURLWithPath: deflated))
  }

  @Test(
    "chunks compressed ahead, while the end of the file is still written, give the same stream",
    arguments: [
      // (file size, bytes final when the work ahead starts)
      (3 * ParallelDeflate.chunkSize + 10, 2 * ParallelDeflate.chunkSize + 1),
      (6 * ParallelDeflate.chunkSize + 500_000, 5 * ParallelDeflate.chunkSize + 200_000),
      (5 * ParallelDeflate.chunkSize, 5 * ParallelDeflate.chunkSize),
    ])
  func ahead(size: Int, final: Int) throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "source")
    let content = Self.content(size)
    // The final part first, as a database has it once its rows are in; the rest comes later.
    try content.prefix(final).write(to: URL(fileURLWithPath: source))
    let ahead = DeflateAhead(
      file: source, scratch: scratch.path(for: "ahead"), level: 1, location: SourceLocation(file: source))
    ahead.start(finalBytes: UInt64(final))
    #expect(ahead.chunks == DeflateAhead.chunks(finalBytes: UInt64(final)))
    #expect(ahead.chunks != nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
    try handle.seekToEnd()
    try handle.write(contentsOf: content.dropFirst(final))
    try handle.close()

    let withAhead = try Self.stream(of: source, content: content, ahead: ahead, in: scratch, name: "ahead.deflate")
    #expect(ahead.outcome == .used)
    let whole = try Self.stream(of: source, content: content, in: scratch, name: "whole.deflate")
    #expect(withAhead == whole, "the same bytes as the file compressed in one go")
  }

  @Test("which chunks can be compressed ahead: after the first, wholly final, not the last")
  func chunksAhead() {
    let size = UInt64(ParallelDeflate.chunkSize)
    #expect(DeflateAhead.chunks(finalBytes: 0) == nil)
    #expect(DeflateAhead.chunks(finalBytes: 2 * size) == nil)
    #expect(DeflateAhead.chunks(finalBytes: 2 * size + 1) == 1...1)
    #expect(DeflateAhead.chunks(finalBytes: 3 * size) == 1...1)
    #expect(DeflateAhead.chunks(finalBytes: 3 * size + 1) == 1...2)
  }

  @Test("bytes that changed after they were compressed ahead: the file is compressed again, as it is now")
  func aheadChanged() throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "source")
    var content = Self.content(4 * ParallelDeflate.chunkSize + 1000)
    try content.write(to: URL(fileURLWithPath: source))
    let ahead = DeflateAhead(
      file: source, scratch: scratch.path(for: "ahead"), level: 1, location: SourceLocation(file: source))
    ahead.start(finalBytes: UInt64(content.count))
    // Waits for the chunks to be compressed, then changes a byte in the second of them.
    #expect(try ahead.finish()?.chunks == 1...3)
    content[2 * ParallelDeflate.chunkSize + 77] ^= 0xFF
    try content.write(to: URL(fileURLWithPath: source))

    let withAhead = try Self.stream(of: source, content: content, ahead: ahead, in: scratch, name: "ahead.deflate")
    #expect(ahead.outcome == .redone)
    let whole = try Self.stream(of: source, content: content, in: scratch, name: "whole.deflate")
    #expect(withAhead == whole)
  }

  @Test("a file too small for work ahead is compressed in one go")
  func aheadTooSmall() throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "source")
    let content = Self.content(2 * ParallelDeflate.chunkSize)
    try content.write(to: URL(fileURLWithPath: source))
    let ahead = DeflateAhead(
      file: source, scratch: scratch.path(for: "ahead"), level: 1, location: SourceLocation(file: source))
    ahead.start(finalBytes: UInt64(content.count))
    let withAhead = try Self.stream(of: source, content: content, ahead: ahead, in: scratch, name: "ahead.deflate")
    #expect(ahead.outcome == .notStarted)
    #expect(withAhead == (try Self.stream(of: source, content: content, in: scratch, name: "whole.deflate")))
  }
}
