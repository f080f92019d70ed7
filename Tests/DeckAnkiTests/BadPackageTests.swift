import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Damaged packages, each made inside the test from a good fixture: every one must end in one
/// `DeckError` of the right kind whose message names the file and the member (and table/row).
@Suite("Damaged packages give one clear error")
struct BadPackageTests {
  /// One kind of damage and what the error must say.
  struct Case: CustomTestStringConvertible, Sendable {
    var id: String
    /// The good fixture the damage starts from.
    var base: String
    /// Builds the damaged file at the given path from the base fixture's path.
    var damage: @Sendable (_ base: String, _ output: String) throws -> Void
    var kind: DeckError.Kind
    /// The exact message expected after the `<path>: ` prefix.
    var message: String
    var testDescription: String { id }
  }

  static let latest = "latest_sched.apkg"
  static let legacy = "legacy2_sched.apkg"

  static func surgery(_ change: PackageSurgery.Change) -> @Sendable (String, String) throws -> Void {
    { base, output in try PackageSurgery.copy(base, to: output, applying: change) }
  }

  /// A schema-11 collection from the legacy fixture with `sql` applied to it.
  static func alteredCollection(_ sql: String) -> @Sendable (String, String) throws -> Void {
    { base, output in
      let scratch = try TemporaryDirectory()
      let databasePath = scratch.path(for: "collection.anki21")
      try PackageSurgery.member("collection.anki21", of: base).write(to: URL(fileURLWithPath: databasePath))
      let database = try SQLiteDatabase(
        path: databasePath, readOnly: false, location: SourceLocation(file: databasePath))
      try database.execute(sql)
      let data = try Data(contentsOf: URL(fileURLWithPath: databasePath))
      try PackageSurgery.copy(base, to: output, applying: .init(replace: ["collection.anki21": data]))
    }
  }

