import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert IN… --out-dir DIR")
struct BatchConvertCommandTests {
  /// The fixture packages the batches are made of, with their note counts.
  static let sources: [(path: String, notes: Int)] = [
    ("anki/latest_sched.apkg", 9), ("anki/legacy2_sched.apkg", 9), ("anki/legacy1.apkg", 9),
    ("anki/genanki_legacy1.apkg", 2), ("anki/latest.colpkg", 9),
  ]

  /// `count` decks in a fresh folder, named `deck-01.apkg`, … (each a copy of a fixture).
  static func decks(_ count: Int, in scratch: TemporaryDirectory) throws -> [(path: String, notes: Int)] {
    let folder = scratch.path(for: "in")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return try (1...count).map { number in
      let source = sources[number % sources.count]
      let suffix = (source.path as NSString).pathExtension
      let path = (folder as NSString).appendingPathComponent(String(format: "deck-%02d.%@", number, suffix))
      try FileManager.default.copyItem(atPath: Fixtures.path(source.path), toPath: path)
      return (path, source.notes)
    }
  }

  static func notes(in jsonDeck: String) throws -> Int? {
    let document =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonDeck))) as? [String: Any]
    return (document?["notes"] as? [Any])?.count
  }

  @Test("50 decks into one folder in parallel: one line per file, a total, every deck complete")
  func fiftyDecks() throws {
    let scratch = try TemporaryDirectory()
    let decks = try Self.decks(50, in: scratch)
    let out = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try CommandRun.deckport(
      ["convert"] + decks.map(\.path) + ["--out-dir", out, "--to", "json", "--jobs", "2"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 51)
    #expect(lines.last == "Converted 50 of 50 files into \(out)")
    for (index, deck) in decks.enumerated() {
      let name = ((deck.path as NSString).lastPathComponent as NSString).deletingPathExtension
      let output = (out as NSString).appendingPathComponent("\(name).json")
      #expect(lines[index].hasPrefix("written: \(deck.path) -> \(output) ("))
      #expect(try Self.notes(in: output) == deck.notes)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 50)
  }

  @Test("a damaged deck fails alone: its line names the error, nothing is written for it, exit status 1")
  func oneFails() throws {
    let scratch = try TemporaryDirectory()
    let decks = try Self.decks(3, in: scratch)
    let damaged = scratch.path(for: "in/damaged.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest_sched.apkg"), to: damaged,
      applying: .init(replace: ["collection.anki21b": Data("not zstd".utf8)]))
    let out = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try CommandRun.deckport([
      "convert", decks[0].path, damaged, decks[1].path, decks[2].path, "--out-dir", out, "--to", "csv",
    ])
    #expect(run.status == 1)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines[1].hasPrefix("failed: \(damaged): member 'collection.anki21b': not a zstd frame"))
    #expect(lines.last == "Converted 3 of 4 files into \(out); 1 failed")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
        "deck-01.csv", "deck-02.csv", "deck-03.csv",
      ])
  }

  @Test("two inputs with one output name: the later one fails unread, the first is written")
  func sameOutputName() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "in")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let first = (folder as NSString).appendingPathComponent("French.apkg")
    let second = (folder as NSString).appendingPathComponent("French.colpkg")
    try FileManager.default.copyItem(atPath: Fixtures.path("anki/latest_sched.apkg"), toPath: first)
    try FileManager.default.copyItem(atPath: Fixtures.path("anki/latest.colpkg"), toPath: second)
    let out = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try CommandRun.deckport(["convert", first, second, "--out-dir", out, "--to", "json"])
    #expect(run.status == 1)
    let target = (out as NSString).appendingPathComponent("French.json")
    #expect(
      run.standardOutput.contains(
        "failed: \(second): would be written to \(target), as \(first) is; rename one of them (nothing was written for this file)"
      ))
    #expect(try Self.notes(in: target) == 9)
  }

  @Test("--json: one object with every file, its status and its report")
  func json() throws {
    let scratch = try TemporaryDirectory()
    let decks = try Self.decks(2, in: scratch)
    let out = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try CommandRun.deckport(
      ["convert"] + decks.map(\.path) + ["--out-dir", out, "--to", "apkg-modern", "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    #expect(document?["converted"] as? Int == 2)
    #expect(document?["failed"] as? Int == 0)
    let files = document?["files"] as? [[String: Any]] ?? []
    #expect(files.map { $0["status"] as? String } == ["written", "written"])
    #expect(
      files.map { $0["output"] as? String } == [
        (out as NSString).appendingPathComponent("deck-01.apkg"),
        (out as NSString).appendingPathComponent("deck-02.apkg"),
      ])
    let report = files.first?["report"] as? [String: Any]
    #expect(report?["outputFormat"] as? String == "apkg-modern")
    #expect((report?["written"] as? [String: Any])?["notes"] as? Int == decks[0].notes)
  }

  @Test("--dry-run with --out-dir: the plan per file, nothing written")
  func dryRun() throws {
    let scratch = try TemporaryDirectory()
    let decks = try Self.decks(2, in: scratch)
    let out = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let run = try CommandRun.deckport(["convert"] + decks.map(\.path) + ["--out-dir", out, "--to", "csv", "--dry-run"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(
      run.standardOutput.contains(
        "would write: \(decks[0].path) -> \((out as NSString).appendingPathComponent("deck-01.csv"))"))
    #expect(run.standardOutput.contains("warning: [csv-scheduling]"))
    #expect(run.standardOutput.hasSuffix("Dry run: 2 of 2 files would be written into \(out); nothing was written\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
  }

  @Test(
    "usage errors (exit status 64)",
    arguments: [
      (
        ["--to", "core-data"],
        "Error: core-data writes into a store the app created, one file at a time; --out-dir makes new files."
      ),
      ([], "Error: --out-dir needs the output format: --to FORMAT."),
      (["--to", "json", "--jobs", "0"], "Error: --jobs takes a number of 1 or more."),
    ])
  func usage(extra: [String], message: String) throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport(
      ["convert", Fixtures.path("anki/legacy1.apkg"), "--out-dir", scratch.path] + extra)
    #expect(run.status == 64)
    #expect(run.standardError.hasPrefix(message + "\n"))
  }

  @Test("--out-dir is created when missing; a file there is refused with exit status 1")
  func outputFolder() throws {
    let scratch = try TemporaryDirectory()
    let missing = scratch.path(for: "new/backup")
    let created = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), "--out-dir", missing, "--to", "json",
    ])
    #expect(created.status == 0, "stderr: \(created.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: missing) == ["legacy1.json"])

    let file = scratch.path(for: "file")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), "--out-dir", file, "--to", "json",
    ])
    #expect(run.status == 1)
    #expect(run.standardError == "deckport: error: \(file): is a file, not a folder\n")
  }
}
