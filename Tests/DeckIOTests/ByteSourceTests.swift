import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("Byte sources and file copies")
struct ByteSourceTests {
  /// Reads everything from `source` in chunks of `chunk` bytes.
  static func readAll(_ source: inout some ByteSource, chunk: Int = 7) throws -> Data {
    try ByteSourceReading.readAll(&source, chunk: chunk)
  }

  @Test("DataByteSource serves its bytes then 0")
  func dataSource() throws {
    let data = Shell.randomBytes(100)
    var source = DataByteSource(data)
    #expect(try Self.readAll(&source) == data)
    #expect(source.position == 100)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
    defer { buffer.deallocate() }
    #expect(try source.read(into: buffer) == 0)
  }

  @Test("DataByteSource over a slice")
  func dataSlice() throws {
    let data = Data([1, 2, 3, 4, 5, 6])[2..<5]
    var source = DataByteSource(data)
    #expect(try Self.readAll(&source, chunk: 2) == Data([3, 4, 5]))
  }

  @Test("FileByteSource reads a file")
  func fileSource() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "bytes")
    let data = Shell.randomBytes(200_000)
    try data.write(to: URL(fileURLWithPath: path))
    var source = try FileByteSource(path: path, location: SourceLocation(file: path))
    #expect(try Self.readAll(&source, chunk: 65_536) == data)
  }

  @Test("FileByteSource on a missing file or a directory is unreadableFile")
  func fileSourceErrors() throws {
    let missing = "/nonexistent/file.bin"
    let error = try #require(throws: DeckError.self) {
      _ = try FileByteSource(path: missing, location: SourceLocation(file: missing))
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.description == "/nonexistent/file.bin: cannot open the file (No such file or directory)")

    let scratch = try TemporaryDirectory()
    let directoryError = try #require(throws: DeckError.self) {
      _ = try FileByteSource(path: scratch.path, location: SourceLocation(file: "dir"))
    }
    #expect(directoryError.kind == .unreadableFile)
  }

  @Test("FileCopy copies and enforces its limit")
  func fileCopy() throws {
    let scratch = try TemporaryDirectory()
    let data = Shell.randomBytes(150_000)
    var source = DataByteSource(data)
    let path = scratch.path(for: "copy")
    let copied = try FileCopy.copy(from: &source, toFile: path, limit: 150_000, location: SourceLocation(file: "in"))
    #expect(copied == 150_000)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)

    var again = DataByteSource(data)
    let tooSmall = scratch.path(for: "too-small")
    let error = try #require(throws: DeckError.self) {
      try FileCopy.copy(from: &again, toFile: tooSmall, limit: 149_999, location: SourceLocation(file: "in"))
    }
    #expect(error.kind == .limitExceeded)
    #expect(error.description == "in: the data is larger than the limit of 149999 bytes")
    #expect(!FileManager.default.fileExists(atPath: tooSmall), "the partial file is removed")
  }

  @Test("FileCopy into an impossible path is writeFailed naming it")
  func fileCopyWriteFailure() throws {
    var source = DataByteSource(Data([1]))
    let error = try #require(throws: DeckError.self) {
      try FileCopy.copy(from: &source, toFile: "/nonexistent/out", limit: 10, location: SourceLocation(file: "in"))
    }
    #expect(error.kind == .writeFailed)
    #expect(error.location.file == "/nonexistent/out")
  }
}
