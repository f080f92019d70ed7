import DeckCSV
import DeckCore
import DeckTestSupport
import Foundation

/// What the real Anki backend's CSV importer made of a fixture file in a fresh collection, as
/// `fixtures/make_csv_fixtures.py` wrote it into `<file>.truth.json` (re-proved by
/// `Tests/anki/test_csv_fixtures_current.py`).
struct CSVTruth: Decodable {
  struct Note: Decodable {
    var guid: String?
    var noteType: String
    var fields: [String]
    var tags: [String]
    var deck: Deck
    var cards: [Int]
  }

  /// The deck of a note's cards: one name, or several when they differ.
  enum Deck: Decodable, Equatable {
    case one(String)
    case several([String])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let name = try? container.decode(String.self) {
        self = .one(name)
      } else {
        self = .several(try container.decode([String].self))
      }
    }
  }

  struct Log: Decodable {
    var new: Int
    var missingNotetype: Int
    var emptyFirstField: Int
    var missingDeck: Int
  }

  var notes: [Note]
  var log: Log

  /// The truth of `fixtures/<relativePath>`.
  static func load(_ relativePath: String) throws -> CSVTruth {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(relativePath + ".truth.json")))
    return try JSONDecoder().decode(CSVTruth.self, from: data)
  }

  /// The CSV fixtures, as paths relative to `fixtures/`, sorted.
  static var fixtures: [String] {
    ["csv/anki", "csv/sheets", "csv/real"].flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path(folder))) ?? [])
        .filter { !$0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
        .map { "\(folder)/\($0)" }
    }
  }
}

/// A note as a CSV shows it: note type name, fields, tags (sorted), deck names, card ordinals.
struct NoteView: Equatable, CustomStringConvertible {
  var guid: String
  var noteType: String
  var fields: [String]
  var tags: [String]
  var decks: [String]
  var cards: [Int]

  var description: String { "\(noteType) \(fields) tags \(tags) decks \(decks) cards \(cards)" }

  /// Every note of `collection`, in order.
  static func all(_ collection: DeckCollection) -> [NoteView] {
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    let decks = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    var cards: [Int64: [Card]] = [:]
    for card in collection.cards { cards[card.noteID, default: []].append(card) }
    return collection.notes.map { note in
      let own = cards[note.id] ?? []
      return NoteView(
        guid: note.guid, noteType: noteTypes[note.noteTypeID] ?? "?", fields: note.fields, tags: note.tags.sorted(),
        decks: Set(own.map { decks[$0.deckID] ?? "?" }).sorted(), cards: own.map(\.templateOrdinal).sorted())
    }
  }
}
