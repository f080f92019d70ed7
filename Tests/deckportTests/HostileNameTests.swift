import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Names that would drive a terminal (clear the screen, change colour, ring the bell, reverse the
/// text) in a deck, a note type, a field, a template, a tag, a media name, a CSV, app records and
/// file paths: in text mode every one reaches standard output and standard error escaped
/// (`\e[2J`, `\u{07}`, `\u{202E}`); `--json` keeps them exact.
@Suite("deckport on hostile names: nothing reaches the terminal raw")
struct HostileNameTests {
  static let legacy = Fixtures.path("anki/legacy2_sched.apkg")

  static let deck = "Languages::French::V\u{1B}[2Jerbs\u{07}\u{202E}"
  static let noteType = "Basic \u{1B}[31mred\u{202E}"
  static let field = "Fr\u{1B}[2Jont"
  static let template = "Card\u{07} 1"
  static let tag = "r\u{1B}[31mred\u{202E}"
  static let missingMedia = "evil\u{1B}[2J\u{202E}.png"

  /// The legacy fixture with the names above planted in its collection (JSON escapes inside the
  /// collection's JSON columns, raw characters in the notes table).
  static func hostilePackage(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "hostile.apkg")
    try PackageSurgery.copy(
      legacy, to: path,
      runningOnCollection: #"""
        UPDATE col SET decks = replace(decks, '"name":"Languages::French::Verbs"',
          '"name":"Languages::French::V\u001b[2Jerbs\u0007' || char(8238) || '"');
        UPDATE col SET models = replace(models, '"name":"Basic (and reversed card)"',
          '"name":"Basic \u001b[31mred' || char(8238) || '"');
        UPDATE col SET models = replace(replace(models, '"name":"Front"', '"name":"Fr\u001b[2Jont"'),
          '{{Front}}', '{{Fr\u001b[2Jont}}');
        UPDATE col SET models = replace(models, '"name":"Card 1"', '"name":"Card\u0007 1"');
        UPDATE notes SET tags = ' geo r' || char(27) || '[31mred' || char(8238) || ' ',
          flds = flds || '<img src="evil' || char(27) || '[2J' || char(8238) || '.png">'
          WHERE id = 1795331276849;
        """#)
    return path
  }

  /// The legacy fixture whose media map names a file with control and bidi characters, which
  /// deckport renames (as Anki does on import) with a warning.
  static func hostileMediaPackage(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "hostile-media.apkg")
    let map =
      #"{"2":"caf\u001b[2J\u0007\u202e.png","4":"pixel.png","5":"my photo.png","3":"beep.wav","1":"_vocab.css","0":"日本.png"}"#
    try PackageSurgery.copy(legacy, to: path, applying: .init(replace: ["media": Data(map.utf8)]))
    return path
  }

  /// A JSON deck made from the hostile package whose media file `pixel.png` is renamed with
  /// control and bidi characters, which the JSON reader refuses.
  static func hostileMediaJSON(in scratch: TemporaryDirectory) throws -> String {
    let json = scratch.path(for: "deck.json")
    let run = try CommandRun.deckport(["convert", try hostilePackage(in: scratch), json])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let text = try String(contentsOfFile: json, encoding: .utf8)
    let path = scratch.path(for: "hostile-media.json")
    try Data(text.replacingOccurrences(of: #""name": "pixel.png""#, with: #""name": "pix\u001b[2Jel\u202e.png""#).utf8)
      .write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The characters in `text` a terminal would act on, line breaks between lines aside; the
  /// progress line's own `\r` and `ESC[K` are taken out first when `progress` is set.
  static func raw(_ text: String, progress: Bool = false) -> [Unicode.Scalar] {
    let text =
      progress ? text.replacingOccurrences(of: "\u{1B}[K", with: "").replacingOccurrences(of: "\r", with: "") : text
    return text.unicodeScalars.filter { TerminalText.isEscaped($0) && $0 != "\n" }
  }

  /// Checks that neither output of `run` holds a raw control or bidi character.
  static func expectNothingRaw(
    _ run: CommandRun, progress: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(
      raw(run.standardOutput).isEmpty, "stdout: \(run.standardOutput.debugDescription)", sourceLocation: sourceLocation)
    #expect(
      raw(run.standardError, progress: progress).isEmpty, "stderr: \(run.standardError.debugDescription)",
      sourceLocation: sourceLocation)
  }

  @Test("inspect shows every name escaped, on its own line")
  func inspectText() throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport(["inspect", try Self.hostilePackage(in: scratch)])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    Self.expectNothingRaw(run)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"  Languages::French::V\e[2Jerbs\u{07}\u{202E}"#))
    #expect(lines.contains(#"  Basic \e[31mred\u{202E} (standard)"#))
    #expect(lines.contains(#"    fields:    Fr\e[2Jont, Back"#))
    #expect(lines.contains(#"    templates: Card\u{07} 1, Card 2"#))
    #expect(lines.contains(#"  evil\e[2J\u{202E}.png"#))
    #expect(lines.contains("  Vocab (3 fields) (standard)"), "ordinary names are unchanged")
  }

  @Test("inspect --json keeps every name exact")
  func inspectJSON() throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport(["inspect", try Self.hostilePackage(in: scratch), "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    Self.expectNothingRaw(run)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let exact = { (strings: [String]) in strings.map { Array($0.unicodeScalars) } }
    #expect(exact(try #require(object["decks"] as? [String])).contains(Array(Self.deck.unicodeScalars)))
    #expect(exact(try #require(object["missingMedia"] as? [String])).contains(Array(Self.missingMedia.unicodeScalars)))
    let noteTypes = try #require(object["noteTypes"] as? [[String: Any]])
    let hostile = try #require(
      noteTypes.first { ($0["name"] as? String)?.unicodeScalars.elementsEqual(Self.noteType.unicodeScalars) == true })
    #expect(exact(try #require(hostile["fields"] as? [String])) == exact([Self.field, "Back"]))
    #expect(exact(try #require(hostile["templates"] as? [String])) == exact([Self.template, "Card 2"]))
  }

  @Test(
    "convert to every format: summary, warnings and the output path escaped",
    arguments: [
      ("apkg", [String]()), ("apkg-modern", []), ("colpkg", []), ("colpkg-modern", []), ("json", []), ("csv", []),
      ("tsv", []), ("plist", ["--profile", "flashzilla"]), ("app-json", ["--profile", "flashzilla"]),
      ("sqlite", ["--profile", "flashzilla"]),
    ])
  func convert(format: String, extra: [String]) throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "out\u{1B}[2J\u{202E}.\(format)")
    let run = try CommandRun.deckport(
      ["convert", try Self.hostilePackage(in: scratch), output, "--to", format, "--verbose"] + extra)
    #expect(run.status == 0, "stderr: \(run.standardError)")
    Self.expectNothingRaw(run)
    #expect(run.standardOutput.contains(#"out\e[2J\u{202E}."#))
    if format.hasPrefix("apkg") || format.hasPrefix("colpkg") {
      // A deck package says what Anki's import stores; a collection package what it holds.
      let tagChange =
        format.hasPrefix("apkg")
        ? #"tag 'r\e[31mred\u{202E}' is written as 'r[31mred\u{202E}', as Anki's import stores it"#
        : #"tag 'r\e[31mred\u{202E}' holds spaces or control characters"#
      #expect(run.standardError.contains(tagChange))
      #expect(run.standardError.contains(#"deck 'Languages::French::V\e[2Jerbs\u{07}\u{202E}'"#))
    }
    if format == "csv" || format == "tsv" {
      #expect(run.standardError.contains(#"'Basic \e[31mred\u{202E}'"#))
    }
  }

  @Test("a renamed media file warns, a refused one, --strict, a missing file and a usage error fail, all escaped")
  func failures() throws {
    let scratch = try TemporaryDirectory()
    let renamed = try CommandRun.deckport(
      ["convert", try Self.hostileMediaPackage(in: scratch), scratch.path(for: "out.apkg"), "--verbose"])
    #expect(renamed.status == 0, "stderr: \(renamed.standardError)")
    Self.expectNothingRaw(renamed)
    #expect(renamed.standardError.contains(#"media file 'caf\e[2J\u{07}\u{202E}.png' is renamed"#))

    let refused = try CommandRun.deckport(
      ["convert", try Self.hostileMediaJSON(in: scratch), scratch.path(for: "refused.apkg"), "--verbose"])
    #expect(refused.status == 1)
    Self.expectNothingRaw(refused)
    #expect(
      refused.standardError.contains(#"at media[4].name: 'pix\e[2Jel\u{202E}.png' is not a safe media file name"#))

    let strict = try CommandRun.deckport(
      ["convert", try Self.hostilePackage(in: scratch), scratch.path(for: "strict.apkg"), "--strict"])
    #expect(strict.status == 1)
    Self.expectNothingRaw(strict)
    #expect(strict.standardError.contains("--strict: 3 warnings"))
    // Anki's import renames the field's reference to a name it stores; the writer writes it so.
    #expect(strict.standardError.contains(#"renames the reference: 'evil\e[2J\u{202E}.png' as 'evil2J\u{202E}.png'"#))

    let missing = try CommandRun.deckport(["inspect", scratch.path(for: "no\u{1B}[2Jfile\u{07}.apkg")])
    #expect(missing.status == 1)
    Self.expectNothingRaw(missing)
    #expect(missing.standardError.contains(#"no\e[2Jfile\u{07}.apkg"#))

    let usage = try CommandRun.deckport(["inspect", "a.apkg", "b\u{1B}[2J\u{202E}"])
    #expect(usage.status == 64)
    Self.expectNothingRaw(usage)
    #expect(usage.standardError.contains(#"'b\e[2J\u{202E}'"#))
  }

  @Test("the progress line and the warnings above it on a terminal hold nothing raw")
  func progressOnTerminal() throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckportOnTerminal(
      ["convert", try Self.hostilePackage(in: scratch), scratch.path(for: "out\u{1B}[31m.apkg")],
      environment: ["DECKPORT_PROGRESS_DELAY": "0"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    Self.expectNothingRaw(run, progress: true)
    #expect(run.standardError.contains(#"tag 'r\e[31mred\u{202E}'"#))
  }

  @Test("a CSV's deck, tags and excerpts are escaped; the deck is named as Anki stores it, the name given escaped")
  func csv() throws {
    let scratch = try TemporaryDirectory()
    let good = scratch.path(for: "hostile.csv")
    try Data(
      "#separator:comma\n#deck:Evil\u{1B}[2J\u{202E}\n#notetype:Basic\n#tags column:3\nfront\u{1B}[31m,back,tag\u{07}x\n"
        .utf8
    )
    .write(to: URL(fileURLWithPath: good))
    let inspect = try CommandRun.deckport(["inspect", good])
    #expect(inspect.status == 0, "stderr: \(inspect.standardError)")
    Self.expectNothingRaw(inspect)
    // Anki's import takes the control character out of a deck name; the warning names both.
    #expect(inspect.standardOutput.contains(#"  Evil[2J\u{202E}"#))
    #expect(inspect.standardError.contains(#"the deck 'Evil\e[2J\u{202E}' is 'Evil[2J\u{202E}'"#))

    let json = try CommandRun.deckport(["inspect", good, "--json"])
    Self.expectNothingRaw(json)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(
      (object["decks"] as? [String])?.map { Array($0.unicodeScalars) } == [
        Array("Evil[2J\u{202E}".unicodeScalars)
      ])

    let convert = try CommandRun.deckport(["convert", good, scratch.path(for: "out.apkg")])
    #expect(convert.status == 0, "stderr: \(convert.standardError)")
    Self.expectNothingRaw(convert)
    #expect(convert.standardError.contains(#"tag 'tag\u{07}x'"#))

    let bad = scratch.path(for: "bad.csv")
    try Data("#separator:comma\n#notetype:Basic\nfoo,bar,baz,q\u{1B}[2Jux\n".utf8).write(to: URL(fileURLWithPath: bad))
    let failed = try CommandRun.deckport(["convert", bad, scratch.path(for: "bad.apkg")])
    #expect(failed.status == 1)
    Self.expectNothingRaw(failed)
    #expect(failed.standardError.contains(#"(near 'q\e[2Jux')"#))
  }

  @Test("app storage: record type names, keys and places escaped in migrate and convert")
  func appStorage() throws {
    let scratch = try TemporaryDirectory()
    let records = scratch.path(for: "records.json")
    try Data(#"[{"prompt\u001b[2J":"a\u202e","answer":"b"},{"prompt\u001b[2J":"c","answer":"d"}]"#.utf8)
      .write(to: URL(fileURLWithPath: records))
    let plist = scratch.path(for: "defaults.plist")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict><key>Ca\u{1B}[2Jrds</key><array><dict><key>pro\u{202E}mpt</key><string>a</string></dict></array></dict></plist>

      """.utf8
    ).write(to: URL(fileURLWithPath: plist))

    let listJSON = try CommandRun.deckport(["migrate", "--list", records])
    #expect(listJSON.status == 0, "stderr: \(listJSON.standardError)")
    Self.expectNothingRaw(listJSON)
    #expect(listJSON.standardOutput.contains(#"fields: prompt\e[2J (string), answer (string)"#))

    let listPlist = try CommandRun.deckport(["migrate", "--list", plist])
    #expect(listPlist.status == 0, "stderr: \(listPlist.standardError)")
    Self.expectNothingRaw(listPlist)
    #expect(listPlist.standardOutput.contains(#"  Ca\e[2Jrds: 1 record"#))
    #expect(listPlist.standardOutput.contains(#"fields: pro\u{202E}mpt (string)"#))
    #expect(listPlist.standardOutput.contains(#"key 'Ca\e[2Jrds'"#))

    let migrate = try CommandRun.deckport(["migrate", plist, scratch.path(for: "copy\u{1B}[31m.plist")])
    #expect(migrate.status == 0, "stderr: \(migrate.standardError)")
    Self.expectNothingRaw(migrate)
    #expect(migrate.standardOutput.contains(#"key 'Ca\e[2Jrds'"#))

    for input in [records, plist] {
      let convert = try CommandRun.deckport(["convert", input, scratch.path(for: "from-app.json"), "--force"])
      #expect(convert.status == 0, "stderr: \(convert.standardError)")
      Self.expectNothingRaw(convert)
    }
  }

  /// Runs deckport with standard output (and error) on a pseudo-terminal, through `script`, and
  /// returns what the terminal received, its own carriage returns taken out.
  static func onTerminal(_ arguments: [String]) throws -> (status: Int32, shown: String) {
    let command = ([Fixtures.deckportExecutable] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r", with: ""))
  }

  @Test(
    "a deck written to standard output on a terminal shows hostile text visibly; a pipe gets the exact bytes",
    arguments: ["csv", "tsv", "json"])
  func deckOnTerminal(format: String) throws {
    let scratch = try TemporaryDirectory()
    let package = try Self.hostilePackage(in: scratch)
    let terminal = try Self.onTerminal(["convert", package, "-", "--to", format, "--quiet"])
    #expect(terminal.status == 0, "\(terminal.shown)")
    #expect(Self.raw(terminal.shown).filter { $0 != "\t" }.isEmpty, "\(terminal.shown.debugDescription)")
    // A CSV holds the tag as Anki's import stores it, without the escape ([tag-changed]); the
    // note type's name keeps it.
    #expect(terminal.shown.contains(format == "json" ? #"\u202e"# : #"Basic \e[31mred\u{202E}"#))

    let piped = try CommandRun.deckport(["convert", package, "-", "--to", format])
    #expect(piped.status == 0)
    let exact = format == "json" ? "\u{202E}" : "Basic \u{1B}[31mred\u{202E}"
    #expect(piped.standardOutput.contains(exact))
  }
}
