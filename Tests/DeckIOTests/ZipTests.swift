import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("ZipReader and ZipWriter")
struct ZipTests {
  /// The members every test archive holds, in order.
  static let members: [(name: String, data: Data, compression: ZipCompression)] = [
    ("meta", Data([0x08, 0x03]), .stored),
    ("collection.anki21b", Shell.randomBytes(100_000), .stored),
    ("text.txt", Data(String(repeating: "hello zip ", count: 5000).utf8), .deflate(level: 6)),
    ("empty", Data(), .stored),
    ("dir/café.txt", Data("unicode name".utf8), .deflate(level: 1)),
  ]

  /// Writes the test archive into `scratch` and returns its path.
  static func makeArchive(in scratch: TemporaryDirectory, name: String = "test.zip") throws -> String {
    let path = scratch.path(for: name)
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    for member in members {
      try writer.addData(name: member.name, data: member.data, compression: member.compression)
    }
    try writer.close()
    return path
  }

  @Test("written members read back in order, byte for byte")
  func roundTrip() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(reader.entryNames == Self.members.map(\.name))
    for member in Self.members {
      #expect(reader.contains(member.name))
      #expect(try reader.uncompressedSize(of: member.name) == Int64(member.data.count))
      #expect(try reader.readAll(member.name, limit: 1 << 20) == member.data)
      var stream = try reader.openEntry(member.name)
      #expect(try ByteSourceTests.readAll(&stream, chunk: 4096) == member.data)
    }
    #expect(!reader.contains("Meta"), "names are exact")
    #expect(!reader.contains("dir"))
  }

  @Test("deflate really compresses; stored does not")
  func compressionMethods() throws {
    let scratch = try TemporaryDirectory()
    let text = Data(String(repeating: "abcdefgh", count: 100_000).utf8)
    let storedPath = scratch.path(for: "stored.zip")
    let deflatedPath = scratch.path(for: "deflated.zip")
    for (path, compression) in [(storedPath, ZipCompression.stored), (deflatedPath, .deflate(level: 6))] {
      let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
      try writer.addData(name: "t", data: text, compression: compression)
      try writer.close()
    }
    let storedSize = try FileManager.default.attributesOfItem(atPath: storedPath)[.size] as? Int ?? 0
    let deflatedSize = try FileManager.default.attributesOfItem(atPath: deflatedPath)[.size] as? Int ?? 0
    #expect(storedSize > text.count)
    #expect(deflatedSize < text.count / 20)
    let reader = try ZipReader(path: deflatedPath, location: SourceLocation(file: deflatedPath))
    #expect(try reader.readAll("t", limit: Int64(text.count)) == text)
  }

  @Test("addFile adds a file's bytes")
  func addFile() throws {
    let scratch = try TemporaryDirectory()
    let source = scratch.path(for: "source.bin")
    let data = Shell.randomBytes(300_000)
    try data.write(to: URL(fileURLWithPath: source))
    let path = scratch.path(for: "files.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addFile(name: "0", fromPath: source, compression: .stored)
    try writer.addFile(name: "1", fromPath: source, compression: .deflate(level: 9))
    try writer.close()
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(try reader.readAll("0", limit: 1 << 20) == data)
    #expect(try reader.readAll("1", limit: 1 << 20) == data)

    let missingError = try #require(throws: DeckError.self) {
      let other = try ZipWriter(path: scratch.path(for: "x.zip"), location: SourceLocation(file: "x.zip"))
      try other.addFile(name: "m", fromPath: scratch.path(for: "nope"), compression: .stored)
    }
    #expect(missingError.kind == .unreadableFile)
  }

  @Test("a duplicate member name is refused")
  func duplicateName() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "dup.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: "dup.zip"))
    try writer.addData(name: "a", data: Data([1]), compression: .stored)
    let error = try #require(throws: DeckError.self) {
      try writer.addData(name: "a", data: Data([2]), compression: .stored)
    }
    #expect(error.kind == .writeFailed)
    #expect(error.description == "dup.zip: member 'a': cannot add the member (File already exists)")
    try writer.close()
  }

  @Test("an archive without members is a valid empty zip")
  func emptyArchive() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "empty.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.close()
    try writer.close()
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    #expect(reader.entryNames.isEmpty)
  }

  @Test("archives pass unzip -t", .enabled(if: Shell.has("unzip")))
  func unzipAccepts() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let result = try Shell.run("unzip -t '\(path)'")
    #expect(result.status == 0)
    #expect(String(decoding: result.output, as: UTF8.self).contains("No errors detected"))
  }

  @Test("archives pass Python's zipfile with the right methods", .enabled(if: Shell.has("python3")))
  func pythonAccepts() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let script = """
      import zipfile, sys
      z = zipfile.ZipFile(sys.argv[1])
      assert z.testzip() is None
      print(";".join(f"{i.filename}:{i.compress_type}:{i.file_size}" for i in z.infolist()))
      """
    let result = try Shell.run("python3 -c '\(script)' '\(path)'")
    #expect(result.status == 0)
    let expected = Self.members.map { member -> String in
      let method = if case .stored = member.compression { 0 } else { 8 }
      return "\(member.name):\(method):\(member.data.count)"
    }.joined(separator: ";")
    #expect(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == expected)
  }

  @Test("a missing member is missingPart naming it")
  func missingMember() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let reader = try ZipReader(path: path, location: SourceLocation(file: "deck.apkg"))
    let error = try #require(throws: DeckError.self) { try reader.readAll("media", limit: 100) }
    #expect(error.kind == .missingPart)
    #expect(error.location.member == "media")
    #expect(error.description == "deck.apkg: member 'media': member 'media' is missing")
    #expect(throws: DeckError.self) { try reader.openEntry("media") }
    #expect(throws: DeckError.self) { try reader.uncompressedSize(of: "media") }
  }

  @Test("a member larger than the limit is limitExceeded")
  func limit() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let reader = try ZipReader(path: path, location: SourceLocation(file: "deck.apkg"))
    #expect(try reader.readAll("collection.anki21b", limit: 100_000).count == 100_000)
    let error = try #require(throws: DeckError.self) {
      try reader.readAll("collection.anki21b", limit: 99_999)
    }
    #expect(error.kind == .limitExceeded)
    #expect(error.location.member == "collection.anki21b")
  }

  @Test("a missing file is unreadableFile")
  func missingFile() throws {
    let error = try #require(throws: DeckError.self) {
      _ = try ZipReader(path: "/nonexistent/deck.apkg", location: SourceLocation(file: "/nonexistent/deck.apkg"))
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.description.hasPrefix("/nonexistent/deck.apkg: "))
  }

  @Test("text and an empty file are wrongFormat; a zip cut short is corrupt, with the offset where it ends")
  func notAZip() throws {
    let scratch = try TemporaryDirectory()
    let good = try Data(contentsOf: URL(fileURLWithPath: try Self.makeArchive(in: scratch)))
    let cut =
      "the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    let cases: [(String, Data, DeckError.Kind, String)] = [
      ("text.apkg", Data("just some text\n".utf8), .wrongFormat, "not a zip archive (Not a zip archive)"),
      ("half.apkg", good.prefix(good.count / 2), .corrupt, "byte \(good.count / 2): \(cut)"),
      ("cut.apkg", good.prefix(good.count - 10), .corrupt, "byte \(good.count - 10): \(cut)"),
      ("empty.apkg", Data(), .wrongFormat, "not a zip archive (the file is empty)"),
    ]
    for (name, data, kind, message) in cases {
      let path = scratch.path(for: name)
      try data.write(to: URL(fileURLWithPath: path))
      let error = try #require(throws: DeckError.self) {
        _ = try ZipReader(path: path, location: SourceLocation(file: name))
      }
      #expect(error.kind == kind, "\(name)")
      #expect(error.description == "\(name): \(message)")
    }
  }

  @Test("a damaged deflated member is corrupt with libzip's message")
  func damagedMember() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "damaged.zip")
    let text = Data(String(repeating: "the quick brown fox ", count: 2000).utf8)
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addData(name: "a.txt", data: text, compression: .deflate(level: 6))
    try writer.addData(name: "b.bin", data: Data(repeating: 7, count: 1000), compression: .stored)
    try writer.close()

    // Flip bytes inside each member's data: after its 30-byte local header and name.
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let deflatedStart = 30 + "a.txt".utf8.count
    for offset in 10..<20 { bytes[deflatedStart + offset] ^= 0x5A }
    let storedHeader = try #require(ZipHeaders(of: "b.bin", in: bytes)).local
    bytes[storedHeader + 30 + 5 + 500] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    let reader = try ZipReader(path: path, location: SourceLocation(file: "damaged.zip"))
    let inflateError = try #require(throws: DeckError.self) { try reader.readAll("a.txt", limit: 1 << 20) }
    #expect(inflateError.kind == .corrupt)
    #expect(inflateError.location.member == "a.txt")
    let crcError = try #require(throws: DeckError.self) { try reader.readAll("b.bin", limit: 1 << 20) }
    #expect(crcError.kind == .corrupt)
    #expect(crcError.description == "damaged.zip: member 'b.bin': the member is damaged (CRC error)")

    var stream = try reader.openEntry("b.bin")
    #expect(throws: DeckError.self) { _ = try ByteSourceTests.readAll(&stream, chunk: 4096) }
  }

  @Test("several entry streams may be open and read interleaved")
  func interleavedStreams() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.makeArchive(in: scratch)
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    let first = try reader.openEntry("collection.anki21b")
    let second = try reader.openEntry("text.txt")
    var firstData = Data()
    var secondData = Data()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000, alignment: 1)
    defer { buffer.deallocate() }
    var done = (false, false)
    while !(done.0 && done.1) {
      let a = try first.read(into: buffer)
      firstData.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<a]))
      let b = try second.read(into: buffer)
      secondData.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<b]))
      done = (a == 0, b == 0)
    }
    #expect(firstData == Self.members[1].data)
    #expect(secondData == Self.members[2].data)
  }
}
