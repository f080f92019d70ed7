import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Deflated zip members inflated in one go with libdeflate
/// (``ZipReader/openEntry(_:inflatingWholeUpTo:)``): the same bytes as libzip's stream, and the
/// same kind of error when a member is damaged.
@Suite("Zip members inflated whole")
struct WholeInflateTests {
  @Test("every deflated member of the Anki-made packages reads as libzip streams it, CRC-32 checked")
  func ankiMadeMembers() throws {
    var inflatedWhole = 0
    for fixture in Fixtures.ankiPackages {
      let path = Fixtures.path(fixture)
      let reader = try ZipReader(path: path, location: SourceLocation(file: fixture))
      for name in reader.entryNames where try reader.compressionMethod(of: name) == 8 {
        var whole = try reader.openEntry(name, inflatingWholeUpTo: 1 << 30)
        #expect(whole.isInflatedWhole, "\(fixture): \(name)")
        var streamed = try reader.openEntry(name)
        #expect(!streamed.isInflatedWhole)
        let bytes = try Self.readAll(&whole)
        #expect(bytes == (try Self.readAll(&streamed)), "\(fixture): \(name)")
        #expect(Int64(bytes.count) == (try reader.uncompressedSize(of: name)))
        #expect(!whole.isInflatedWhole, "the buffer is released at the end")
        inflatedWhole += 1
      }
    }
    // Anki deflates the collection member of every legacy package.
    #expect(inflatedWhole >= 8)
  }

  @Test("a member larger than the limit, or stored, is streamed by libzip")
  func streamedOtherwise() throws {
    let path = Fixtures.path("anki/legacy2_sched.apkg")
    let reader = try ZipReader(path: path, location: SourceLocation(file: path))
    let size = try reader.uncompressedSize(of: "collection.anki21")
    var large = try reader.openEntry("collection.anki21", inflatingWholeUpTo: size - 1)
    #expect(!large.isInflatedWhole)
    #expect(Int64(try Self.readAll(&large).count) == size)
    #expect(try reader.compressionMethod(of: "collection.anki2") == 0)
    #expect(!(try reader.openEntry("collection.anki2", inflatingWholeUpTo: 1 << 30)).isInflatedWhole)
  }

  /// A deflated member `text.txt` whose headers (local and central) are changed by `patch`,
  /// read whole; the error it gives.
  private static func error(
    patching patch: (inout [UInt8], _ local: Int, _ central: Int, _ dataStart: Int) -> Void
  ) throws -> DeckError {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "damaged.zip")
    let writer = try ZipWriter(path: path, location: SourceLocation(file: path))
    try writer.addData(name: "text.txt", data: text, compression: .deflate(level: 6))
    try writer.close()
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let headers = try #require(ZipHeaders(of: "text.txt", in: bytes))
    let central = try #require(headers.central)
    patch(&bytes, headers.local, central, headers.local + 30 + "text.txt".utf8.count)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let reader = try ZipReader(path: path, location: SourceLocation(file: "damaged.zip"))
    var stream = try reader.openEntry("text.txt", inflatingWholeUpTo: 1 << 20)
    #expect(stream.isInflatedWhole)
    return try #require(throws: DeckError.self) { _ = try readAll(&stream) }
  }

  static let text = Data((0..<4000).map { "line \($0): the quick brown fox\n" }.joined().utf8)

  @Test("damaged deflate data is corrupt, naming the member")
  func damagedData() throws {
    let error = try Self.error { bytes, _, _, dataStart in
      for offset in 10..<40 { bytes[dataStart + offset] ^= 0x5A }
    }
    #expect(error.kind == .corrupt)
    #expect(error.location.member == "text.txt")
    #expect(error.description.hasPrefix("damaged.zip: member 'text.txt': the member is damaged"))
  }

  @Test("a CRC-32 that does not match is a CRC error, as libzip says it")
  func wrongCRC() throws {
    let error = try Self.error { bytes, local, central, _ in
      bytes[local + 14] ^= 0x01
      bytes[central + 16] ^= 0x01
    }
    #expect(error.description == "damaged.zip: member 'text.txt': the member is damaged (CRC error)")
  }

  @Test("a declared size larger or smaller than the data's is corrupt, with both sizes")
  func wrongSize() throws {
    let size = Self.text.count
    let longer = try Self.error { bytes, local, central, _ in
      Self.put(UInt32(size + 10), in: &bytes, at: local + 22)
      Self.put(UInt32(size + 10), in: &bytes, at: central + 24)
    }
    #expect(
      longer.description
        == "damaged.zip: member 'text.txt': the member is damaged: it inflates to \(size) bytes, not the \(size + 10) its directory entry declares"
    )
    let shorter = try Self.error { bytes, local, central, _ in
      Self.put(UInt32(size - 10), in: &bytes, at: local + 22)
      Self.put(UInt32(size - 10), in: &bytes, at: central + 24)
    }
    #expect(
      shorter.description
        == "damaged.zip: member 'text.txt': the member is damaged: it inflates to more than the \(size - 10) bytes its directory entry declares"
    )
  }

  static func readAll(_ source: inout some ByteSource) throws -> Data {
    try ByteSourceReading.readAll(&source, chunk: 1 << 16)
  }

  static func put(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }
}
