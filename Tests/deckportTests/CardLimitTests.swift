import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A small source that gives no cards, whose note type has thousands of templates each showing a
/// field every note has: 3,000 notes would make 9 million cards (a 400 KB JSON deck held 2.7 GB).
/// The readers that make the cards Anki would make stop at ``NewNotes/cardLimit(at:)`` with one
/// line naming the note, exit status 1 and nothing written.
@Suite("Cards made for a note type of thousands of templates: refused by the card limit")
struct CardLimitTests {
  static let width = 3000

  /// Runs `deckport convert input out.apkg` and checks the refusal at `place`, the note's.
  static func expectRefused(
    _ input: String, in scratch: TemporaryDirectory, place: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    try expectConversionRefused(
      input, in: scratch, output: "out.apkg", starting: "\(place): with this note's cards, the notes make ",
      ending: "give the source its cards, or remove the templates its notes do not use",
      sourceLocation: sourceLocation)
  }

  /// The position of the first note whose cards (`width` each) pass 1 Mi and one per byte of
  /// every note's text (`textBytes` of note i).
  static func firstNotePast(textBytes: (Int) -> Int) -> Int {
    let limit = NewNotes.cardAllowance + (0..<width).reduce(0) { $0 + textBytes($1) }
    return (0..<width).first { ($0 + 1) * width > limit } ?? -1
  }

  @Test("a deckport JSON document without cards: at the note")
  func jsonDocument() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "many.json")
    let document: [String: Any] = [
      "format": "deckport-deck", "version": 1,
      "noteTypes": [
        [
          "id": 1, "name": "Many", "kind": "standard", "fields": [["name": "Front"], ["name": "Back"]],
          "templates": (0..<Self.width).map {
            ["name": "Card \($0)", "question": "\($0) {{Front}}", "answer": "{{Back}}"]
          },
        ]
      ],
      "notes": (0..<Self.width).map { ["guid": "g\($0)", "noteType": 1, "fields": ["Front": "x\($0)", "Back": "y"]] },
    ]
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: input))
    let index = Self.firstNotePast { "x\($0)y".utf8.count }
    try Self.expectRefused(input, in: scratch, place: "\(input): at notes[\(index)]")
  }

  @Test("a CrowdAnki folder: at the note")
  func crowdAnki() throws {
    let scratch = try TemporaryDirectory()
    var deck = try CrowdAnkiFixtureDeck.deck()
    var models = try #require(deck["note_models"] as? [[String: Any]])
    // A standard model of two or more fields; each template shows its first field.
    let index = try #require(models.firstIndex { ($0["flds"] as? [Any])?.count ?? 0 >= 2 && $0["type"] as? Int == 0 })
    let fields = try #require(models[index]["flds"] as? [[String: Any]])
    let first = try #require(fields.first?["name"] as? String)
    let template = try #require((models[index]["tmpls"] as? [[String: Any]])?.first)
    models[index]["tmpls"] = (0..<Self.width).map { ord in
      template.merging(["name": "Card \(ord)", "ord": ord, "qfmt": "\(ord) {{\(first)}}", "afmt": "{{FrontSide}}"]) {
        $1
      }
    }
    let uuid = try #require(models[index]["crowdanki_uuid"] as? String)
    let note = try #require(CrowdAnkiFixtureDeck.firstNote(in: deck))
    deck["note_models"] = models
    deck["children"] = [Any]()
    deck["media_files"] = [Any]()
    let values = { (position: Int) in ["x\(position)"] + Array(repeating: "", count: fields.count - 1) }
    deck["notes"] = (0..<Self.width).map {
      note.merging(["guid": "g\($0)", "fields": values($0), "note_model_uuid": uuid]) { $1 }
    }
    let folder = try CrowdAnkiFixtureDeck.folder("Many", in: scratch, holding: deck)
    let past = Self.firstNotePast { "x\($0)".utf8.count }
    try Self.expectRefused(folder, in: scratch, place: "\(folder)/deck.json: note g\(past)")
  }
}
