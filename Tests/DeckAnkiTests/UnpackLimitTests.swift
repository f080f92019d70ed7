import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Decompression bombs end with a `limitExceeded` error that names the package and member,
/// before they fill the disk; genuine packages pass the default limits, and raised limits let
/// an unusual package through.
@Suite("Unpack limits: relative to the package and absolute")
struct UnpackLimitTests {
  /// Limits small enough for a bomb of a few megabytes: 4 MB whatever the package, or 100 times it.
  static let small = AnkiPackageReader.Limits(expansionAllowance: 4_000_000)

  /// Reads every media file to its end, as a writer would.
  static func readAllMedia(_ contents: AnkiPackageContents) throws {
    for file in contents.collection.media { _ = try file.blob.data() }
  }

  @Test("the budget: the ratio times the package, at least the allowance, within the absolute limit")
  func budgetArithmetic() {
    let limits = AnkiPackageReader.Limits()
    #expect(limits.budget(packageBytes: 1000) == 1 << 30)
    #expect(limits.budget(packageBytes: 100 << 20) == 100 * (100 << 20))
    #expect(limits.budget(packageBytes: 10 << 30) == 64 << 30)
    #expect(limits.budget(packageBytes: .max) == 64 << 30)
    #expect(AnkiPackageReader.Limits.absolute(1 << 20).budget(packageBytes: 1000) == 1 << 20)
  }

  @Test("sizes for people")
  func byteCounts() {
    #expect(ByteCount.text(1) == "1 byte")
    #expect(ByteCount.text(999) == "999 bytes")
    #expect(ByteCount.text(12_345) == "12 KB")
    #expect(ByteCount.text(1_500_000) == "1.5 MB")
    #expect(ByteCount.text(1 << 30) == "1.1 GB")
    #expect(ByteCount.text(64 << 30) == "69 GB")
  }

  @Test(
    "every fixture passes the default limits",
    arguments: [
      "anki/latest_sched.apkg", "anki/legacy2_sched.apkg", "anki/latest.colpkg", "anki/legacy1.apkg",
      "real/french-phrases-latest.apkg",
    ])
  func fixturesPass(_ fixture: String) throws {
    let contents = try AnkiPackageReader().read(path: Fixtures.path(fixture))
    try Self.readAllMedia(contents)
  }

  @Test("a ratio of 1 refuses a real package whose collection inflates; the default ratio reads it")
  func ratioAppliesToRealPackages() throws {
    let path = Fixtures.path("anki/latest_sched.apkg")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).int64Value
    let tight = AnkiPackageReader.Limits(expansionRatio: 1, expansionAllowance: 0)
    let error = try #require(throws: DeckError.self) { try AnkiPackageReader(limits: tight).read(path: path) }
    #expect(error.kind == .limitExceeded)
    #expect(
      error.description
        == "\(path): member 'collection.anki21b': unpacks to more than this package may unpack to (\(ByteCount.text(size)): 1 times the package's \(ByteCount.text(size)), at least 0 bytes); a decompression bomb or a damaged package"
    )
    _ = try AnkiPackageReader(limits: AnkiPackageReader.Limits(expansionAllowance: 0)).read(path: path)
  }

  @Test("a Latest collection that is a zstd bomb stops at the budget")
  func latestCollectionBomb() throws {
    let scratch = try TemporaryDirectory()
    let bomb = scratch.path(for: "bomb.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest_sched.apkg"), to: bomb,
      applying: .init(replace: ["collection.anki21b": try PackageSurgery.zstdZeros(64 << 20)]))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? NSNumber).int64Value
    #expect(size < 100_000)
    let error = try #require(throws: DeckError.self) { try AnkiPackageReader(limits: Self.small).read(path: bomb) }
    #expect(error.kind == .limitExceeded)
    #expect(
      error.description
        == "\(bomb): member 'collection.anki21b': unpacks to more than this package may unpack to (\(ByteCount.text(100 * size)): 100 times the package's \(ByteCount.text(size)), at least 4 MB); a decompression bomb or a damaged package"
    )
  }

  @Test("a Latest media member that is a zstd bomb (its media map lying about its size) stops at the budget")
  func latestMediaBomb() throws {
    let scratch = try TemporaryDirectory()
    let bomb = scratch.path(for: "bomb.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest_sched.apkg"), to: bomb,
      applying: .init(replace: ["0": try PackageSurgery.zstdZeros(64 << 20)]))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? NSNumber).int64Value
    let contents = try AnkiPackageReader(limits: Self.small).read(path: bomb)
    let error = try #require(throws: DeckError.self) { try Self.readAllMedia(contents) }
    #expect(error.kind == .limitExceeded)
    #expect(error.location.member == "0")
    #expect(error.message.hasPrefix("unpacks to more than this package may unpack to ("))
    #expect(
      error.message.hasSuffix(
        "times the package's \(ByteCount.text(size)), at least 4 MB); a decompression bomb or a damaged package"))
  }

  @Test("reading a media file twice counts it once")
  func rereadCountsOnce() throws {
    let path = Fixtures.path("anki/latest_sched.apkg")
    let contents = try AnkiPackageReader(
      limits: AnkiPackageReader.Limits(expansionRatio: 1, expansionAllowance: 1_000_000)
    ).read(path: path)
    for _ in 0..<50 { try Self.readAllMedia(contents) }
  }

  @Test("a legacy package whose zip directory declares more than the budget is refused before unpacking")
  func legacyDeclaredBomb() throws {
    let scratch = try TemporaryDirectory()
    let bomb = scratch.path(for: "bomb.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: bomb,
      applying: .init(replace: ["0": Data(count: 64 << 20)], deflate: ["0"]))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? NSNumber).int64Value
    #expect(size < 1_000_000)
    let error = try #require(throws: DeckError.self) { try AnkiPackageReader(limits: Self.small).read(path: bomb) }
    #expect(error.kind == .limitExceeded)
    #expect(error.location == SourceLocation(file: bomb))
    #expect(
      error.message
        == "its 6 media files and collection declare 67 MB unpacked, more than this package may unpack to (\(ByteCount.text(100 * size)): 100 times the package's \(ByteCount.text(size)), at least 4 MB)"
    )
    // Raised limits let it through.
    let raised = try AnkiPackageReader(limits: AnkiPackageReader.Limits(expansionAllowance: 128 << 20)).read(path: bomb)
    try Self.readAllMedia(raised)
  }

  @Test("the absolute collection limit names itself")
  func absoluteCollectionLimit() throws {
    let path = Fixtures.path("anki/legacy2_sched.apkg")
    var limits = AnkiPackageReader.Limits()
    limits.collectionBytes = 10_000
    let error = try #require(throws: DeckError.self) { try AnkiPackageReader(limits: limits).read(path: path) }
    #expect(error.kind == .limitExceeded)
    #expect(
      error.description
        == "\(path): member 'collection.anki21': the collection unpacks to more than 10 KB, the limit for a collection database"
    )
  }
}
