import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("ZipWriter: members copied from another archive, and progress")
struct ZipCopyTests {
  @Test("copied members keep their bytes, method and CRC; nothing is recompressed")
  func copiedMembers() throws {
    let scratch = try TemporaryDirectory()
    let source = try ZipTests.makeArchive(in: scratch, name: "source.zip")
    let reader = try ZipReader(path: source, location: SourceLocation(file: source))
    let copyPath = scratch.path(for: "copy.zip")
    let writer = try ZipWriter(path: copyPath, location: SourceLocation(file: copyPath))
    for member in ZipTests.members {
      try writer.addMember(name: "copy/" + member.name, copying: member.name, from: reader)
    }
    try writer.addData(name: "new", data: Data("new".utf8), compression: .stored)
    try writer.close()

    let copy = try ZipReader(path: copyPath, location: SourceLocation(file: copyPath))
    for member in ZipTests.members {
      #expect(try copy.readAll("copy/" + member.name, limit: 1 << 20) == member.data)
    }
    // The raw (compressed) bytes of each member are the source's, found verbatim in the copy.
    let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))
    let copyBytes = try Data(contentsOf: URL(fileURLWithPath: copyPath))
    let deflated = try #require(ZipTests.members.first { $0.name == "text.txt" })
    let size = Int(try reader.uncompressedSize(of: "text.txt"))
    #expect(size == deflated.data.count)
    #expect(copyBytes.count < sourceBytes.count + 2_000, "nothing was stored uncompressed")
    try #require(Shell.has("python3"))
    let check = try Shell.run(
      "python3 -c \"import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip(), ';'.join(i.filename + ':' + str(i.compress_type) for i in z.infolist()))\" '\(copyPath)'"
    )
    let text = String(decoding: check.output, as: UTF8.self)
    #expect(text.hasPrefix("None "))
    #expect(text.contains("copy/text.txt:8"))
    #expect(text.contains("copy/collection.anki21b:0"))
  }

  @Test("a missing source member is named")
  func missingMember() throws {
    let scratch = try TemporaryDirectory()
    let source = try ZipTests.makeArchive(in: scratch, name: "source.zip")
    let reader = try ZipReader(path: source, location: SourceLocation(file: source))
    let path = scratch.path(for: "copy.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    let error = try #require(throws: DeckError.self) { try writer.addMember(name: "x", copying: "nope", from: reader) }
    #expect(error.kind == .missingPart)
  }

  @Test("close reports progress up to the whole archive")
  func closeProgress() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "p.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addData(name: "a", data: Shell.randomBytes(2_000_000), compression: .deflate(level: 1))
    final class Box: @unchecked Sendable {
      let lock = NSLock()
      var values: [Double] = []
    }
    let box = Box()
    try writer.close { fraction in
      box.lock.lock()
      box.values.append(fraction)
      box.lock.unlock()
    }
    #expect((box.values.last ?? 0) > 0.9)
    #expect(box.values == box.values.sorted())
  }
}
