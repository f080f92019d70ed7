import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

@Suite("Writing Anki packages: media copied as stored, progress reported")
struct WriterFastPathTests {
  /// A zstd frame in a form deckport's compressor never writes (single segment, the content
  /// size declared, one raw block), so finding it in an output proves it was copied.
  static func handMadeFrame(_ content: Data) -> Data {
    precondition(content.count <= 255)
    var frame = Data([0x28, 0xB5, 0x2F, 0xFD, 0x20, UInt8(content.count)])
    let header = UInt32(1) | UInt32(content.count) << 3  // last block, raw
    frame.append(contentsOf: [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF)])
    frame.append(content)
    return frame
  }

  static let content = Data(String(repeating: "media bytes ", count: 20).utf8)

  /// A Latest package whose media member 0 is `frame`.
  static func latestPackage(frame: Data, in scratch: TemporaryDirectory) throws -> String {
    let collection = WriterBehaviourTests.collection(
      [["<img src=\"a.png\">", ""]], media: [MediaFile(name: "a.png", blob: MediaBlob(data: content))])
    let (path, _) = try WriterBehaviourTests.write(collection, .latest, in: scratch)
    let doctored = scratch.path(for: "doctored.apkg")
    try PackageSurgery.copy(path, to: doctored, applying: .init(replace: ["0": frame]))
    return doctored
  }

  @Test("latest to latest: the zstd frame is copied as it is, the manifest says what it holds")
  func latestFrameCopied() throws {
    let scratch = try TemporaryDirectory()
    let frame = Self.handMadeFrame(Self.content)
    #expect(try Zstd.decompress(frame, limit: 1 << 20, location: SourceLocation(file: "x")) == Self.content)
    let source = try Self.latestPackage(frame: frame, in: scratch)
    let collection = try AnkiPackageReader().read(path: source).collection
    let (output, _) = try WriterBehaviourTests.write(collection, .latest, in: scratch)
    #expect(try PackageSurgery.member("0", of: output) == frame)
    let manifest = try Zstd.decompress(
      try PackageSurgery.member("media", of: output), limit: 1 << 20, location: SourceLocation(file: output))
    let entries = try MediaManifest.protobufEntries(manifest, location: SourceLocation(file: output))
    #expect(entries.map(\.size) == [Int64(Self.content.count)])
    #expect(entries.map(\.sha1) == [SHA1.digest(Self.content)])
    // Into a legacy package the frame is decoded.
    let (legacy, _) = try WriterBehaviourTests.write(collection, .legacy2, in: scratch)
    #expect(try PackageSurgery.member("0", of: legacy) == Self.content)
  }

  @Test("into a Latest package, pictures go in stored zstd frames and style sheets and sounds compressed")
  func storedFramesForCompressedTypes() throws {
    // A package the real Anki backend made: PNG pictures, a WAV sound and a style sheet.
    let source = Fixtures.path("anki/legacy1.apkg")
    let collection = try AnkiPackageReader().read(path: source).collection
    let scratch = try TemporaryDirectory()
    let (output, _) = try WriterBehaviourTests.write(collection, .latest, .colpkg, in: scratch)
    let location = SourceLocation(file: output)
    let manifest = try Zstd.decompress(
      try PackageSurgery.member("media", of: output), limit: 1 << 20, location: location)
    let entries = try MediaManifest.protobufEntries(manifest, location: location)
    let storedHeader = Data([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38])
    var stored: [String] = []
    for (index, entry) in entries.enumerated() {
      let frame = try PackageSurgery.member(String(index), of: output)
      let original = try #require(collection.media.first { $0.name == entry.name }).blob.data()
      #expect(try Zstd.decompress(frame, limit: 1 << 20, location: location) == original, "\(entry.name)")
      if frame.prefix(6) == storedHeader { stored.append(entry.name) }
    }
    #expect(stored.sorted() == ["my photo.png", "pixel.png", "café.png", "日本.png"].sorted())
    #expect(entries.count == 6)
  }

  @Test("a damaged frame is still found when it would be copied")
  func damagedFrame() throws {
    let scratch = try TemporaryDirectory()
    var frame = Self.handMadeFrame(Self.content)
    frame.removeLast(10)
    let source = try Self.latestPackage(frame: frame, in: scratch)
    let collection = try AnkiPackageReader().read(path: source).collection
    let error = try #require(throws: DeckError.self) {
      try WriterBehaviourTests.write(collection, .latest, in: scratch)
    }
    #expect(error.kind == .corrupt)
    #expect(error.location.member == "0")
  }

  @Test("legacy to legacy: raw media copied, and the package reads back the same")
  func legacyCopied() throws {
    let scratch = try TemporaryDirectory()
    let collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    let (output, _) = try WriterBehaviourTests.write(collection, .legacy2, in: scratch)
    let back = try AnkiPackageReader().read(path: output).collection
    #expect(back.notes == collection.notes)
    #expect(back.media == collection.media.filter { file in back.media.contains { $0.name == file.name } })
  }

  @Test("reader and writer report their phases", arguments: [AnkiPackageGeneration.legacy2, .latest])
  func phases(generation: AnkiPackageGeneration) throws {
    let recorder = PhaseRecorder()
    let reporter = ProgressReporter(minimumInterval: 0) { recorder.record($0) }
    let collection = try AnkiPackageReader(progress: reporter)
      .read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.apkg")
    _ = try AnkiPackageWriter(options: .init(generation: generation, kind: .apkg), progress: reporter)
      .write(collection, to: path, reportingAs: path)
    reporter.close()
    #expect(
      recorder.phases.isSuperset(of: [
        .unpackingCollection, .readingNotes, .readingCards, .readingReviews, .writingNotes, .writingCards,
        .writingReviews, .compressingCollection, .copyingMedia, .writingPackage,
      ]))
  }
}
