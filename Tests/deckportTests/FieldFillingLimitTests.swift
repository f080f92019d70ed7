import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A small input whose note type has thousands of fields and whose notes give one each: filled
/// with empty values, 3,000 notes of 3,000 fields would hold 9 million values (an input of
/// 20,000 of each held 6.3 GB). Every reader and writer that fills notes stops at
/// ``FieldFilling/limit`` with one line naming the note type and the note, exit status 1, no hint
/// to raise an unpack limit, and nothing written.
@Suite("Notes filled to a note type of thousands of fields: refused by FieldFilling's limit")
struct FieldFillingLimitTests {
  static let width = 3000

  static func fieldNames(_ prefix: String = "F") -> [String] { (0..<width).map { "\(prefix)\($0)" } }

  static func jsonText(_ object: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  }

  /// Runs `deckport convert input out.json` (with `extra` options) and checks the refusal: at
  /// `place`, naming the note type, with no hint to raise an unpack limit.
  static func expectRefused(
    _ input: String, in scratch: TemporaryDirectory, extra: [String] = [], place: String, noteType: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    try expectConversionRefused(
      input, in: scratch, output: "out.json", extra: extra,
      starting:
        "\(place): note type '\(noteType)' has 3000 fields and this note gives values for 1: filling the notes so far with empty values",
      ending: "remove the fields the notes do not use from the note type, or give the notes their values",
      sourceLocation: sourceLocation)
  }

  /// The line of the error, and the index of the first note past the limit: the empty values of
  /// `index + 1` notes (each leaving out all fields but one) pass 4 Mi and twice their text.
  static func firstNotePast(textBytes: (Int) -> Int) -> Int {
    var text = 0
    for index in 0..<width {
      text += textBytes(index)
      if (index + 1) * (width - 1) > FieldFilling.allowance + FieldFilling.perTextByte * text { return index }
    }
    return -1
  }

