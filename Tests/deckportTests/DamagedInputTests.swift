import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Every kind of damage the issue lists, made inside the test from a real fixture and given to
/// the `deckport` command: each must end with exactly one line on standard error naming the file
/// and the place, exit status 1, no output and no temporary file left, the input unchanged, and
/// nothing created outside the output folder.
@Suite("deckport on damaged input: one named error, exit 1, nothing left behind")
struct DamagedInputTests {
  /// One kind of damage.
  struct Case: CustomTestStringConvertible, Sendable {
    /// What is damaged and how.
    var id: String
    /// The damaged input's file name (its extension picks the reader).
    var name: String
    /// Writes the damaged input at the given path.
    var make: @Sendable (_ path: String) throws -> Void
    /// The output's file name.
    var output = "out.json"
    /// Whether to pass `--strict` (for damage that is read with a warning).
    var strict = false
    /// The warning printed before the error, after `deckport: <input>`, when there is one.
    var warning: String? = nil
    /// The message after `deckport: error: <input>`: usually `: <member or line>: …`.
    var message: String
    var testDescription: String { id }
  }

  static let legacy = Fixtures.path("anki/legacy2_sched.apkg")
  static let latest = Fixtures.path("anki/latest_sched.apkg")

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  /// The fixture cut to the length `length` gives for its size.
  static func truncated(_ fixture: String, _ length: @escaping @Sendable (Int) -> Int)
    -> @Sendable (String) throws -> Void
  {
    { path in
      let data = try bytes(fixture)
      try data.prefix(length(data.count)).write(to: URL(fileURLWithPath: path))
    }
  }

  /// The fixture with the byte at each offset `offsets` finds inverted.
  static func flipped(_ fixture: String, _ offsets: @escaping @Sendable (Data) -> [Int])
    -> @Sendable (String) throws -> Void
  {
    { path in
      var data = try bytes(fixture)
      for offset in offsets(data) { data[offset] ^= 0xFF }
      try data.write(to: URL(fileURLWithPath: path))
    }
  }

  /// The fixture with members replaced, added or removed.
  static func surgery(_ fixture: String, _ change: PackageSurgery.Change) -> @Sendable (String) throws -> Void {
    { path in try PackageSurgery.copy(fixture, to: path, applying: change) }
  }

  /// The legacy fixture whose collection had `sql` run on it.
  static func alteredCollection(_ sql: String) -> @Sendable (String) throws -> Void {
    { path in try PackageSurgery.copy(legacy, to: path, runningOnCollection: sql) }
  }

  /// The legacy fixture whose collection member has its bytes at `offsets` inverted.
  static func flippedCollection(_ offsets: [Int]) -> @Sendable (String) throws -> Void {
    { path in
      var database = try PackageSurgery.member("collection.anki21", of: legacy)
      for offset in offsets { database[offset] ^= 0xFF }
      try PackageSurgery.copy(legacy, to: path, applying: .init(replace: ["collection.anki21": database]))
    }
  }

