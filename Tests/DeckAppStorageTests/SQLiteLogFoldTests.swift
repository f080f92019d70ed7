import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// Before a new file replaces a store, the store's `-wal` is folded into its main file, so that
/// the main file alone, which is the store until the rename, holds everything.
@Suite("Folding a store's -wal into it before it is replaced")
struct SQLiteLogFoldTests {
  /// The cards the main file at `path` shows when read alone, without its companions (as
  /// Python's SQLite reads an immutable file).
  static func cardsInMainFileAlone(_ path: String) throws -> String {
    try AppFixtures.python(
      "import sqlite3,sys; print(sqlite3.connect('file:'+sys.argv[1]+'?immutable=1', uri=True).execute('select count(*) from ZCARD').fetchone()[0])",
      [path])
  }

  @Test("the two cards only the -wal held are in the main file afterwards, and the -wal is empty or gone")
  func folds() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla-wal.store", into: scratch)
    #expect(try Self.cardsInMainFileAlone(store) == "3\n")
    try SQLiteLogFold.fold(store, location: SourceLocation(file: store))
    let logSize = (try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
    #expect(logSize == 0)
    #expect(try Self.cardsInMainFileAlone(store) == "5\n")
    #expect(try AppStorageReader().read(path: store).records.records.count == 5)
  }

  @Test("a store Apple's Photos app made: its main file alone, folded, holds what the store with its -wal held")
  func photosStore() throws {
    let scratch = try TemporaryDirectory()
    let original = Fixtures.path("apple-stores/Photos.sqlite")
    let store = scratch.path(for: "Photos.sqlite")
    for suffix in ["", "-wal", "-shm"] {
      try FileManager.default.copyItem(atPath: original + suffix, toPath: store + suffix)
    }
    try SQLiteLogFold.fold(store, location: SourceLocation(file: store))
    // Python's SQLite judges: the store as the app left it (a copy with its -wal, opened as SQLite
    // opens it), against the folded main file read alone.
    let judged = try AppFixtures.python(
      """
      import shutil, sqlite3, sys, tempfile
      folder = tempfile.mkdtemp()
      for suffix in ("", "-wal", "-shm"):
          shutil.copyfile(sys.argv[1] + suffix, folder + "/store" + suffix)
      whole = list(sqlite3.connect(folder + "/store").iterdump())
      def alone(path):
          return list(sqlite3.connect("file:" + path + "?immutable=1", uri=True).iterdump())
      shutil.rmtree(folder)
      print(whole == alone(sys.argv[1]), whole == alone(sys.argv[2]))
      """, [original, store])
    // Before: the main file alone misses what the -wal holds. After: it holds it all.
    #expect(judged == "False True\n")
  }

  @Test("a store without a -wal is not opened, and no byte of it changes")
  func nothingToFold() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("flashzilla.store", into: scratch)
    let before = try AppFixtures.snapshot(store)
    try SQLiteLogFold.fold(store, location: SourceLocation(file: store))
    #expect(try AppFixtures.snapshot(store) == before)
  }
}