  @Test("a deckport JSON document: at the note's path")
  func jsonDocument() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "wide.json")
    let document: [String: Any] = [
      "format": "deckport-deck", "version": 1,
      "noteTypes": [
        [
          "id": 1, "name": "Wide", "kind": "standard", "fields": Self.fieldNames().map { ["name": $0] },
          "templates": [["name": "Card 1", "question": "{{F0}}", "answer": "{{F1}}"]],
        ]
      ],
      "notes": (0..<Self.width).map { ["guid": "g\($0)", "noteType": 1, "fields": ["F0": "x\($0)"]] },
    ]
    try Self.jsonText(document).write(to: URL(fileURLWithPath: input))
    let index = Self.firstNotePast { "x\($0)".utf8.count }
    try Self.expectRefused(input, in: scratch, place: "\(input): at notes[\(index)].fields", noteType: "Wide")
  }

  @Test("a CSV file whose first row makes the note type: at the row's line")
  func csvRowsFilledByTheBuilder() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "wide.csv")
    let rows = (0..<Self.width).map { "x\($0)\n" }.joined()
    let text = "#separator:comma\n#notetype:Wide\n" + Self.fieldNames("c").joined(separator: ",") + "\n" + rows
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
    // Line 3 is the wide row (its text counts too); the short rows start on line 4.
    let wideText = Self.fieldNames("c").joined().utf8.count
    let index = Self.firstNotePast { "x\($0)".utf8.count + ($0 == 0 ? wideText : 0) }
    try Self.expectRefused(input, in: scratch, place: "\(input):\(index + 4)", noteType: "Wide")
  }

  @Test("a spreadsheet whose header names the fields: at the row's line")
  func csvRowsFilledByTheMapper() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "wide.csv")
    let text = Self.fieldNames().joined(separator: ",") + "\n" + (0..<Self.width).map { "x\($0)\n" }.joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
    let index = Self.firstNotePast { "x\($0)".utf8.count }
    try Self.expectRefused(
      input, in: scratch, extra: ["--header", "--note-type", "Wide"], place: "\(input):\(index + 2)", noteType: "Wide")
  }

  @Test("a CrowdAnki folder: at the note's fields")
  func crowdAnki() throws {
    let scratch = try TemporaryDirectory()
    var deck = try CrowdAnkiFixtureDeck.deck()
    var models = try #require(deck["note_models"] as? [[String: Any]])
    let field = try #require((models[0]["flds"] as? [[String: Any]])?.first)
    models[0]["flds"] = Self.fieldNames().enumerated().map { ord, name in
      field.merging(["name": name, "ord": ord]) { $1 }
    }
    models[0]["name"] = "Wide"
    let modelUUID = try #require(models[0]["crowdanki_uuid"] as? String)
    let note = try #require(CrowdAnkiFixtureDeck.firstNote(in: deck))
    deck["note_models"] = models
    deck["children"] = [Any]()
    deck["media_files"] = [Any]()
    deck["notes"] = (0..<Self.width).map {
      note.merging(["guid": "g\($0)", "fields": ["x\($0)"], "note_model_uuid": modelUUID]) { $1 }
    }
    let folder = try CrowdAnkiFixtureDeck.folder("Wide", in: scratch, holding: deck)
    let index = Self.firstNotePast { "x\($0)".utf8.count }
    try Self.expectRefused(
      folder, in: scratch, place: "\(folder)/deck.json: at notes[\(index)].fields", noteType: "Wide")
  }

  @Test("app records of a key each: at the record")
  func appRecords() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "cards.json")
    try Self.jsonText((0..<Self.width).map { ["k\($0)": "v"] }).write(to: URL(fileURLWithPath: input))
    let index = Self.firstNotePast { _ in 1 }
    try Self.expectRefused(
      input, in: scratch, place: "\(input): record type 'cards', record \(index + 1)", noteType: "cards (app records)")
  }

  /// A collection of `width` notes that give one value each for a note type of `width` fields,
  /// as an Anki package with such notes reads (its reader keeps a note's values as stored).
  static var shortNotes: DeckCollection {
    DeckCollection(
      creationTime: 1_795_320_000, decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: 77, name: "Wide", fields: fieldNames().map { NoteType.Field(name: $0) },
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{F0}}", answerFormat: "{{F1}}")])
      ],
      notes: (0..<width).map { Note(id: Int64(100 + $0), guid: "g\($0)", noteTypeID: 77, fields: ["x"]) },
      cards: (0..<width).map { Card(id: Int64(10_000 + $0), noteID: Int64(100 + $0), templateOrdinal: 0, deckID: 1) })
  }

  @Test(
    "every writer that fills notes refuses, naming the note; Cards in Plain Text fills nothing")
  func writers() throws {
    let scratch = try TemporaryDirectory()
    // Every note's text ("x") is counted before the first is filled.
    let index = (0..<Self.width).first {
      ($0 + 1) * (Self.width - 1) > FieldFilling.allowance + FieldFilling.perTextByte * Self.width
    }
    var refused: [String] = []
    var written: [String] = []
    // Through the library's own entry point, which puts an output in place whole or not at all.
    let deck = LoadedDeck(collection: Self.shortNotes, formatName: "apkg-latest")
    for name in FormatRegistry.standard.outputNames where name != .coreData {
      let path = scratch.path(for: "deck-\(name.rawValue)")
      do {
        _ = try DeckConverter().write(deck, to: path, options: ConversionOptions(to: name))
        written.append(name.rawValue)
      } catch let error as DeckError {
        refused.append(name.rawValue)
        #expect(error.kind == .memoryLimitExceeded, "\(name.rawValue): \(error)")
        #expect(error.location.item?.hasSuffix("note \(100 + (index ?? -1))") == true, "\(name.rawValue): \(error)")
        #expect(
          error.message.hasPrefix("note type 'Wide' has 3000 fields and this note gives values for 1:"),
          "\(name.rawValue): \(error)")
      }
    }
    // Cards in Plain Text shows a field a note leaves out as empty, filling nothing; a refused
    // write leaves nothing behind, not even a temporary file.
    #expect(written == ["cards"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck-cards"])
    #expect(
      refused.sorted() == [
        "apkg", "apkg-modern", "app-json", "colpkg", "colpkg-modern", "crowdanki", "csv", "json", "json-dir", "plist",
        "sqlite", "tsv",
      ])
  }
}
