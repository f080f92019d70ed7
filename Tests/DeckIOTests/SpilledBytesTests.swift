import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("SpilledBytes: large values mapped from a private temporary file", .serialized)
struct SpilledBytesTests {
  /// `count` bytes of a repeating pattern.
  static func pattern(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }) }

  /// Fills in chunks of `chunk` bytes.
  static func filling(_ bytes: Data, chunk: Int = 10_000) -> ((UnsafeRawBufferPointer) throws -> Void) throws -> Void {
    { write in
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        try bytes[offset..<end].withUnsafeBytes { try write($0) }
        offset = end
      }
    }
  }

  /// The temporary files of this process's spills that still have a name.
  static var namedSpills: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter {
      $0.hasPrefix("deckport-value-")
    }
  }

  @Test("a value under the threshold stays in memory; from it, it is mapped while it lives, the same bytes")
  func mappedFromTheThreshold() throws {
    let small = Self.pattern(SpilledBytes.threshold - 1)
    let inMemory = try SpilledBytes.bytes(size: Int64(small.count), Self.filling(small))
    #expect(inMemory == small)
    #expect(!MemoryMaps.isSpilled(inMemory))
    do {
      let large = Self.pattern(3 * SpilledBytes.threshold + 17)
      let value = try SpilledBytes.bytes(size: Int64(large.count), Self.filling(large))
      #expect(value == large)
      #expect(value.count == large.count)
      #expect(Self.namedSpills.isEmpty)
      #if os(Linux)
      #expect(MemoryMaps.isSpilled(value), "\(MemoryMaps.file(holding: value) ?? "heap")")
      #endif
    }
  }

  @Test("the bytes given are kept when they are not the number expected, fewer or more")
  func sizeIsOnlyAHint() throws {
    let large = Self.pattern(SpilledBytes.threshold * 2)
    #expect(try SpilledBytes.bytes(size: Int64(SpilledBytes.threshold), Self.filling(large)) == large)
    #expect(try SpilledBytes.bytes(size: Int64(large.count * 4), Self.filling(large)) == large)
    #expect(try SpilledBytes.bytes(size: Int64(large.count), Self.filling(Data())) == Data())
  }

  @Test("an error from the filling is thrown, and no temporary file keeps a name")
  func errorsPassThrough() throws {
    let error = try #require(throws: DeckError.self) {
      _ = try SpilledBytes.bytes(size: Int64(SpilledBytes.threshold * 4)) { write in
        try Self.pattern(SpilledBytes.threshold).withUnsafeBytes { try write($0) }
        throw DeckError(.unreadableFile, at: SourceLocation(file: "media/cat.png"), "cannot read the file")
      }
    }
    #expect(error.message == "cannot read the file")
    #expect(Self.namedSpills.isEmpty)
  }

  @Test("a file of deckport's own is mapped where it is from the threshold, read into memory below it")
  func ownFileMappedInPlace() throws {
    let scratch = try TemporaryDirectory()
    let large = Self.pattern(SpilledBytes.threshold + 5)
    try large.write(to: URL(fileURLWithPath: scratch.path(for: "large")))
    try Data("small".utf8).write(to: URL(fileURLWithPath: scratch.path(for: "small")))
    let place = SourceLocation(file: "staging")
    let mapped = try SpilledBytes.mappingOwnFile(atPath: scratch.path(for: "large"), at: place)
    #expect(mapped == large)
    #if os(Linux)
    #expect(MemoryMaps.file(holding: mapped)?.hasSuffix("/large") == true)
    #endif
    let small = try SpilledBytes.mappingOwnFile(atPath: scratch.path(for: "small"), at: place)
    #expect(small == Data("small".utf8))
    #expect(MemoryMaps.file(holding: small) == nil || MemoryMaps.file(holding: small)?.hasSuffix("/small") == false)
    let missing = try #require(throws: DeckError.self) {
      try SpilledBytes.mappingOwnFile(atPath: scratch.path(for: "missing"), at: place)
    }
    #expect(missing.kind == .unreadableFile)
    #expect(missing.message.hasPrefix("cannot open \(scratch.path(for: "missing")) ("))
  }

  @Test("a copy of a mapped value can be changed without changing the value")
  func copyOnWrite() throws {
    let large = Self.pattern(SpilledBytes.threshold + 1)
    let value = try SpilledBytes.bytes(size: Int64(large.count), Self.filling(large))
    var copy = value
    copy[0] ^= 0xFF
    copy.append(1)
    #expect(value == large)
    #expect(copy != large)
  }
}
