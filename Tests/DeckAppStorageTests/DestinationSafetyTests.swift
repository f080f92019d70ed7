import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@testable import DeckAppStorage

/// Writing into existing storage that cannot take the records faithfully: a destination deckport
/// cannot read whole is refused (never replaced), text an XML plist cannot hold is refused, and
/// records without keys are matched like any other.
@Suite("Destinations written only when nothing is lost")
struct DestinationSafetyTests {
  /// An SQLite records file in `scratch` holding the record type `cards`: three records of keys
  /// `w` and `n` (5, 6, 7).
  static func sqliteHoldingThreeCards(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "s.sqlite")
    let held = AppRecords(
      name: "cards",
      records: [5, 6, 7].map { AppRecord([("w", .string("w\($0)")), ("n", .integer(Int64($0)))]) })
    _ = try AppStorageWriter().write(held, to: path)
    return path
  }

  /// One new card of the Flashzilla profile, to write into a file that holds others.
  static var newFlashzillaCard: AppRecords {
    var incoming = AppRecords(
      name: "Card",
      records: [
        AppRecord([
          ("id", .uuid(UUID(uuidString: "0A1B2C3D-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())),
          ("prompt", .string("new")), ("answer", .string("b")),
        ])
      ])
    incoming.profile = .flashzilla
    return incoming
  }

  /// The record written into each destination.
  static let incoming = AppRecords(name: "cards", records: [AppRecord([("w", .string("new")), ("n", .integer(2))])])

  /// A JSON destination's text and the message after `<path>`.
  struct UnreadableJSON: Sendable, CustomTestStringConvertible {
    var id: String
    var text: String
    var message: String
    var testDescription: String { id }
  }

  static let refusal = "; deckport changes only a file it can read whole, so nothing was written"

  static let unreadableJSON = [
    UnreadableJSON(
      id: "an integer beyond 64 bits",
      text: #"{"settings":{"theme":"dark","big":18446744073709551616},"cards":[{"w":"a","n":1}]}"#,
      message: ":1:35: invalid JSON: the integer 18446744073709551616 does not fit in 64 bits" + refusal),
    UnreadableJSON(
      id: "a key twice", text: #"{"cards":[{"w":"a","n":1}],"cards":[{"w":"b","n":3}],"settings":{}}"#,
      message: ":1:28: invalid JSON: the key \"cards\" occurs twice in this object" + refusal),
    UnreadableJSON(
      id: "NaN", text: #"{"cards":[{"w":"a","n":1}],"ratio":NaN}"#,
      message: ":1:36: invalid JSON: expected a value (an object, array, string, number, true, false or null)"
        + refusal),
    UnreadableJSON(
      id: "an item that is no record", text: #"[{"w":"a","n":1},{"w":"b","n":3},"note"]"#,
      message: ": record 3: is a string, not an object" + refusal),
    UnreadableJSON(
      id: "a lone surrogate", text: #"{"cards":[{"w":"a","n":1}],"s":"\udc00"}"#,
      message: ":1:33: invalid JSON: a lone low surrogate \\udc00"
        + refusal),
    UnreadableJSON(
      id: "a string, no records", text: #""just text""#,
      message: ": the file holds a string, not an array of records" + refusal),
    UnreadableJSON(
      id: "a key holding no array", text: #"{"cards":"none yet"}"#,
      message: ": key 'cards': the key holds a string, not an array of records" + refusal),
  ]

  @Test(arguments: unreadableJSON, [ExistingFilePolicy.replace, .backup])
  func unreadableJSONDestination(_ testCase: UnreadableJSON, policy: ExistingFilePolicy) throws {
    for dryRun in [false, true] {
      let scratch = try TemporaryDirectory()
      let path = scratch.path(for: "cards.json")
      try Data(testCase.text.utf8).write(to: URL(fileURLWithPath: path))
      let error = try #require(throws: DeckError.self) {
        try AppStorageWriter().write(
          Self.incoming, to: path,
          options: AppWriteOptions(storage: AppStorageOptions(key: "cards"), existing: policy, dryRun: dryRun))
      }
      #expect(error.description == path + testCase.message)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(testCase.text.utf8))
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["cards.json"])
    }
  }

  @Test("a JSON destination read whole is changed with --force: its other keys kept, the record added")
  func readableJSONDestination() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "cards.json")
    try Data(#"{"settings":{"theme":"dark"},"cards":[{"w":"a","n":1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
    let report = try AppStorageWriter().write(Self.incoming, to: path, options: AppWriteOptions(existing: .replace))
    #expect(report.merge == AppRecordMergeSummary(added: 1))
    #expect(
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        == #"{"settings":{"theme":"dark"},"cards":[{"w":"a","n":1},{"w":"new","n":2}]}"#)
  }

  @Test("an SQLite record type with a cell deckport cannot read keeps its records: the table, row and column named")
  func unreadableSQLiteRecordType() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.sqliteHoldingThreeCards(in: scratch)
    try AppFixtures.execute("UPDATE cards SET n = 'six' WHERE deckport_position = 1", on: path)
    let before = try AppFixtures.snapshot(path)
    for (policy, dryRun) in [(ExistingFilePolicy.replace, false), (.backup, false), (.replace, true)] {
      let error = try #require(throws: DeckError.self) {
        try AppStorageWriter().write(
          Self.incoming, to: path, options: AppWriteOptions(existing: policy, dryRun: dryRun))
      }
      #expect(
        error.description
          == "\(path): table cards, row 1: column 'n': expected an integer (the field's type is integer), found the text 'six'"
          + Self.refusal)
      #expect(try AppFixtures.snapshot(path) == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["s.sqlite"])
    }
  }

  @Test(
    "an SQLite file is refused at an unreadable cell of any record type: the one replaced (read once, to merge, also for records of a profile) and every other"
  )
  func unreadableSQLiteCellAnywhere() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "s.sqlite")
    let card = AppRecord([
      ("id", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())), ("prompt", .string("p")),
      ("answer", .string("a")),
    ])
    var cards = AppRecords(name: "Card", records: [card])
    cards.profile = .flashzilla
    _ = try AppStorageWriter().write(cards, to: path)
    _ = try AppStorageWriter().write(
      AppRecords(name: "words", records: [AppRecord([("n", .integer(1))]), AppRecord([("n", .integer(2))])]), to: path,
      options: AppWriteOptions(existing: .replace))
    let incoming = Self.newFlashzillaCard
    // A cell of the record type replaced, for records of its profile.
    try AppFixtures.execute("UPDATE \"Card\" SET prompt = x'00ff' WHERE deckport_position = 0", on: path)
    var before = try AppFixtures.snapshot(path)
    let replaced = try #require(throws: DeckError.self) {
      try AppStorageWriter().write(incoming, to: path, options: AppWriteOptions(existing: .replace))
    }
    #expect(
      replaced.description
        == "\(path): table Card, row 0: column 'prompt': expected text (the field's type is string), found a blob of 2 bytes"
        + Self.refusal)
    #expect(try AppFixtures.snapshot(path) == before)
    // A cell of another record type.
    try AppFixtures.execute(
      "UPDATE \"Card\" SET prompt = 'p' WHERE deckport_position = 0; UPDATE words SET n = 2.5 WHERE deckport_position = 1",
      on: path)
    before = try AppFixtures.snapshot(path)
    let other = try #require(throws: DeckError.self) {
      try AppStorageWriter().write(incoming, to: path, options: AppWriteOptions(existing: .backup))
    }
    #expect(
      other.description
        == "\(path): table words, row 1: column 'n': expected an integer (the field's type is integer), found the real 2.5"
        + Self.refusal)
    #expect(try AppFixtures.snapshot(path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["s.sqlite"])
    // Readable again, the write goes through, the record type read once and merged.
    try AppFixtures.execute("UPDATE words SET n = 3 WHERE deckport_position = 1", on: path)
    let report = try AppStorageWriter().write(incoming, to: path, options: AppWriteOptions(existing: .replace))
    #expect(report.merge == AppRecordMergeSummary(added: 1))
    let written = try AppStorageReader().read(path: path, options: AppStorageOptions(entity: "Card")).records
    #expect(written.records.map { $0["prompt"] } == [.string("p"), .string("new")])
  }

  /// A read of the SQLite record type being replaced that fails as a read can at any time, and
  /// the message after `<path>` that refuses the write.
  struct FailedHeldRead: Sendable, CustomTestStringConvertible {
    var id: String
    /// What the read throws.
    var error: any Error
    /// The message after the destination's path; nil for an error thrown as it is.
    var message: String?
    var testDescription: String { id }
  }

  static let failedHeldReads = [
    FailedHeldRead(
      id: "a store changed while it was being copied",
      error: DeckError(
        .unreadableFile, at: SourceLocation(file: "s.sqlite"),
        "the store changed while it was being copied (SQLITE_BUSY: its -wal is being written); quit the app that uses it and try again"
      ),
      message:
        ": the store changed while it was being copied (SQLITE_BUSY: its -wal is being written); quit the app that uses it and try again"
        + refusal),
    FailedHeldRead(
      id: "an I/O error in the table",
      error: DeckError(
        .unreadableFile, at: SourceLocation(file: "s.sqlite").table("cards", row: 2), "SQLite: disk I/O error"),
      message: ": table cards, row 2: SQLite: disk I/O error" + refusal),
    FailedHeldRead(
      id: "a memory limit",
      error: DeckError(
        .memoryLimitExceeded, at: SourceLocation(file: "s.sqlite").table("cards"),
        "the records would take more memory than the limit allows"),
      message: ": table cards: the records would take more memory than the limit allows" + refusal),
    FailedHeldRead(
      id: "a request error, for records without a profile",
      error: DeckError(
        .invalidRequest, at: SourceLocation(file: "s.sqlite").table("cards"), "SQLite: authorization denied"),
      message: ": table cards: SQLite: authorization denied" + refusal),
    FailedHeldRead(
      id: "an error that is no DeckError", error: CocoaError(.fileReadUnknown),
      message: ": cannot read the records it holds (\(CocoaError(.fileReadUnknown).localizedDescription))" + refusal),
    FailedHeldRead(id: "a cancellation", error: CancellationError(), message: nil),
  ]

  @Test(
    "an SQLite record type that cannot be read for any reason but its absence keeps its records: the write is refused, the file as it was",
    arguments: failedHeldReads)
  func failedSQLiteHeldRead(_ testCase: FailedHeldRead) throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.sqliteHoldingThreeCards(in: scratch)
    let before = try AppFixtures.snapshot(path)
    // The read of the record type replaced fails, with the error's place in the destination;
    // the writer itself (which reads the other record types) would go on.
    var writer = AppStorageWriter()
    writer.readHeld = { readPath, _, _ in
      guard let error = testCase.error as? DeckError else { throw testCase.error }
      var location = error.location
      location.file = readPath
      throw DeckError(error.kind, at: location, error.wording)
    }
    for (policy, dryRun) in [(ExistingFilePolicy.replace, false), (.backup, false), (.replace, true)] {
      let options = AppWriteOptions(existing: policy, dryRun: dryRun)
      if let message = testCase.message {
        let error = try #require(throws: DeckError.self) { try writer.write(Self.incoming, to: path, options: options) }
        #expect(error.description == path + message)
        #expect(error.location.file == path)
      } else {
        #expect(throws: CancellationError.self) { try writer.write(Self.incoming, to: path, options: options) }
      }
      #expect(try AppFixtures.snapshot(path) == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["s.sqlite"])
    }
    #expect(
      try AppStorageReader().read(path: path).records.records.map { $0.fields.map(\.value) }
        == [5, 6, 7].map {
          [AppValue.string("w\($0)"), .integer(Int64($0))]
        })
  }

  @Test(
    "records of a profile into an SQLite record type that does not fit it: a failed read without the profile refuses the write too"
  )
  func failedSQLiteHeldReadAfterMisfit() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "s.sqlite")
    let held = AppRecords(name: "Card", records: [AppRecord([("w", .string("w1")), ("n", .integer(1))])])
    _ = try AppStorageWriter().write(held, to: path)
    let before = try AppFixtures.snapshot(path)
    let incoming = Self.newFlashzillaCard
    // The records do not fit the profile (as the storage reader says); read again without it,
    // the record type cannot be read.
    var writer = AppStorageWriter()
    writer.readHeld = { readPath, kind, options in
      guard options.profile == .generic else {
        return try AppStorageReader().read(path: readPath, kind: kind, options: options)
      }
      throw DeckError(.unreadableFile, at: SourceLocation(file: readPath).table("Card"), "SQLite: disk I/O error")
    }
    let error = try #require(throws: DeckError.self) {
      try writer.write(incoming, to: path, options: AppWriteOptions(existing: .replace))
    }
    #expect(error.description == "\(path): table Card: SQLite: disk I/O error" + Self.refusal)
    #expect(try AppFixtures.snapshot(path) == before)
  }

  @Test("a Core Data store written as deckport's SQLite records is refused with what to write it as, untouched")
  func coreDataStoreAsSQLite() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = try AppFixtures.copy("../apple-stores/SampleModel_V1.sqlite", into: scratch, as: "store.sqlite")
    let before = try AppFixtures.snapshot(path)
    let error = try #require(throws: DeckError.self) {
      try AppStorageWriter().write(
        Self.incoming, to: path, kind: .sqlite, options: AppWriteOptions(existing: .replace))
    }
    #expect(error.kind == .invalidRequest)
    #expect(error.wording.description.contains("write into it in the core-data format"))
    #expect(try AppFixtures.snapshot(path) == before)
  }

  /// An XML plist holding `Cards` as an array of dictionaries and another key.
  static func xmlPlist(at path: String) throws {
    let root: [String: Any] = ["Cards": [["s": "plain"]], "other": "keep"]
    try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: path))
  }

  @Test(
    "text an XML plist cannot hold is refused naming the record and key; a binary plist takes it",
    arguments: [
      ("nul\u{0}x", "U+0000 (character 4)"), ("vt\u{B}x", "U+000B (character 3)"),
      ("x\u{FFFE}", "U+FFFE (character 2)"),
    ])
  func xmlPlistCharacters(text: String, named: String) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "x.plist")
    try Self.xmlPlist(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let records = AppRecords(
      name: "Cards", records: [AppRecord([("s", .string("fine"))]), AppRecord([("s", .string(text))])])
    let error = try #require(throws: DeckError.self) {
      try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
    }
    #expect(
      error.description
        == "\(path): key 'Cards': record 3, key 's': the text holds \(named), which XML 1.0 cannot hold, raw or as a character reference, so an XML plist cannot (a binary plist can)"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

    let binary = scratch.path(for: "b.plist")
    try PropertyListSerialization.data(fromPropertyList: ["Cards": [["s": "plain"]]], format: .binary, options: 0)
      .write(to: URL(fileURLWithPath: binary))
    _ = try AppStorageWriter().write(records, to: binary, options: AppWriteOptions(existing: .replace))
    #expect(try AppStorageReader().read(path: binary).records.records.last == AppRecord([("s", .string(text))]))
  }

  @Test("the check of an XML plist's characters is the specification's, apart from the writer's escaping")
  func xmlCharacterAudit() {
    let text = "<a>tab\tnl\ncr\r ok 日本 🃏 \u{D7FF}\u{E000}\u{FFFD}\u{10000}</a>\n<b>\u{1}x\u{FFFF}\u{0}</b>"
    let audit = XMLCharacterAudit.audit(of: Data(text.utf8))
    #expect(audit.count == 3)
    #expect(audit.first?.description == "U+0001 at line 3, column 4")
    #expect(XMLCharacterAudit.audit(of: Data("<a>fine 🃏\t</a>".utf8)) == XMLCharacterAudit.Summary())
    var utf16 = Data([0xFF, 0xFE])
    for unit in "<a>\u{B}</a>\n\u{1}".utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
    // An odd last byte is no unit.
    utf16.append(0x01)
    let little = XMLCharacterAudit.audit(of: utf16)
    #expect(little.count == 2)
    #expect(little.first?.description == "U+000B at line 1, column 4")
    var bigEndian = Data([0xFE, 0xFF])
    for unit in "x\u{FFFE}".utf16 { bigEndian.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
    #expect(XMLCharacterAudit.audit(of: bigEndian).first?.description == "U+FFFE at line 1, column 2")
    // Bytes that are no UTF-8 read as U+FFFD, a character XML holds; the control after them does not.
    let audit8 = XMLCharacterAudit.audit(of: Data([0x3C, 0xC3, 0x28, 0x1B]))
    #expect(audit8.count == 1)
    #expect(audit8.first?.description == "U+001B at line 1, column 4")
  }

  @Test("records without keys match held ones without keys, one each; a record without identity values by its content")
  func emptyRecordsMatch() throws {
    let location = SourceLocation(file: "cards.json")
    let held = [AppRecord([("n", .integer(1))]), AppRecord(), AppRecord()]
    let incoming = AppRecords(name: "cards", records: [AppRecord([("n", .integer(1))]), AppRecord(), AppRecord()])
    let again = try AppRecordMergePlan(
      existing: held, existingKeys: [], incoming: incoming, matching: AppRecordMatching(), location: location)
    #expect(again.summary == AppRecordMergeSummary(unchanged: 3))
    #expect(again.changes.isEmpty)
    #expect(again.matchedExisting == [0, 1, 2])

    let more = incoming.replacingRecords([AppRecord(), AppRecord(), AppRecord()])
    let plan = try AppRecordMergePlan(
      existing: held, existingKeys: [], incoming: more, matching: AppRecordMatching(), location: location)
    #expect(plan.summary == AppRecordMergeSummary(added: 1, unchanged: 2))
    #expect(plan.merged.count == 4)

    // Identity keys without a value identify nothing: the whole record does.
    let byKeys = AppRecordMatching(keys: ["title", "text"])
    let logs = [AppRecord([("title", .string("a"))]), AppRecord(), AppRecord([("mood", .integer(3))])]
    let logsAgain = try AppRecordMergePlan(
      existing: logs, existingKeys: [],
      incoming: incoming.replacingRecords([AppRecord([("mood", .integer(3))]), AppRecord()]),
      matching: byKeys, location: location)
    #expect(logsAgain.summary == AppRecordMergeSummary(unchanged: 2))
    #expect(logsAgain.matchedExisting == [2, 1])
    let refused = try #require(throws: DeckError.self) {
      try AppRecordMergePlan(
        existing: logs, existingKeys: [], incoming: incoming.replacingRecords([AppRecord()]),
        matching: AppRecordMatching(policy: .fail, keys: ["title", "text"]), location: location)
    }
    #expect(refused.message.contains("(by its content)"))
    // A record whose identity keys hold values is matched by them alone, never by content.
    let titled = try AppRecordMergePlan(
      existing: [AppRecord([("title", .string("a")), ("mood", .integer(1))])], existingKeys: [],
      incoming: incoming.replacingRecords([AppRecord([("title", .string("a")), ("mood", .integer(2))])]),
      matching: byKeys, location: location)
    #expect(titled.summary == AppRecordMergeSummary(updated: 1))
  }

  @Test("records without keys written again into each kind of file leave it as it was")
  func emptyRecordsWrittenAgain() throws {
    let scratch = try TemporaryDirectory()
    let records = AppRecords(name: "cards", records: [AppRecord([("n", .integer(1))]), AppRecord(), AppRecord()])
    for name in ["out.json", "out.plist", "out.sqlite"] {
      let path = scratch.path(for: name)
      _ = try AppStorageWriter().write(records, to: path)
      let before = try AppFixtures.snapshot(path)
      let report = try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
      #expect(report.merge == AppRecordMergeSummary(unchanged: 3), "\(name)")
      #expect(report.leftAsItWas, "\(name)")
      #expect(try AppFixtures.snapshot(path) == before, "\(name)")
    }
  }
}
