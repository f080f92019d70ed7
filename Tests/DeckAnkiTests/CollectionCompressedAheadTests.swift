import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

@Suite("A collection's rows are compressed while SQLite builds its indexes")
struct CollectionCompressedAheadTests {
  /// Field text that differs from note to note (a database that does not compress to nothing).
  static func text(_ seed: Int) -> String {
    let words = ["alpha", "beta", "gamma", "delta", "épsilon", "zeta", "ēta", "theta", "iota", "kappa"]
    return (0..<40).map { words[(seed * 7 + $0 * 3) % words.count] + String(($0 * seed) % 997) }.joined(separator: " ")
  }

  /// Writes a collection of `notes` notes at `database`, calling `rowsWritten` as the writer does.
  static func writeCollection(notes: Int, at database: String, rowsWritten: @escaping (UInt64) -> Void) throws {
    let collection = WriterBehaviourTests.collection((0..<notes).map { [text($0), text($0 + 1)] })
    var writer = CollectionWriter(
      collection: collection, deckOptions: [], kind: .apkg, location: SourceLocation(file: database))
    writer.rowsWritten = rowsWritten
    try writer.write(to: database)
  }

  @Test("the pages of the rows do not change while the indexes are built, so what was deflated ahead is used")
  func rowsDeflatedAhead() throws {
    let scratch = try TemporaryDirectory()
    let database = scratch.path(for: "collection.sqlite")
    let location = SourceLocation(file: database)
    let ahead = DeflateAhead(file: database, scratch: scratch.path(for: "ahead"), level: 1, location: location)
    var finalBytes: UInt64 = 0
    try Self.writeCollection(notes: 6000, at: database) {
      finalBytes = $0
      ahead.start(finalBytes: $0)
    }
    let size = try #require(
      (try FileManager.default.attributesOfItem(atPath: database)[.size] as? NSNumber)?.uint64Value)
    // The rows fill several chunks, and the indexes come after them.
    #expect(finalBytes > 3 * UInt64(ParallelDeflate.chunkSize))
    #expect(size > finalBytes)

    let deflated = scratch.path(for: "ahead.deflate")
    let result = try ParallelDeflate.compress(file: database, to: deflated, level: 1, ahead: ahead, location: location)
    #expect(ahead.outcome == .used)
    // The same stream as the finished file deflated in one go (which ParallelDeflateTests
    // shows libzip inflates to the file).
    let whole = scratch.path(for: "whole.deflate")
    let wholeResult = try ParallelDeflate.compress(file: database, to: whole, level: 1, location: location)
    #expect(result == wholeResult)
    #expect(try Data(contentsOf: URL(fileURLWithPath: deflated)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  @Test("Latest: the rows are compressed into the frame ahead, the header page joins it, and it decodes to the file")
  func rowsCompressedAhead() throws {
    let scratch = try TemporaryDirectory()
    let database = scratch.path(for: "collection.sqlite")
    let ahead = ZstdAhead(
      file: database, scratch: scratch.path(for: "ahead.zst"), held: CollectionWriter.pageSize, level: 3, workers: 2,
      jobSize: 1 << 20, location: SourceLocation(file: database))
    try Self.writeCollection(notes: 3000, at: database) { ahead.start(finalBytes: $0) }
    let frame = scratch.path(for: "collection.zst")
    #expect(try ahead.finish(to: frame), "the rows' pages did not change while the indexes were built")
    let decoded = try Zstd.decompress(
      try Data(contentsOf: URL(fileURLWithPath: frame)), limit: 1 << 28, location: SourceLocation(file: frame))
    #expect(decoded == (try Data(contentsOf: URL(fileURLWithPath: database))))
  }
}
