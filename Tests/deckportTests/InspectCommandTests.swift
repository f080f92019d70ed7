import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport inspect")
struct InspectCommandTests {
  @Test("--json prints one object with the documented keys and counts")
  func jsonSummary() throws {
    let run = try CommandRun.deckport(["inspect", Fixtures.path("anki/latest_sched.apkg"), "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "apkg-latest")
    #expect(object["notes"] as? Int == 9)
    #expect(object["cards"] as? Int == 15)
    #expect(object["media"] as? Int == 6)
    #expect(object["reviews"] as? Int == 8)
    #expect(object["missingMedia"] as? [String] == ["missing.png"])
    #expect(
      object["decks"] as? [String]
        == ["Default", "Languages", "Languages::French", "Languages::French::Verbs"])
    let noteTypes = try #require(object["noteTypes"] as? [[String: Any]])
    let vocab = try #require(noteTypes.first { $0["name"] as? String == "Vocab (3 fields)" })
    #expect(vocab["kind"] as? String == "standard")
    #expect(vocab["fields"] as? [String] == ["Word", "Meaning", "Example"])
    #expect(vocab["templates"] as? [String] == ["Recognition", "Production"])
    #expect(noteTypes.contains { $0["name"] as? String == "Cloze" && $0["kind"] as? String == "cloze" })
  }

  @Test(
    "every generation is named",
    arguments: [
      ("legacy1.apkg", "apkg-legacy-1"),
      ("genanki_legacy1.apkg", "apkg-legacy-1"),
      ("legacy2_sched.apkg", "apkg-legacy-2"),
      ("legacy2_nometa.apkg", "apkg-legacy-2"),
      ("latest_nosched.apkg", "apkg-latest"),
      ("legacy.colpkg", "colpkg-legacy"),
      ("latest.colpkg", "colpkg-latest"),
    ])
  func formatNames(file: String, format: String) throws {
    let run = try CommandRun.deckport(["inspect", Fixtures.path("anki/\(file)"), "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    #expect(object?["format"] as? String == format)
  }

  @Test("the text summary names format, counts, decks and missing media")
  func textSummary() throws {
    let run = try CommandRun.deckport(["inspect", Fixtures.path("anki/legacy.colpkg")])
    #expect(run.status == 0)
    #expect(run.standardOutput.contains("Format:   colpkg-legacy"))
    #expect(run.standardOutput.contains("Notes:    9"))
    #expect(run.standardOutput.contains("  Languages::French::Verbs"))
    #expect(run.standardOutput.contains("Missing media (referenced by notes, absent from the file):\n  missing.png"))
  }

  @Test("a missing file: one line on stderr naming it, exit status 1")
  func missingFile() throws {
    let run = try CommandRun.deckport(["inspect", "/nonexistent/deck.apkg"])
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError == "deckport: error: /nonexistent/deck.apkg: no such file\n")
  }

  @Test("a damaged package: the file and member named, exit status 1, nothing on stdout")
  func damagedPackage() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/latest_sched.apkg"), to: output,
      applying: .init(replace: ["meta": Data([0x08, 0x63])]))
    let run = try CommandRun.deckport(["inspect", output])
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError.hasPrefix("deckport: error: \(output): member 'meta': package version 99 is unknown"))
  }

  @Test("a file of unknown format asks for --from")
  func unknownFormat() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "notes.dat")
    try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
    let run = try CommandRun.deckport(["inspect", path])
    #expect(run.status == 1)
    #expect(run.standardError.contains("cannot tell the format from the name or the content; name it with --from"))
  }

  @Test(
    "a file whose content is another format's than its name says is read as its content shows, with a warning naming both; --from reads it as named"
  )
  func contentOverridesName() throws {
    let scratch = try TemporaryDirectory()
    let package = scratch.path(for: "deck.csv")
    try FileManager.default.copyItem(atPath: Fixtures.path("anki/legacy1.apkg"), toPath: package)
    let run = try CommandRun.deckport(["inspect", package])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("Format:   apkg-legacy-1"))
    #expect(
      run.standardError.contains(
        "\(package): warning: [format-from-content] the name says csv, but the content is apkg, so it is read as that;"),
      "\(run.standardError)")
    #expect(run.standardError.contains("to read it as csv, name the format: --from csv"))
    #expect(try CommandRun.deckport(["inspect", package, "--strict"]).status == 1)
    let named = try CommandRun.deckport(["inspect", package, "--from", "csv"])
    #expect(named.status == 1 && !named.standardError.contains("format-from-content"), "\(named.standardError)")

    // A deckport JSON deck named .txt, which the TSV reader made 155 rows of before.
    let document = scratch.path(for: "deck.json")
    #expect(try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), document, "-q"]).status == 0)
    let text = scratch.path(for: "deck.txt")
    try FileManager.default.moveItem(atPath: document, toPath: text)
    let json = try CommandRun.deckport(["inspect", text])
    #expect(json.status == 0 && json.standardOutput.contains("Format:   json"), "\(json.standardOutput)")
    #expect(json.standardOutput.contains("Notes:    9"))
    #expect(json.standardError.contains("[format-from-content] the name says tsv, but the content is json"))

    // A text file named as one is read as one, without the warning, even when a field quotes a
    // JSON deck's first words or begins with them.
    let csv = try CommandRun.deckport(["inspect", Fixtures.path("csv/anki/latest_notes_all.txt")])
    #expect(csv.status == 0 && !csv.standardError.contains("format-from-content"), "\(csv.standardError)")
    let quoting = scratch.path(for: "quoting.csv")
    try Data("\"{\"\"format\"\": \"\"deckport-deck\"\"}\",back\nfront,back\n".utf8).write(
      to: URL(fileURLWithPath: quoting))
    let quoted = try CommandRun.deckport(["inspect", quoting])
    #expect(quoted.status == 0 && quoted.standardOutput.contains("Format:   csv"), "\(quoted.standardError)")
    #expect(quoted.standardOutput.contains("Notes:    2") && !quoted.standardError.contains("format-from-content"))

    // A Core Data store named .sqlite, as Xcode names it, is app storage by either name: no warning.
    let store = try CommandRun.deckport(["inspect", Fixtures.path("app/Idealic.sqlite"), "--strict"])
    #expect(store.status == 0 && !store.standardError.contains("format-from-content"), "\(store.standardError)")

    // When the content's reader fails, its error says the name was overruled.
    let cut = scratch.path(for: "cut.csv")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("anki/legacy1.apkg")))
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
    let damaged = try CommandRun.deckport(["inspect", cut])
    #expect(damaged.status == 1)
    #expect(
      damaged.standardError.contains(
        "(the name says csv, but the content is apkg, so it is read as that; to read it as csv, name the format: --from csv)"
      ), "\(damaged.standardError)")
  }

  @Test("bad usage exits 64", arguments: [["inspect"], ["inspect", "a.apkg", "--from", "pdf"], ["nonsense"]])
  func usage(arguments: [String]) throws {
    let run = try CommandRun.deckport(arguments)
    #expect(run.status == 64, "stderr: \(run.standardError)")
  }

  @Test("--strict fails on warnings and names them")
  func strict() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "renamed.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: output,
      applying: .init(replace: ["media": Data(#"{"0": "a:b.png"}"#.utf8)]))
    let lenient = try CommandRun.deckport(["inspect", output])
    #expect(lenient.status == 0)
    #expect(lenient.standardError.contains("warning: [media-renamed] media file 'a:b.png' is renamed 'ab.png'"))
    let strict = try CommandRun.deckport(["inspect", output, "--strict"])
    #expect(strict.status == 1)
    #expect(strict.standardError.contains("deckport: error: --strict: 1 warning above"))
  }
}
