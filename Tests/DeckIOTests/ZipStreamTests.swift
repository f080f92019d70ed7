import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("ZipWriter: members read from a source while the archive is written")
struct ZipStreamTests {
  /// A source giving `data` in pieces of at most `piece` bytes, recording what the writer did.
  final class Source: ZipMemberSource {
    let data: Data
    let piece: Int
    let failAfter: Int?
    var events: [String] = []
    private var offset = 0

    init(_ data: Data, piece: Int = 1000, failAfter: Int? = nil) {
      self.data = data
      self.piece = piece
      self.failAfter = failAfter
    }

    func open() throws -> ZipMemberSourceForm {
      events.append("open")
      return .bytes(size: UInt64(data.count))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      if let failAfter, offset >= failAfter {
        throw DeckError(.unreadableFile, at: SourceLocation(file: "source"), "the source broke")
      }
      let count = min(buffer.count, piece, data.count - offset)
      data.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
      offset += count
      return count
    }

    func close() { events.append("close") }
  }

  @Test("streamed members read back byte for byte, stored or deflated; the source is opened once and closed")
  func streamed() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "s.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    let random = Shell.randomBytes(300_000)
    let text = Data(String(repeating: "streamed text ", count: 20_000).utf8)
    let stored = Source(random, piece: 7_000)
    let deflated = Source(text)
    let empty = Source(Data())
    try writer.addStream(name: "stored", compression: .stored, from: stored)
    try writer.addStream(name: "deflated", compression: .deflate(level: 1), from: deflated)
    try writer.addStream(name: "empty", compression: .stored, from: empty)
    #expect(stored.events.isEmpty, "nothing is read before the archive is closed")
    try writer.close()
    #expect(stored.events == ["open", "close"])
    #expect(deflated.events == ["open", "close"])
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(reader.entryNames == ["stored", "deflated", "empty"])
    #expect(try reader.readAll("stored", limit: 1 << 20) == random)
    #expect(try reader.readAll("deflated", limit: 1 << 20) == text)
    #expect(try reader.readAll("empty", limit: 1 << 20) == Data())
    #expect(try reader.compressionMethod(of: "stored") == 0)
    #expect(try reader.compressionMethod(of: "deflated") == 8)
    let archiveSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(archiveSize < random.count + text.count / 10)
  }

  @Test("a source's error fails the archive with that error, and nothing is left at the path")
  func sourceError() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "broken.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addData(name: "first", data: Data("ok".utf8), compression: .stored)
    let broken = Source(Shell.randomBytes(50_000), failAfter: 20_000)
    try writer.addStream(name: "broken", compression: .stored, from: broken)
    let error = try #require(throws: DeckError.self) { try writer.close() }
    #expect(error.kind == .unreadableFile)
    #expect(error.message == "the source broke")
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(broken.events == ["open", "close"])
  }

  @Test("through the write buffer: members larger than it and many smaller ones read back; unzip agrees")
  func bufferedWrites() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "b.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    // Several times the writer's buffer (256 KiB).
    let large = Shell.randomBytes(3_000_123)
    let small = (0..<300).map { Shell.randomBytes($0 * 13) }
    try writer.addStream(name: "large", compression: .stored, from: Source(large, piece: 100_000))
    for (index, data) in small.enumerated() {
      try writer.addData(name: "small\(index)", data: data, compression: index % 2 == 0 ? .stored : .deflate(level: 1))
    }
    try writer.addData(name: "large2", data: large, compression: .deflate(level: 1))
    try writer.close()
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(try reader.readAll("large", limit: 1 << 24) == large)
    #expect(try reader.readAll("large2", limit: 1 << 24) == large)
    for (index, data) in small.enumerated() {
      #expect(try reader.readAll("small\(index)", limit: 1 << 20) == data)
    }
    if Shell.has("unzip") {
      let result = try Shell.run("unzip -t '\(path)'")
      #expect(String(decoding: result.output, as: UTF8.self).contains("No errors detected"))
    }
  }

  @Test("the archive replaces a file at its path only once complete, with the mode the umask gives")
  func replacesOnlyWhenComplete() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "kept.zip")
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let failing = try ZipWriter(path: path, location: SourceLocation(file: path))
    try failing.addStream(name: "broken", compression: .stored, from: Source(Shell.randomBytes(10_000), failAfter: 10))
    #expect(throws: DeckError.self) { try failing.close() }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["kept.zip"])

    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addData(name: "a", data: Data("new".utf8), compression: .stored)
    try writer.close()
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(try reader.readAll("a", limit: 10) == Data("new".utf8))
    let mask = umask(0o022)
    umask(mask)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o666 & ~Int(mask))
  }

  @Test("a member read as stored elsewhere is copied as it is: method, CRC and bytes")
  func storedCopy() throws {
    let scratch = try TemporaryDirectory()
    let source = try ZipTests.makeArchive(in: scratch, name: "source.zip")
    let reader = try ZipReader(path: source, location: SourceLocation(file: source))
    let (stream, form) = try reader.openStored("text.txt")
    #expect(form.method == 8)
    #expect(form.size == UInt64(try reader.uncompressedSize(of: "text.txt")))
    #expect(form.compressedSize < form.size)
    var raw = stream
    let bytes = try ByteSourceTests.readAll(&raw, chunk: 1000)
    #expect(bytes.count == Int(form.compressedSize))
  }
}
