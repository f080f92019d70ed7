import DeckAnki
import DeckCore
import DeckIO
import Foundation
import Testing

/// Content Anki cannot represent is refused with one `DeckError` naming the output file and the
/// item, and nothing is written.
@Suite("Writing Anki packages: what is refused")
struct WriterErrorTests {
  /// A small valid collection: one Basic note with one card.
  static var basic: DeckCollection {
    DeckCollection(
      creationTime: 1_795_320_000,
      decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: 1_700_000_000_000, name: "Basic",
          fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
      ],
      notes: [Note(id: 10, guid: "abc", noteTypeID: 1_700_000_000_000, fields: ["front", "back"])],
      cards: [Card(id: 20, noteID: 10, templateOrdinal: 0, deckID: 1)])
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var id: String
    var change: @Sendable (inout DeckCollection) -> Void
    /// The item the error must name.
    var item: String
    /// The exact message expected.
    var message: String
    var testDescription: String { id }
  }

  static let noteType = "note type 'Basic' (id 1700000000000)"

  static func renameField(_ name: String) -> @Sendable (inout DeckCollection) -> Void {
    { $0.noteTypes[0].fields[0].name = name }
  }

  static let cases: [Case] = [
    Case(
      id: "field name with a colon", change: renameField("Fr:ont"), item: noteType,
      message: "field name 'Fr:ont' contains ':', which Anki removes from such names"),
    Case(
      id: "field name with a brace", change: renameField("{Front"), item: noteType,
      message: "field name '{Front' contains '{', which Anki removes from such names"),
    Case(
      id: "field name with a quote", change: renameField("Fr\"ont"), item: noteType,
      message: "field name 'Fr\"ont' contains '\"', which Anki removes from such names"),
    Case(
      id: "field name starting with #", change: renameField("#Front"), item: noteType,
      message: "field name '#Front' starts with '#', which Anki removes from such names"),
    Case(
      id: "field name starting with ^", change: renameField("^Front"), item: noteType,
      message: "field name '^Front' starts with '^', which Anki removes from such names"),
    Case(
      id: "field name with a trailing space", change: renameField("Front "), item: noteType,
      message: "field name 'Front ' starts or ends with white space, which Anki removes"),
    Case(
      id: "empty field name", change: renameField(""), item: noteType, message: "field name '' is empty"),
    Case(
      id: "field name not NFC", change: renameField("Cafe\u{301}"), item: noteType,
      message: "field name 'Cafe\u{301}' is not in Unicode NFC, which Anki converts it to"),
    Case(
      id: "duplicate field names", change: renameField("back"), item: noteType,
      message: "two fields are named 'Back' (Anki compares names ignoring case); Anki would rename one"),
    Case(
      id: "no fields",
      change: {
        $0.noteTypes[0].fields = []
        $0.notes[0].fields = []
      }, item: noteType, message: "it has no fields; Anki needs at least one"),
    Case(
      id: "no templates", change: { $0.noteTypes[0].templates = [] }, item: noteType,
      message: "it has no card templates; Anki needs at least one"),
    Case(
      id: "template name with a quote", change: { $0.noteTypes[0].templates[0].name = "Card \"1\"" },
      item: noteType, message: "template name 'Card \"1\"' contains '\"', which Anki removes from such names"),
    Case(
      id: "sort field out of range", change: { $0.noteTypes[0].sortFieldIndex = 2 }, item: noteType,
      message: "its sort field is number 3, but it has 2 fields"),
    Case(
      id: "negative sort field", change: { $0.noteTypes[0].sortFieldIndex = -1 }, item: noteType,
      message: "its sort field index is -1, which names no field (they count from 0)"),
    Case(
      id: "sort field at the largest integer", change: { $0.noteTypes[0].sortFieldIndex = .max }, item: noteType,
      message: "its sort field is number 9223372036854775808, but it has 2 fields"),
    Case(
      id: "note type name with a quote", change: { $0.noteTypes[0].name = "Basic \"x\"" },
      item: "note type 'Basic \"x\"' (id 1700000000000)",
      message: "the note type name contains '\"', which Anki removes from such names"),
    Case(
      id: "note of an unknown note type", change: { $0.notes[0].noteTypeID = 5 }, item: "note 10",
      message: "note uses note type 5, which the collection does not define; Anki would refuse the package"),
    Case(
      id: "two notes with one GUID",
      change: {
        $0.notes.append(Note(id: 11, guid: "abc", noteTypeID: 1_700_000_000_000, fields: ["x", "y"]))
        $0.cards.append(Card(id: 21, noteID: 11, templateOrdinal: 0, deckID: 1))
      }, item: "note 11",
      message:
        "note has the GUID 'abc' of note 10; Anki matches notes by GUID, so importing the package again would update only one of them (DuplicateGUIDPolicy keep-first or new-guid writes them)"
    ),
    Case(
      id: "two notes with one id",
      change: { $0.notes.append(Note(id: 10, guid: "def", noteTypeID: 1_700_000_000_000, fields: ["x", "y"])) },
      item: "note 10", message: "two of the collection's notes have the id 10; an Anki collection cannot hold both"),
    Case(
      id: "a filtered deck with a normal deck's name",
      change: {
        $0.decks.append(Deck(id: 2, name: "default", kind: .filtered(FilteredDeck(reschedule: true, searchTerms: []))))
      }, item: "deck 'default' (id 2)",
      message:
        "deck 1 has the same name (Anki compares names ignoring case), and one of the two is a filtered deck, so they cannot be made one; rename one of them"
    ),
    Case(
      id: "media name with nothing usable",
      change: { $0.media = [MediaFile(name: "???", blob: MediaBlob(data: Data("x".utf8)))] },
      item: "media file '???'",
      message: "the media file name has nothing Anki accepts in a file name; rename the file"),
  ]

  @Test("refused", arguments: cases, [AnkiPackageKind.apkg, .colpkg])
  func refused(_ testCase: Case, kind: AnkiPackageKind) throws {
    var collection = Self.basic
    testCase.change(&collection)
    // An .apkg leaves out a file no note can refer to (with a warning) before judging its name.
    if testCase.id == "media name with nothing usable" && kind == .apkg { return }
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.\(kind.rawValue)")
    let destination = "/somewhere/deck.\(kind.rawValue)"
    let error = #expect(throws: DeckError.self) {
      try AnkiPackageWriter(options: .init(generation: .legacy2, kind: kind))
        .write(collection, to: path, reportingAs: destination)
    }
    #expect(error?.location.file == destination)
    #expect(error?.location.item == testCase.item)
    #expect(error?.message == testCase.message)
    #expect(error?.kind == .invalidRequest)
    #expect(!FileManager.default.fileExists(atPath: path), "a refused package must not be written")
  }
}
