import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An external-storage value whose file (`.<store>_SUPPORT/_EXTERNAL_DATA/<UUID>`) is not a regular
/// file: opening a named pipe could wait for a writer that never comes, so the store's reader
/// refuses such an entry unopened, and says what it is (it was reported as missing).
@Suite("Core Data external-storage files that are not files")
struct CoreDataExternalFileTests {
  static let externalFile = ".neomnemo_SUPPORT/_EXTERNAL_DATA/3F2504E0-4F89-41D3-9A0C-0305E82C3301"

  /// A copy of NeoMnemo's store whose one external file is replaced by what `make` puts at its path.
  private func store(in scratch: TemporaryDirectory, making make: (String) -> Int32) throws -> (
    store: String, file: String
  ) {
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    let file = scratch.path(for: Self.externalFile)
    try FileManager.default.removeItem(atPath: file)
    #expect(make(file) == 0)
    return (store, file)
  }

  /// Opens the pipe at `path` for writing after a few seconds, so that a reader blocked in `open`
  /// (were it ever opened) gets an end of file and the test fails instead of hanging.
  private func unblock(_ path: String) {
    DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
      let descriptor = open(path, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { close(descriptor) }
    }
  }

  @Test(
    "a named pipe, a link to a folder or a link to nothing is refused by name, unopened",
    arguments: ["a named pipe", "a folder", "a symbolic link that leads nowhere"])
  func readerRefuses(kind: String) throws {
    let scratch = try TemporaryDirectory()
    let (store, file) = try store(in: scratch) { path in
      switch kind {
      case "a named pipe": mkfifo(path, 0o600)
      case "a folder": symlink(scratch.path, path)
      default: symlink(scratch.path(for: "nothing"), path)
      }
    }
    if kind == "a named pipe" { unblock(file) }
    let error = try #require(throws: DeckError.self) { try AppStorageReader().read(path: store) }
    #expect(error.kind == .unreadableFile)
    #expect(
      error.message.hasSuffix("the value is stored outside the database in \(file), which is \(kind), not a file"))
  }

  @Test(
    "an external file that is a link out of the store's folder is refused, naming where it leads; a link that stays inside is followed"
  )
  func linkOutOfTheStoreFolder() throws {
    // A store copied from elsewhere must not carry a file of this machine's into a migration.
    let scratch = try TemporaryDirectory()
    let elsewhere = try TemporaryDirectory()
    let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    let original = try Data(contentsOf: URL(fileURLWithPath: AppFixtures.path(Self.externalFile)))
    try original.write(to: URL(fileURLWithPath: elsewhere.path(for: "secret")))
    let (store, file) = try store(in: scratch) { symlink(elsewhere.path(for: "secret"), $0) }
    let error = try #require(throws: DeckError.self) { try AppStorageReader().read(path: store) }
    #expect(error.kind == .unreadableFile)
    #expect(
      error.message.hasSuffix(
        "the value is stored outside the database in \(file), which is a symbolic link to \(real(elsewhere.path(for: "secret"))), outside the folder \(real(scratch.path)); only the store's own files are read"
      ))

    // The same bytes beside the store, reached through a link: read as the file itself is.
    try original.write(to: URL(fileURLWithPath: scratch.path(for: "kept-beside")))
    try FileManager.default.removeItem(atPath: file)
    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "../../kept-beside")
    let linked = try AppStorageReader().read(path: store)
    let copied = try AppStorageReader().read(path: AppFixtures.copy("neomnemo.store", into: elsewhere))
    #expect(linked.records == copied.records)
  }

  @Test(
    "a store updated with --backup keeps the external files its backup names: the backup, put back, reads as the store did"
  )
  func backupKeepsExternalFiles() throws {
    let scratch = try TemporaryDirectory()
    let store = try AppFixtures.copy("neomnemo.store", into: scratch)
    let before = try AppStorageReader().read(path: store).records.records
    let update = scratch.path(for: "baum.json")
    // Baum's picture is the store's one external file; the update replaces it with a small one.
    try Data(
      #"[{"keyword": "Baum", "story": "new", "image": "iVBORw0KGgojGLS4+fAwiSIFwRxm8OHVJuJsidQ9ellSaXb7Vku0QLsonnHVROdODYp+K9Ll5lICwA=="}]"#
        .utf8
    ).write(to: URL(fileURLWithPath: update))
    let run = try CommandRun.deckport(["migrate", update, store, "--backup"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let kept = try #require(
      run.standardOutput.components(separatedBy: "Kept the old \(store) as ").last?.split(separator: "\n").first)
    #expect(FileManager.default.fileExists(atPath: scratch.path(for: Self.externalFile)))
    #expect(try AppStorageReader().read(path: store).records.records != before)

    // Put back, the backup is the store it was, picture and all.
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    try FileManager.default.moveItem(atPath: String(kept), toPath: store)
    #expect(try AppStorageReader().read(path: store).records.records == before)
  }

  @Test("migrating into a store whose external file is a named pipe fails on reading it, and changes nothing")
  func migrationRefuses() throws {
    let scratch = try TemporaryDirectory()
    let (store, file) = try store(in: scratch) { mkfifo($0, 0o600) }
    unblock(file)
    let before = try AppFixtures.snapshot(store)
    let error = try #require(throws: DeckError.self) {
      try AppMigrator().migrate(
        source: AppFixtures.path("neomnemo.store"), destination: store, options: AppMigrationOptions(existing: .replace)
      )
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.message.contains("which is a named pipe, not a file"))
    #expect(try AppFixtures.snapshot(store) == before)
    #expect(FileManager.default.notRegularFileKind(atPath: file) == .namedPipe)
  }
}
