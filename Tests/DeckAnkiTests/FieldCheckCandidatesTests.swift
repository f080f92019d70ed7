import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// The notes the writer's field checks look at (``FieldCheckCandidates``): every note a check
/// changes or refuses is among them, in both halves of a large deck's split scan, and the
/// package written from such a deck holds each change.
@Suite("The writer's field checks look at the notes they may change, found on both cores")
struct FieldCheckCandidatesTests {
  /// What a field may hold that one of the checks changes, with the field that shows it.
  static let changing: [(what: String, field: String)] = [
    ("U+001F", "a\u{1F}b"),
    ("NUL", "a\u{0}b"),
    ("a carriage return", "line\r\nnext"),
    ("DEL", "a\u{7F}b"),
    ("NFD text", "cafe\u{0301}"),
    ("a media name Anki renames", "<img src=\"a:b.png\">"),
    ("a sound name Anki renames", "[sound:x?.mp3]"),
  ]

  /// Fields no check changes: markup, NFC text from U+0300 on, tab and line feed.
  static let plain = ["<b>bold</b> [not sound]", "日本語 and é", "tab\tand\nline", "<img src=\"ok.png\">"]

  static let noteTypeID: Int64 = 1_700_000_000_000

  static func note(_ index: Int, _ fields: [String], tags: [String] = []) -> Note {
    Note(id: Int64(1000 + index), guid: "g\(index)", noteTypeID: noteTypeID, fields: fields, tags: tags)
  }

  @Test(
    "each kind of change makes its note a candidate; plain notes are not",
    arguments: [AnkiPackageKind.apkg, .colpkg])
  func eachKind(kind: AnkiPackageKind) {
    let counts = [Self.noteTypeID: 2]
    for (what, field) in Self.changing {
      // A collection package keeps NFD text; its notes with any control character are looked at,
      // though only U+001F and NUL are taken out of them (the scan does not tell them apart).
      let changes = kind == .apkg || what != "NFD text"
      #expect(
        FieldCheckCandidates.mayChange(Self.note(0, ["x", field]), fieldCounts: counts, kind: kind) == changes,
        "\(what) in a \(kind)")
    }
    for field in Self.plain {
      #expect(!FieldCheckCandidates.mayChange(Self.note(0, [field, field]), fieldCounts: counts, kind: kind))
    }
    #expect(FieldCheckCandidates.mayChange(Self.note(0, ["only one field"]), fieldCounts: counts, kind: kind))
    #expect(FieldCheckCandidates.mayChange(Self.note(0, ["a", "b"]), fieldCounts: [:], kind: kind))
    #expect(
      FieldCheckCandidates.mayChange(Self.note(0, ["a", "b"], tags: ["two words"]), fieldCounts: counts, kind: kind)
        == (kind == .colpkg))
  }

  @Test("a large deck's candidates are found in both halves, in order, and each change is written")
  func largeDeck() throws {
    let count = FieldCheckCandidates.splitFrom * 2 + 7
    let positions = [0, 3, count / 2 - 1, count / 2, count / 2 + 1, count - 2, count - 1]
    var notes = (0..<count).map { Self.note($0, ["front \($0)", Self.plain[$0 % Self.plain.count]]) }
    for (offset, position) in positions.enumerated() {
      notes[position].fields[1] = Self.changing[offset % Self.changing.count].field
    }
    let found = FieldCheckCandidates.indices(of: notes, fieldCounts: [Self.noteTypeID: 2], kind: .apkg)
    #expect(found == positions)

    let collection = DeckCollection(
      creationTime: 1_795_320_000, decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: Self.noteTypeID, name: "Basic", fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
      ],
      notes: notes,
      cards: notes.indices.map { Card(id: Int64(500_000 + $0), noteID: notes[$0].id, templateOrdinal: 0, deckID: 1) })
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let path = scratch.path(for: "large.apkg")
    let warnings = try AnkiPackageWriter(options: .init(generation: .latest, kind: .apkg))
      .write(collection, to: path, reportingAs: path)
    let back = try AnkiPackageReader().read(path: path).collection.notes
    let backs = Dictionary(uniqueKeysWithValues: back.map { ($0.id, $0.fields[1]) })
    let expected = ["ab", "ab", "line\nnext", "ab", "café", "<img src=\"ab.png\">", "[sound:x.mp3]"]
    for (offset, position) in positions.enumerated() {
      #expect(backs[notes[position].id] == expected[offset % expected.count], "note at \(position)")
    }
    // Every other note is written as it was given.
    for index in notes.indices where !positions.contains(index) {
      #expect(backs[notes[index].id] == notes[index].fields[1])
    }
    #expect(warnings.contains { $0.category == .fieldChanged })
  }
}
