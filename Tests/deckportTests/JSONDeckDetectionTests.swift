import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("A JSON deck told by its content wherever its format member stands (no extension, another name)")
struct JSONDeckDetectionTests {
  /// The JSON deck deckport writes of `fixture`, its top-level members reordered as `order`
  /// gives them (a document written with sorted keys has `cards` and `decks` first).
  static func document(of fixture: String, in scratch: TemporaryDirectory, order: ([String]) -> [String]) throws
    -> Data
  {
    let written = scratch.path(for: "written.json")
    let run = try CommandRun.deckport(["convert", Fixtures.path(fixture), written, "-q"])
    #expect(run.status == 0, "\(run.standardError)")
    let data = try Data(contentsOf: URL(fileURLWithPath: written))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var text = "{"
    for (index, key) in order(Array(object.keys)).enumerated() {
      let value = try JSONSerialization.data(withJSONObject: try #require(object[key]), options: [.fragmentsAllowed])
      text += (index == 0 ? "" : ",\n ") + "\"\(key)\": " + String(decoding: value, as: UTF8.self)
    }
    return Data((text + "}").utf8)
  }

  @Test("keys sorted, format after cards and decks: a file without an extension is read as a JSON deck")
  func sortedKeysWithoutExtension() throws {
    let scratch = try TemporaryDirectory()
    let data = try Self.document(of: "anki/latest_sched.apkg", in: scratch) { $0.sorted() }
    let path = scratch.path(for: "deck")
    try data.write(to: URL(fileURLWithPath: path))
    #expect(!data.starts(with: Data(#"{"format""#.utf8)))
    #expect(DeckportDocumentFormat.namesDeck(path: path))
    #expect(FormatRegistry.standard.detectInput(path: path)?.name == .json)
    let run = try CommandRun.deckport(["inspect", path])
    #expect(run.status == 0 && run.standardOutput.contains("Format:   json"), "\(run.standardError)")
    #expect(run.standardOutput.contains("Notes:    9"))
    // Named as a text file, it is read as its content shows, and said.
    let text = scratch.path(for: "deck.txt")
    try data.write(to: URL(fileURLWithPath: text))
    let named = try CommandRun.deckport(["inspect", text])
    #expect(named.status == 0 && named.standardOutput.contains("Format:   json"), "\(named.standardError)")
    #expect(named.standardError.contains("[format-from-content] the name says tsv, but the content is json"))
  }

  @Test(
    "the format member is found past values and keys of every kind, escapes and a byte order mark; not in a nested object or another format",
    arguments: [
      (
        #"{"version": 1, "notes": [{"format": "x", "a": "}\"]"}, [1, -2.5e3, true, null]], "format": "deckport-deck"}"#,
        true
      ),
      ("\u{FEFF} {\"\\u0066ormat\" : \"deckport\\u002ddeck\"}", true),
      (#"{"a": {"b": [[], {}]}, "c": "d", "format": "deckport-deck"}"#, true),
      (#"{"a": 1, "format": "deckport-deck-2"}"#, false),
      // A key longer than any format key (a deck's unknown key, sorted first) is passed over.
      ("{\"\(String(repeating: "k", count: 100))\": 1, \"format\": \"deckport-deck\"}", true),
      ("{\"format\": \"\(String(repeating: "d", count: 100))\"}", false),
      (#"{"a": {"format": "deckport-deck"}}"#, false),
      (#"{"a": 1} {"format": "deckport-deck"}"#, false),
      (#"[{"format": "deckport-deck"}]"#, false),
      (#"{"a": "unterminated, "format": "deckport-deck"}"#, false),
      (#"{"a" 1, "format": "deckport-deck"}"#, false),
      ("", false),
    ])
  func members(text: String, names: Bool) throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "document")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(DeckportDocumentFormat.namesDeck(path: path) == names)
  }

  @Test(
    "the look-ahead is bounded: a format member past it is not looked for, and a huge value is skipped a chunk at a time"
  )
  func boundedLookAhead() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "document")
    let filler = String(repeating: "x", count: 300_000)
    try Data(#"{"media": "\#(filler)", "format": "deckport-deck"}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(DeckportDocumentFormat.namesDeck(path: path))
    #expect(!DeckportDocumentFormat.namesDeck(path: path, lookAhead: 200_000))
    #expect(DeckportDocumentFormat.namesDeck(path: path, lookAhead: 300_100))
    #expect(!DeckportDocumentFormat.namesDeck(path: scratch.path(for: "absent")))
  }
}
