import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

@Suite("Writing Anki packages: media made ready on worker threads")
struct MediaWorkersTests {
  /// Bytes that do not compress (so a file's frame is about as large as the file).
  static func noise(_ count: Int, seed: UInt64) -> Data {
    var state = seed | 1
    var bytes = Data(count: count)
    bytes.withUnsafeMutableBytes { buffer in
      for index in buffer.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        buffer[index] = UInt8(truncatingIfNeeded: state)
      }
    }
    return bytes
  }

  /// Many small files, files larger than a block, and files larger than what one file may
  /// keep in memory (which go through a scratch file), in one collection.
  static func files() -> [(name: String, data: Data)] {
    var files: [(String, Data)] = []
    for index in 0..<150 { files.append(("small\(index).png", noise(100 + index * 37, seed: UInt64(index)))) }
    files.append(("block.png", noise(MediaWorkers.blockBytes * 3 + 17, seed: 1000)))
    files.append(("large.mp3", noise(MediaWorkers.memberBytes + 12_345, seed: 1001)))
    files.append(("empty.png", Data()))
    files.append(("larger.mp4", noise(MediaWorkers.memberBytes * 2 + 1, seed: 1002)))
    files.append(("last.png", noise(5, seed: 1003)))
    return files
  }

  static func collection(_ files: [(name: String, data: Data)]) -> DeckCollection {
    WriterBehaviourTests.collection(
      [[files.map { "<img src=\"\($0.name)\">" }.joined(), ""]],
      media: files.map { MediaFile(name: $0.name, blob: MediaBlob(data: $0.data)) })
  }

  @Test(
    "every file arrives whole, in order, whatever its size",
    arguments: [AnkiPackageGeneration.latest, .legacy2, .legacy1])
  func filesArriveWhole(generation: AnkiPackageGeneration) throws {
    let scratch = try TemporaryDirectory()
    let files = Self.files()
    let (path, _) = try WriterBehaviourTests.write(Self.collection(files), generation, in: scratch)
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(back.media.map(\.name) == files.map(\.name))
    for (file, expected) in zip(back.media, files) {
      #expect(try file.blob.data() == expected.data, "\(file.name)")
      #expect(try file.blob.verify(), "\(file.name)")
    }
    // Members are numbered in order, each the file's bytes (legacy) or one zstd frame of them.
    let member = try PackageSurgery.member(String(files.count - 2), of: path)
    if generation == .latest {
      #expect(
        try Zstd.decompress(member, limit: 1 << 30, location: SourceLocation(file: path)) == files[files.count - 2].data
      )
    } else {
      #expect(member == files[files.count - 2].data)
    }
  }

  @Test("the archive's media members are the same bytes whatever the number of workers", arguments: [1, 2, 5])
  func sameForAnyWorkerCount(workers: Int) throws {
    let scratch = try TemporaryDirectory()
    let entries = Self.files().map { file in
      MediaPackager.Entry(file: MediaFile(name: file.name, blob: MediaBlob(data: file.data)), name: file.name)
    }
    func archive(workers: Int) throws -> String {
      let path = scratch.path(for: "media-\(workers).zip")
      let zip = try ZipWriter(path: path, location: SourceLocation(file: path))
      let media = try MediaPackager.add(
        entries, generation: .latest, to: zip, scratch: scratch, location: SourceLocation(file: path),
        workers: workers)
      defer { media.stop() }
      try zip.close()
      return path
    }
    let one = try archive(workers: 1)
    let many = try archive(workers: workers)
    for name in entries.indices.map(String.init) + ["media"] {
      #expect(try PackageSurgery.member(name, of: one) == PackageSurgery.member(name, of: many))
    }
  }

  @Test("a file that cannot be read fails the package, naming the first such file in order")
  func firstFailureNamed() throws {
    let scratch = try TemporaryDirectory()
    var files = Self.files().map { MediaFile(name: $0.name, blob: MediaBlob(data: $0.data)) }
    let bad = Self.noise(MediaWorkers.memberBytes + 1, seed: 7)
    files[40] = MediaFile(
      name: files[40].name, blob: MediaBlob(source: FailingMediaSource(data: bad, failAfter: 70_000)))
    files[120] = MediaFile(name: files[120].name, blob: MediaBlob(source: FailingMediaSource(data: bad, failAfter: 10)))
    let collection = WriterBehaviourTests.collection(
      [[files.map { "<img src=\"\($0.name)\">" }.joined(), ""]], media: files)
    for generation in [AnkiPackageGeneration.latest, .legacy2] {
      let error = try #require(throws: DeckError.self) {
        try WriterBehaviourTests.write(collection, generation, in: scratch)
      }
      #expect(error.kind == .unreadableFile)
      #expect(error.location.member == "40")
      #expect(error.message.contains("cannot read the media file"))
    }
  }

  /// Blobs over `files` whose declarations are checked when read (as a JSON deck's are in a
  /// conversion): file `failing`, if any, declares a SHA-1 its bytes do not have.
  static func checkedBlobs(_ files: [(name: String, data: Data)], failing: Int?, calls: CallCounter) -> [MediaFile] {
    files.enumerated().map { index, file in
      let declared = index == failing ? String(repeating: "0", count: 40) : SHA1.hex(SHA1.digest(file.data))
      let location = SourceLocation(file: "deck.json", jsonPath: "media[\(index)].data")
      let blob = MediaBlob(source: CountingMediaSource(data: file.data)) { sha1, _ in
        calls.add()
        if SHA1.hex(sha1) != declared { throw DeckError(.corrupt, at: location, "the SHA-1 differs") }
      }
      return MediaFile(name: file.name, blob: blob)
    }
  }

  /// One note referring to every file of `media`.
  static func collection(referringTo media: [MediaFile]) -> DeckCollection {
    WriterBehaviourTests.collection([[media.map { "<img src=\"\($0.name)\">" }.joined(), ""]], media: media)
  }

  @Test(
    "a declaration still to check is checked by the worker that reads the file, once, whether or not the package needs its SHA-1",
    arguments: [AnkiPackageGeneration.latest, .legacy2])
  func workersCheckDeclarations(generation: AnkiPackageGeneration) throws {
    let scratch = try TemporaryDirectory()
    let files = Self.files()
    let calls = CallCounter()
    let media = Self.checkedBlobs(files, failing: nil, calls: calls)
    let collection = Self.collection(referringTo: media)
    let (path, _) = try WriterBehaviourTests.write(collection, generation, in: scratch)
    #expect(calls.count == files.count)
    #expect(media.allSatisfy { !$0.blob.hasPendingCheck && $0.blob.computedFingerprint != nil })
    // Each file's bytes were read once: by the worker that encoded and checked them.
    #expect(media.map { ($0.blob.source as? CountingMediaSource)?.opened.count } == media.map { _ in 1 })
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(try back.media.map { try $0.blob.data() } == files.map(\.data))
  }

  @Test(
    "a file that fails its declaration's check fails the package with the check's error",
    arguments: [AnkiPackageGeneration.latest, .legacy2])
  func failedCheckFailsPackage(generation: AnkiPackageGeneration) throws {
    let scratch = try TemporaryDirectory()
    let files = Self.files()
    let media = Self.checkedBlobs(files, failing: 151, calls: CallCounter())
    let collection = Self.collection(referringTo: media)
    let error = try #require(throws: DeckError.self) {
      try WriterBehaviourTests.write(collection, generation, in: scratch)
    }
    #expect(error.description == "deck.json: at media[151].data: the SHA-1 differs")
  }
}
