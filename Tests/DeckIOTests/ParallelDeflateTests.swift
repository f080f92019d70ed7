import DeckCore
import DeckIO
import Foundation
import Testing

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
}
