import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckIO

/// An output whose work is cancelled while it is written is never renamed into place, and
/// nothing of it stays; every temporary item is known to ``TemporaryItems`` while it exists.
@Suite("Cancelled outputs leave nothing behind")
struct CancelledOutputTests {
  @Test("a file output cancelled while written is removed, and its commit never runs")
  func fileOutput() throws {
    let scratch = try TemporaryDirectory()
    let destination = scratch.path(for: "deck.json")
    let scope = Cancellation.Scope()
    var written: String?
    var committed = false
    #expect(throws: CancellationError.self) {
      try Cancellation.$scope.withValue(scope) {
        try AtomicOutput.write(to: destination, replacing: false) { temporaryPath in
          try Data("partial".utf8).write(to: URL(fileURLWithPath: temporaryPath))
          written = temporaryPath
          #expect(TemporaryItems.registered.contains(temporaryPath))
          scope.cancel()
        } commit: { _ in
          committed = true
        }
      }
    }
    #expect(!committed)
    #expect(try FolderContents.names(in: scratch.path) == [])
    #expect(!TemporaryItems.registered.contains(try #require(written)))
  }

  @Test("an existing output stays as it was when the new one is cancelled")
  func existingOutputKept() throws {
    let scratch = try TemporaryDirectory()
    let destination = scratch.path(for: "deck.json")
    try Data("old".utf8).write(to: URL(fileURLWithPath: destination))
    let scope = Cancellation.Scope()
    #expect(throws: CancellationError.self) {
      try Cancellation.$scope.withValue(scope) {
        try AtomicOutput.write(to: destination, replacing: true) { temporaryPath in
          try Data("new".utf8).write(to: URL(fileURLWithPath: temporaryPath))
          scope.cancel()
        }
      }
    }
    #expect(try FolderContents.names(in: scratch.path) == ["deck.json"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data("old".utf8))
  }

  @Test("a folder output cancelled while written is removed with everything in it; an old one stays")
  func folderOutput() throws {
    let scratch = try TemporaryDirectory()
    let destination = scratch.path(for: "deck")
    try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
    try Data("old".utf8).write(to: URL(fileURLWithPath: destination + "/index.json"))
    let scope = Cancellation.Scope()
    #expect(throws: CancellationError.self) {
      try Cancellation.$scope.withValue(scope) {
        try AtomicOutput.writeFolder(to: destination, replacing: true) { temporaryPath in
          try FileManager.default.createDirectory(
            atPath: temporaryPath + "/media", withIntermediateDirectories: false)
          try Data("new".utf8).write(to: URL(fileURLWithPath: temporaryPath + "/media/a.png"))
          scope.cancel()
        }
      }
    }
    #expect(try FolderContents.names(in: scratch.path) == ["deck"])
    #expect(try FolderContents.names(in: destination) == ["index.json"])
  }

  @Test("a long SQLite statement stops with CancellationError, not a database error")
  func sqliteStatement() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "count.sqlite")
    let counting =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) FROM n"
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
    let whole = try database.prepare(counting)
    #expect(try whole.step() && whole.int64(0) == 3_000_000)
    let scope = Cancellation.Scope()
    scope.cancel()
    #expect(throws: CancellationError.self) {
      try Cancellation.$scope.withValue(scope) {
        let statement = try database.prepare(counting)
        _ = try statement.step()
      }
    }
  }

  @Test("a zip archive whose work is cancelled is not written, and libzip leaves no file of its own")
  func zipArchive() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.zip")
    let zip = try ZipWriter(path: path, location: SourceLocation(file: path))
    try zip.addData(name: "a.txt", data: Data(repeating: 65, count: 1 << 20), compression: .stored)
    let scope = Cancellation.Scope()
    scope.cancel()
    #expect(throws: CancellationError.self) { try Cancellation.$scope.withValue(scope) { try zip.close() } }
    #expect(try FolderContents.names(in: scratch.path) == [])
  }

  @Test("a scratch folder is registered until it is removed")
  func scratchFolderRegistered() throws {
    let scratch = try TemporaryDirectory()
    #expect(TemporaryItems.registered.contains(scratch.path))
    scratch.remove()
    #expect(!TemporaryItems.registered.contains(scratch.path))
  }

  @Test("work started on another thread runs in its creator's cancellation scope")
  func backgroundWorkInheritsScope() throws {
    let scope = Cancellation.Scope()
    let work = Cancellation.$scope.withValue(scope) {
      BackgroundWork { () throws -> Bool in
        let before = Cancellation.isRequested
        scope.cancel()
        try Cancellation.check()
        return before
      }
    }
    #expect(throws: CancellationError.self) { try work.wait() }
    // Outside the scope, nothing is cancelled.
    #expect(!Cancellation.isRequested)
    let unscoped = BackgroundWork { Cancellation.isRequested }
    #expect(try unscoped.wait() == false)
  }
}
