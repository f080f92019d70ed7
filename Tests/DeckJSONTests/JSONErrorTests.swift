import DeckCore
import DeckIO
import DeckJSON
import Foundation
import Testing

@Suite("JSON deck format: bad input")
struct JSONErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var id: String
    var json: String
    var kind: DeckError.Kind
    /// The message after the path prefix `<file>`.
    var message: String
    var testDescription: String { id }
  }

  static let valid = #""format": "deckport-deck", "version": 1"#
  static let basic =
    #""noteTypes": [{"name": "Basic", "fields": [{"name": "Front"}, {"name": "Back"}], "templates": [{"name": "Card 1", "question": "{{Front}}"}]}]"#

  static let cases: [Case] = [
    Case(
      id: "not JSON", json: "hello", kind: .wrongFormat,
      message:
        ":1:1: invalid JSON: expected a value (an object, array, string, number, true, false or null) (near 'hello')"),
    Case(
      id: "missing comma", json: "{\n  \"format\": \"deckport-deck\"\n  \"version\": 1}", kind: .wrongFormat,
      message: ":3:3: invalid JSON: expected ',' or '}' after an object value (near '\"version\": 1}')"),
    Case(
      id: "unterminated string", json: "{\"format\": \"deckport-deck", kind: .wrongFormat,
      message: ":1:12: invalid JSON: this string has no closing quote (near '\"deckport-deck')"),
    Case(
      id: "truncated", json: "{\"format\": ", kind: .wrongFormat,
      message: ":1:12: invalid JSON: the document ends where a value should be (at the end of the file)"),
    Case(
      id: "not a deck document", json: "[1, 2]", kind: .corrupt,
      message: ": at (top level): expected an object"),
    Case(
      id: "no format marker", json: #"{"notes": []}"#, kind: .wrongFormat,
      message: #": at format: not a deckport deck document: the top-level key "format": "deckport-deck" is missing"#),
    Case(
      id: "unknown version", json: #"{"format": "deckport-deck", "version": 7, "notes": 3}"#, kind: .unsupportedVersion,
      message: ": at version: deckport deck format version 7 is not supported; this deckport reads version 1"),
    Case(
      id: "fields not an object",
      json: "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"fields\": [\"a\", \"b\"]}]}", kind: .corrupt,
      message: ": at notes[0].fields: expected an object of strings"),
    Case(
      id: "field value not a string",
      json: "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"fields\": {\"Front\": 3}}]}", kind: .corrupt,
      message: ": at notes[0].fields.Front: expected a string"),
    Case(
      id: "missing key", json: "{\(valid), \(basic), \"notes\": [{\"fields\": {}}]}", kind: .corrupt,
      message: #": at notes[0].noteType: the key "noteType" is missing"#),
    Case(
      id: "unknown field",
      json: "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"fields\": {\"Frnt\": \"x\"}}]}",
      kind: .corrupt,
      message: ": at notes[0].fields: 'Frnt' is not a field of note type 'Basic' (its fields: Front, Back)"),
    Case(
      id: "unknown note type", json: "{\(valid), \(basic), \"notes\": [{\"noteType\": 42, \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[0].noteType: no note type has the id 42"),
    Case(
      id: "two notes with one id",
      json:
        "{\(valid), \(basic), \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}, {\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[1].id: notes[0] has the same id 5; cards refer to notes by id, so each note needs its own"),
    Case(
      id: "two cards with one id",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}], \"cards\": [{\"id\": 7, \"note\": 5, \"template\": 0, \"deck\": 1}, {\"id\": 7, \"note\": 5, \"template\": 0, \"deck\": 1}]}",
      kind: .corrupt,
      message: ": at cards[1].id: cards[0] has the same id 7; reviews refer to cards by id, so each card needs its own"),
    Case(
      id: "cards left out, several decks, a note naming none",
      json:
        "{\(valid), \(basic), \"decks\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"notes\": [{\"noteType\": \"Basic\", \"deck\": \"A\", \"fields\": {}}, {\"noteType\": \"Basic\", \"fields\": {}}]}",
      kind: .corrupt,
      message:
        ": at notes[1]: the note leaves its cards out and names no deck, and there are 2 decks; name the one for its cards (\"deck\": a deck's name or id)"
    ),
    Case(
      id: "cards left out, only a filtered deck",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"F\", \"filtered\": {\"reschedule\": true, \"searchTerms\": []}}], \"notes\": [{\"noteType\": \"Basic\", \"fields\": {}}]}",
      kind: .corrupt,
      message:
        ": at notes[0]: the note leaves its cards out and names no deck, and the only decks are filtered ones, which are no card's own deck; name a normal deck for its cards (\"deck\": a deck's name, added if it is new)"
    ),
    Case(
      id: "a note's deck beside cards",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"deck\": \"D\", \"fields\": {}}], \"cards\": []}",
      kind: .corrupt,
      message:
        ": at notes[0].deck: a note names its cards' deck only in a document that leaves the cards out; this document has 'cards', which name theirs"
    ),
    Case(
      id: "a card's template its note type does not have",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}], \"cards\": [{\"id\": 8, \"note\": 5, \"template\": 0, \"deck\": 1}, {\"id\": 9, \"note\": 5, \"template\": 7, \"deck\": 1}]}",
      kind: .corrupt,
      message:
        ": at cards[1].template: note type 'Basic' has 1 template (ordinals 0 to 0), none of ordinal 7; Anki cannot show such a card, and its Check Database deletes it"
    ),
    Case(
      id: "a card of a note type without templates",
      json:
        "{\(valid), \"noteTypes\": [{\"id\": 3, \"name\": \"Bare\", \"fields\": [{\"name\": \"F\"}], \"templates\": []}], \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": 3, \"fields\": {}}], \"cards\": [{\"id\": 8, \"note\": 5, \"template\": 0, \"deck\": 1}]}",
      kind: .corrupt,
      message:
        ": at cards[0].template: note type 'Bare' has no templates, none of ordinal 0; Anki cannot show such a card, and its Check Database deletes it"
    ),
    Case(
      id: "a card's negative template",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}], \"cards\": [{\"id\": 8, \"note\": 5, \"template\": -1, \"deck\": 1}]}",
      kind: .corrupt,
      message: ": at cards[0].template: -1 is not a template ordinal (they count from 0)"
    ),
    // Values Foundation's JSONDecoder reports on Linux only as "The given data was not valid
    // JSON.", without a path: found again by deckport's parser (UndecodableValue).
    Case(
      id: "a fraction where an integer goes",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 1, \"name\": \"D\"}], \"notes\": [{\"id\": 5, \"noteType\": \"Basic\", \"fields\": {}}], \"cards\": [{\"id\": 8, \"note\": 5, \"template\": 0, \"deck\": 1, \"modified\": 2.5}]}",
      kind: .corrupt, message: ": at cards[0].modified: expected an integer, found 2.5"),
    Case(
      id: "an integer beyond 64 bits",
      json:
        "{\(valid), \(basic), \"notes\": [{\"id\": 99999999999999999999, \"noteType\": \"Basic\", \"fields\": {}}]}",
      kind: .corrupt, message: ": at notes[0].id: the integer 99999999999999999999 does not fit in 64 bits"),
    Case(
      id: "a fraction in the header",
      json: "{\(valid), \"creationTime\": 1.5, \(basic), \"notes\": []}",
      kind: .corrupt, message: ": at creationTime: expected an integer, found 1.5"),
    Case(
      id: "a lone surrogate in a field",
      json: "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"fields\": {\"Front\": \"x\\udc00y\"}}]}",
      kind: .corrupt, message: ": at (top level): a lone low surrogate \\udc00 (near '\\udc00y\"}}]}')"),
    Case(
      id: "a note's unknown deck id",
      json:
        "{\(valid), \(basic), \"decks\": [{\"name\": \"D\"}], \"notes\": [{\"noteType\": \"Basic\", \"deck\": 77, \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[0].deck: no deck has the id 77"),
    Case(
      id: "a note's empty deck name",
      json: "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"deck\": \"\", \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[0].deck: a deck name is empty"),
    Case(
      id: "a note's new deck of 101 levels",
      json:
        "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Basic\", \"deck\": \"\(Array(repeating: "a", count: 101).joined(separator: "::"))\", \"fields\": {}}]}",
      kind: .corrupt,
      message:
        ": at notes[0].deck: deck name 'a::a::a::a::a::a::a::a::a::a::a::a::a::a…' has 101 levels; deckport takes deck names of at most 100 levels"
    ),
    Case(
      id: "a deck of 101 levels",
      json:
        "{\(valid), \(basic), \"decks\": [{\"name\": \"D\"}, {\"name\": \"\(Array(repeating: "a", count: 101).joined(separator: "::"))\"}], \"notes\": []}",
      kind: .corrupt,
      message:
        ": at decks[1].name: deck name 'a::a::a::a::a::a::a::a::a::a::a::a::a::a…' has 101 levels; deckport takes deck names of at most 100 levels"
    ),
    Case(
      id: "a note's new deck under a filtered deck",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 9, \"name\": \"F\", \"filtered\": {\"reschedule\": true, \"searchTerms\": []}}], \"notes\": [{\"noteType\": \"Basic\", \"deck\": \"f::Sub\", \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[0].deck: 'F' is a filtered deck, which cannot hold other decks"),
    Case(
      id: "a note's filtered deck",
      json:
        "{\(valid), \(basic), \"decks\": [{\"id\": 9, \"name\": \"F\", \"filtered\": {\"reschedule\": true, \"searchTerms\": []}}], \"notes\": [{\"noteType\": \"Basic\", \"deck\": 9, \"fields\": {}}]}",
      kind: .corrupt,
      message: ": at notes[0].deck: 'F' is a filtered deck, which holds cards only while they are studied there"),
    Case(
      id: "bad kind",
      json:
        "{\(valid), \"noteTypes\": [{\"name\": \"X\", \"kind\": \"clozz\", \"fields\": [], \"templates\": []}], \"notes\": []}",
      kind: .corrupt,
      message: #": at noteTypes[0].kind: expected "standard" or "cloze", found "clozz""#),
    Case(
      id: "unsafe media name",
      json: "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"../x.png\", \"data\": \"\"}]}",
      kind: .corrupt,
      message:
        ": at media[0].name: '../x.png' is not a safe media file name (one path component, NFC, none of []<>:\"/?*^\\| or control characters)"
    ),
    Case(
      id: "media SHA-1 mismatch",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.txt\", \"sha1\": \"0000000000000000000000000000000000000000\", \"data\": \"YWJj\"}]}",
      kind: .corrupt,
      message:
        ": at media[0].data: the SHA-1 of 'a.txt' is a9993e364706816aba3e25717850c26c9cd0d89d, but its sha1 says 0000000000000000000000000000000000000000"
    ),
    Case(
      id: "media not base64",
      json: "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.txt\", \"data\": \"@@@\"}]}",
      kind: .corrupt,
      message: ": at media[0].data: not valid base64"),
  ]

  /// Base64 long enough to be left in the file and decoded on a second thread (6,000 bytes of "ABC").
  static let long = String(repeating: "QUJD", count: 2000)
  static let longSHA1 = SHA1.hex(SHA1.digest(Data(String(repeating: "ABC", count: 2000).utf8)))

  static let badAfterLong =
    "{\(valid), \(basic), \"media\": [{\"name\": \"a.bin\", \"data\": \"\(long)\"}, {\"name\" 3}]}"

  /// Media data decoded and hashed while the rest of the document is read: the same errors, in
  /// the same order.
  static let setAsideCases: [Case] = [
    Case(
      id: "long media SHA-1 mismatch",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"sha1\": \"0000000000000000000000000000000000000000\", \"data\": \"\(long)\"}]}",
      kind: .corrupt,
      message:
        ": at media[0].data: the SHA-1 of 'a.bin' is \(longSHA1), but its sha1 says 0000000000000000000000000000000000000000"
    ),
    Case(
      id: "long media size mismatch",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"size\": 5, \"data\": \"\(long)\"}]}",
      kind: .corrupt, message: ": at media[0].data: 'a.bin' has 6000 bytes, but its size says 5"),
    Case(
      id: "long media not base64",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"data\": \"\(long)@@@@\(long)\"}]}",
      kind: .corrupt, message: ": at media[0].data: not valid base64"),
    Case(
      id: "long media cut short",
      json: "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"data\": \"\(long)QQ\"}]}",
      kind: .corrupt, message: ": at media[0].data: not valid base64 (its length is not a multiple of 4)"),
    Case(
      id: "a bad long file before a bad name",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"size\": 1, \"data\": \"\(long)\"}, {\"name\": \"../b\", \"data\": \"\(long)\"}]}",
      kind: .corrupt, message: ": at media[0].data: 'a.bin' has 6000 bytes, but its size says 1"),
    Case(
      id: "a good long file before a bad name",
      json:
        "{\(valid), \(basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"data\": \"\(long)\"}, {\"name\": \"a.bin\", \"data\": \"\(long)@\"}]}",
      kind: .corrupt, message: ": at media[1].name: a media file named 'a.bin' comes earlier in the list"),
    Case(
      id: "a note problem before a bad long file",
      json:
        "{\(valid), \(basic), \"notes\": [{\"noteType\": \"Nope\", \"fields\": {}}], \"media\": [{\"name\": \"a.bin\", \"data\": \"\(long)@@@@\"}]}",
      kind: .corrupt,
      message:
        ": at notes[0].noteType: no note type is named 'Nope' in noteTypes, and it is none of Anki's stock note types"),
    Case(
      id: "invalid JSON after long media", json: badAfterLong, kind: .wrongFormat,
      message: ":1:\(badAfterLong.count - 3): invalid JSON: expected ':' after the key (near '3}]}')"),
  ]

  @Test(arguments: cases + setAsideCases)
  func badDocument(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try Data(testCase.json.utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: DeckError.self) { try DeckJSONReader().read(path: path) }
    #expect(error.kind == testCase.kind)
    #expect(error.description == path + testCase.message)
  }
}