  static let cases: [Case] = [
    Case(
      id: "not a zip", base: legacy,
      damage: { _, output in try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: output)) },
      kind: .wrongFormat, message: "not a zip archive (Not a zip archive)"),
    Case(
      id: "truncated zip", base: latest,
      damage: { base, output in
        let data = try Data(contentsOf: URL(fileURLWithPath: base))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: output))
      },
      kind: .corrupt,
      message:
        "byte 30089: the zip archive is cut short: it ends here, without the end record that lists its members; a download or copy probably stopped early (Not a zip archive)"
    ),
    Case(
      id: "zip without a collection", base: legacy,
      damage: surgery(.init(remove: ["meta", "collection.anki21", "collection.anki2"])),
      kind: .missingPart,
      message: "not an Anki package: it has none of the members 'meta', 'collection.anki21' or 'collection.anki2'"),
    Case(
      id: "meta names a missing collection", base: latest,
      damage: surgery(.init(remove: ["collection.anki21b"])),
      kind: .missingPart,
      message:
        "member 'meta': 'meta' says package version 3, but the member 'collection.anki21b' it requires is missing"),
    Case(
      id: "unknown meta version", base: latest,
      damage: surgery(.init(replace: ["meta": Data([0x08, 0x04])])),
      kind: .unsupportedVersion,
      message:
        "member 'meta': package version 4 is unknown (known: 1, 2, 3); it needs a newer reader, as Anki says: \"This collection requires a newer version of Anki to open.\""
    ),
    Case(
      id: "meta version 0", base: latest,
      damage: surgery(.init(replace: ["meta": Data()])),
      kind: .unsupportedVersion,
      message:
        "member 'meta': package version 0 is unknown (known: 1, 2, 3); it needs a newer reader, as Anki says: \"This collection requires a newer version of Anki to open.\""
    ),
    Case(
      id: "meta not protobuf", base: latest,
      damage: surgery(.init(replace: ["meta": Data([0xFF, 0xFF, 0xFF])])),
      kind: .corrupt, message: "member 'meta': byte 0: protobuf: invalid varint"),
    Case(
      id: "collection not zstd", base: latest,
      damage: surgery(.init(replace: ["collection.anki21b": Data("SQLite format 3\0 not compressed".utf8)])),
      kind: .wrongFormat, message: "member 'collection.anki21b': not a zstd frame (Unknown frame descriptor)"),
    Case(
      id: "collection not SQLite", base: legacy,
      damage: surgery(.init(replace: ["collection.anki21": Data(repeating: 0x41, count: 4096)])),
      kind: .wrongFormat, message: "member 'collection.anki21': not an SQLite database (file is not a database)"),
    Case(
      id: "SQLite but not Anki", base: legacy,
      damage: alteredCollection("DROP TABLE notes"),
      kind: .wrongFormat,
      message: "member 'collection.anki21': not an Anki collection: the SQLite database has no 'notes' table"),
    Case(
      id: "schema too new", base: legacy,
      damage: alteredCollection("UPDATE col SET ver = 19"),
      kind: .unsupportedVersion,
      message:
        "member 'collection.anki21': table col, row 1: column ver: collection schema 19 is newer than the schemas deckport reads (11 to 18)"
    ),
    Case(
      id: "models not JSON", base: legacy,
      damage: alteredCollection("UPDATE col SET models = '{oops'"),
      kind: .corrupt,
      message: "member 'collection.anki21': table col, row 1: column models: not valid JSON"),
    Case(
      id: "latest without media map", base: latest,
      damage: surgery(.init(remove: ["media"])),
      kind: .missingPart,
      message:
        "member 'media': the media map is missing; a package of the latest generation must have one, even when empty"),
    Case(
      id: "latest media map not zstd", base: latest,
      damage: surgery(.init(replace: ["media": Data("{}".utf8)])),
      kind: .wrongFormat, message: "member 'media': not a zstd frame (Unknown frame descriptor)"),
    // A media map naming a missing member is read with a `media-missing` warning, the file
    // left out (DamagedInputTests, Tests/anki/test_real_damaged.py).
    Case(
      id: "legacy media map not JSON", base: legacy,
      damage: surgery(.init(replace: ["media": Data("{0: 'x'}".utf8)])),
      kind: .corrupt, message: "member 'media': the media map is not valid JSON"),
    Case(
      id: "media name escapes the folder", base: legacy,
      damage: surgery(.init(replace: ["media": Data(#"{"0": "../evil.png"}"#.utf8)])),
      kind: .corrupt,
      message:
        "member 'media': entry 0: media name '../evil.png' is not a single file name; Anki refuses such a package"),
    Case(
      id: "latest media name not NFC", base: latest,
      damage: { base, output in
        var entries = ProtobufWriter()
        var entry = ProtobufWriter()
        entry.writeString(field: 1, "cafe\u{301}.png")
        entry.writeVarint(field: 2, 3)
        entry.writeBytes(field: 3, Data(SHA1.digest(Data("abc".utf8))))
        entries.writeMessage(field: 1, entry)
        try PackageSurgery.copy(
          base, to: output,
          applying: .init(replace: ["media": try Zstd.compress(entries.data), "0": try Zstd.compress(Data("abc".utf8))])
        )
      },
      kind: .corrupt,
      message:
        "member 'media': entry 0: media name 'cafe\\u{301}.png' is not a safe, normalised file name; Anki refuses such a package"
    ),
  ]

  @Test(arguments: cases)
  func damagedPackage(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "damaged.apkg")
    try testCase.damage(Fixtures.path("anki/\(testCase.base)"), output)
    let error = try #require(throws: DeckError.self) {
      let contents = try AnkiPackageReader().read(path: output)
      // Media damage shows when the bytes are read, as it does for Anki.
      for file in contents.collection.media { _ = try file.blob.data() }
    }
    #expect(error.kind == testCase.kind)
    #expect(error.location.file == output)
    let prefix = "\(output): "
    #expect(error.description.hasPrefix(prefix + testCase.message), "got: \(error.description)")
  }

  @Test("a missing file names the file")
  func missingFile() throws {
    let error = try #require(throws: DeckError.self) {
      try AnkiPackageReader().read(path: "/nonexistent/deck.apkg")
    }
    #expect(error.kind == .unreadableFile)
    #expect(error.description.hasPrefix("/nonexistent/deck.apkg: "))
  }
}