  static func text(_ text: String) -> @Sendable (String) throws -> Void {
    { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
  }

  static func data(_ data: Data) -> @Sendable (String) throws -> Void {
    { path in try data.write(to: URL(fileURLWithPath: path)) }
  }

  /// The offset of the zip central directory's first entry (`PK\x01\x02`).
  static func centralDirectory(_ data: Data) -> Int {
    let signature = Data([0x50, 0x4B, 0x01, 0x02])
    return data.range(of: signature)?.lowerBound ?? 0
  }

  /// A JSON deck made from the legacy fixture, with `edit` applied to its text.
  static func jsonDeck(_ edit: @escaping @Sendable (String) -> String) -> @Sendable (String) throws -> Void {
    { path in
      let scratch = try TemporaryDirectory()
      let json = scratch.path(for: "deck.json")
      let run = try CommandRun.deckport(["convert", legacy, json])
      guard run.status == 0 else { throw CocoaError(.fileWriteUnknown) }
      try Data(edit(String(decoding: try bytes(json), as: UTF8.self)).utf8).write(to: URL(fileURLWithPath: path))
    }
  }

  static let cases: [Case] = [
    // Truncation at several points.
    Case(
      id: "legacy package cut inside its first member", name: "cut.apkg", make: truncated(legacy) { _ in 1000 },
      message:
        ": byte 1000: the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    ),
    Case(
      id: "legacy package cut inside its central directory", name: "cut.apkg",
      make: { path in
        let data = try bytes(legacy)
        try data.prefix(centralDirectory(data) + 60).write(to: URL(fileURLWithPath: path))
      },
      message:
        ": byte 65309: the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    ),
    Case(
      id: "legacy package cut inside its end record", name: "cut.apkg", make: truncated(legacy) { $0 - 10 },
      message:
        ": byte 65769: the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    ),
    Case(
      id: "latest package cut in half", name: "cut.apkg", make: truncated(latest) { $0 / 2 },
      message:
        ": byte 30089: the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    ),
    Case(
      id: "JSON deck cut in half", name: "cut.json", make: jsonDeck { String($0.prefix($0.count / 2)) },
      output: "out.apkg",
      message: ":423:6: invalid JSON: expected a key in double quotes (at the end of the file)"),
    Case(
      id: "binary plist cut", name: "cut.plist",
      make: truncated(Fixtures.path("app/flashzilla-binary.plist")) { $0 - 20 }, output: "out.apkg",
      message:
        ": byte 615: the plist is damaged: the trailer gives offset size 0 and reference size 242 (each must be 1 to 8)"
    ),
    Case(
      id: "SQLite app store cut", name: "cut.sqlite",
      make: truncated(Fixtures.path("app/flashcard-quiz.sqlite")) { $0 / 2 }, output: "out.apkg",
      message:
        ": table sqlite_master: the SQLite database is damaged: its schema cannot be read (database disk image is malformed)"
    ),
    // Flipped bytes.
    Case(
      id: "zip central directory signature flipped", name: "flipped.apkg",
      make: flipped(legacy) { [centralDirectory($0)] },
      message:
        ": byte 65249: the zip archive's central directory (the list of its members, which the end record at byte 65757 places here) is damaged (Not a zip archive)"
    ),
    Case(
      id: "zip central directory compressed size flipped", name: "flipped.apkg",
      make: flipped(legacy) { [centralDirectory($0) + 20, centralDirectory($0) + 21] },
      message:
        ": byte 65249: the zip archive is damaged: its central directory (the list of its members, here) does not match the members themselves (Not a zip archive)"
    ),
    Case(
      id: "zip central directory member name flipped", name: "flipped.apkg",
      make: flipped(legacy) { [centralDirectory($0) + 46] },
      message:
        ": byte 65249: the zip archive is damaged: its central directory (the list of its members, here) does not match the members themselves (Zip archive inconsistent)"
    ),
    Case(
      id: "SQLite header magic flipped", name: "flipped.apkg", make: flippedCollection([0, 1, 2]),
      message: ": member 'collection.anki21': not an SQLite database (file is not a database)"),
    Case(
      id: "SQLite header page size flipped", name: "flipped.apkg", make: flippedCollection([16, 17]),
      message: ": member 'collection.anki21': not an SQLite database (file is not a database)"),
    // Missing members, wrong meta, bad zstd.
    Case(
      id: "no collection", name: "missing.apkg",
      make: surgery(legacy, .init(remove: ["meta", "collection.anki21", "collection.anki2"])),
      message: ": not an Anki package: it has none of the members 'meta', 'collection.anki21' or 'collection.anki2'"),
    Case(
      id: "media map names a missing member", name: "missing.apkg", make: surgery(legacy, .init(remove: ["0"])),
      strict: true,
      warning:
        ": member '0': warning: [media-missing] the media map lists '日本.png' in member '0', but the package has no such member; the file is left out, and notes that refer to it will show it missing",
      message: ": --strict: 1 warning (listed above); nothing was written"),
    Case(
      id: "meta version 0", name: "meta.apkg", make: surgery(latest, .init(replace: ["meta": Data([0x08, 0x00])])),
      message:
        ": member 'meta': package version 0 is unknown (known: 1, 2, 3); it needs a newer reader, as Anki says: \"This collection requires a newer version of Anki to open.\""
    ),
    Case(
      id: "meta version 9", name: "meta.apkg", make: surgery(latest, .init(replace: ["meta": Data([0x08, 0x09])])),
      message:
        ": member 'meta': package version 9 is unknown (known: 1, 2, 3); it needs a newer reader, as Anki says: \"This collection requires a newer version of Anki to open.\""
    ),
    Case(
      id: "meta garbage", name: "meta.apkg",
      make: surgery(latest, .init(replace: ["meta": Data("garbage!".utf8)])),
      message: ": member 'meta': byte 0: protobuf: invalid wire type 7 for field 12"),
    Case(
      id: "latest collection not zstd", name: "zstd.apkg",
      make: surgery(latest, .init(replace: ["collection.anki21b": Data("not zstd at all".utf8)])),
      message: ": member 'collection.anki21b': not a zstd frame (Unknown frame descriptor)"),
    Case(
      id: "latest media member not zstd", name: "zstd.apkg",
      make: surgery(latest, .init(replace: ["0": Data("not zstd at all".utf8)])), output: "out.apkg",
      message: ": member '0': not a zstd frame (Unknown frame descriptor)"),
    // Invalid UTF-8.
    Case(
      id: "invalid UTF-8 in a CSV field", name: "bad.csv",
      make: data(Data("front,back\nok,fine\n".utf8) + Data([0x61, 0x2C, 0x62, 0xFF, 0x63, 0x0A])),
      output: "out.apkg",
      message:
        ":3:4: not UTF-8: byte 0xFF is not part of a valid character; deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8 (near 'b\u{FFFD}c')"
    ),
    Case(
      id: "invalid UTF-8 in a JSON string", name: "bad.json",
      make: { path in
        try jsonDeck { $0 }(path)
        var data = try bytes(path)
        let at = try #require(data.range(of: Data("\"name\": \"".utf8))).upperBound
        data[at] = 0xFF
        try data.write(to: URL(fileURLWithPath: path))
      },
      output: "out.apkg",
      message:
        ":8:16: invalid JSON: not UTF-8: byte 0xFF in a string is not part of a valid character; a JSON document must be UTF-8 (near '\u{FFFD}efault\",\\n      \"modifie')"
    ),
    Case(
      id: "invalid UTF-8 in a note's fields", name: "utf8.apkg",
      make: alteredCollection(
        "UPDATE notes SET flds = CAST(X'66FF1F62' AS TEXT) WHERE id = (SELECT min(id) FROM notes)"),
      strict: true,
      warning:
        ": member 'collection.anki21': table notes, row 1795331276845: warning: [invalid-utf8] the note's fields or tags are not valid UTF-8; each invalid byte sequence is read as U+FFFD (\u{FFFD})",
      message: ": --strict: 1 warning (listed above); nothing was written"),
    // A deflated collection member whose bytes or CRC-32 are wrong (inflated whole, libdeflate).
    Case(
      id: "bytes flipped inside the deflated collection", name: "flipped.apkg",
      make: flipped(legacy) { data in
        guard let place = ZipHeaders(of: "collection.anki21", in: data) else { return [] }
        return (6400..<6408).map { place.dataStart + $0 }
      },
      message:
        ": member 'collection.anki21': the member is damaged: it inflates to more than the 151552 bytes its directory entry declares"
    ),
    Case(
      id: "the collection's CRC-32 changed in both headers", name: "crc.apkg",
      make: flipped(legacy) { data in
        guard let place = ZipHeaders(of: "collection.anki21", in: data), let central = place.central else {
          return []
        }
        return [place.local + 14, central + 16]
      },
      message: ": member 'collection.anki21': the member is damaged (CRC error)"),
    // CSV quoting, JSON shape, media names.
    Case(
      id: "unterminated quote in CSV", name: "quote.csv", make: text("front,back\n\"never closed,x\nmore,rows\n"),
      output: "out.apkg",
      message:
        ":2:1: unterminated quote: the quoted field that starts here has no closing quote before the end of the file (near '\"never closed,x\\nmore,rows\\n')"
    ),
    Case(
      id: "wrong JSON shape", name: "shape.json",
      make: jsonDeck { $0.replacingOccurrences(of: "\"notes\": [", with: "\"notes\": [42, ") },
      output: "out.apkg", message: ": at notes[0]: expected an object"),
    Case(
      id: "media name with ../ in a legacy media map", name: "escape.apkg",
      make: surgery(legacy, .init(replace: ["media": Data(#"{"0": "../escaped.png"}"#.utf8)])), output: "out.apkg",
      message:
        ": member 'media': entry 0: media name '../escaped.png' is not a single file name; Anki refuses such a package"),
    Case(
      id: "media name with ../ in a JSON deck", name: "escape.json",
      make: jsonDeck { text in
        guard
          let range = text.range(
            of: #""name": ""#, range: (text.range(of: #""media": ["#)?.upperBound ?? text.startIndex)..<text.endIndex)
        else { return text }
        return text.replacingCharacters(in: range, with: #""name": "../"#)
      },
      output: "out.apkg",
      message:
        ": at media[0].name: '../日本.png' is not a safe media file name (one path component, NFC, none of []<>:\"/?*^\\| or control characters)"
    ),
  ]

  @Test("damaged input", arguments: cases)
  func damaged(_ testCase: Case) throws {
    // The input in its own folder; the output in a folder inside another, so a file escaping
    // the output folder (../) would land in a folder the test checks.
    let inputFolder = try TemporaryDirectory()
    let outside = try TemporaryDirectory()
    let outputFolder = outside.path(for: "out")
    try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: false)
    let input = inputFolder.path(for: testCase.name)
    try testCase.make(input)
    let before = try Self.bytes(input)
    let output = (outputFolder as NSString).appendingPathComponent(testCase.output)

    let run = try CommandRun.deckport(["convert", input, output] + (testCase.strict ? ["--strict"] : []))
    #expect(run.status == 1, "stdout: \(run.standardOutput) stderr: \(run.standardError)")
    let warningLine = testCase.warning.map { "deckport: \(input)\($0)\n" } ?? ""
    #expect(run.standardError == warningLine + "deckport: error: \(input)\(testCase.message)\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: outputFolder) == [], "nothing left in the output folder")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["out"], "nothing outside the output folder")
    #expect(try FileManager.default.contentsOfDirectory(atPath: inputFolder.path) == [testCase.name])
    #expect(try Self.bytes(input) == before, "the input is unchanged")
  }

  @Test(
    "without --strict, a package whose media map names a missing member converts without that file, named in a warning")
  func missingMediaMemberLeftOut() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "missing.apkg")
    try Self.surgery(Self.legacy, .init(remove: ["0"]))(input)
    let output = scratch.path(for: "out.json")
    let run = try CommandRun.deckport(["convert", input, output])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.contains("member '0': warning: [media-missing] the media map lists '日本.png'"))
    let deck = try DeckLoader().load(path: output).collection
    let original = try DeckLoader().load(path: Self.legacy).collection
    #expect(deck.notes.map(\.fields) == original.notes.map(\.fields), "every note is kept")
    #expect(deck.media.map(\.name).sorted() == original.media.map(\.name).filter { $0 != "日本.png" }.sorted())
  }

  @Test("without --strict, a note whose fields are not UTF-8 is kept with U+FFFD and named in a warning")
  func invalidUTF8Kept() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "utf8.apkg")
    try Self.alteredCollection(
      "UPDATE notes SET flds = CAST(X'66FF1F62' AS TEXT) WHERE id = (SELECT min(id) FROM notes)")(input)
    let output = scratch.path(for: "out.json")
    let run = try CommandRun.deckport(["convert", input, output])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.contains("table notes, row 1795331276845: warning: [invalid-utf8]"))
    let json = try String(contentsOfFile: output, encoding: .utf8)
    #expect(json.contains("f\u{FFFD}"))
  }
}
