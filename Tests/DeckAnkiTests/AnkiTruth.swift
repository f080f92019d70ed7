import Foundation

/// What the real Anki backend saw in a fixture package, as `fixtures/anki_view.py` wrote it
/// into `<package>.truth.json` (and `Tests/anki/test_truth_is_current.py` re-proves it).
struct AnkiTruth: Decodable {
  struct Note: Decodable, Equatable {
    var guid: String
    var noteType: String
    var fields: [String]
    var tags: [String]
    var mod: Int64
  }

  struct Card: Decodable, Equatable {
    var noteGuid: String
    var ord: Int
    var deck: String
    var type: Int
    var queue: Int
    var due: Int64
    var ivl: Int
    var factor: Int
    var reps: Int
    var lapses: Int
    var left: Int
    var flags: Int
    var odue: Int64
    var odeck: String?
  }

  struct Template: Decodable, Equatable {
    var name: String
    var qfmt: String
    var afmt: String
  }

  struct NoteType: Decodable, Equatable {
    var name: String
    var kind: String
    var fields: [String]
    var templates: [Template]
    var css: String
    var sortField: Int
  }

  struct Review: Decodable, Equatable {
    var noteGuid: String
    var ord: Int
    var ease: Int
    var ivl: Int64
    var lastIvl: Int64
    var factor: Int
    var time: Int
    var type: Int
  }

  struct Counts: Decodable, Equatable {
    var notes: Int
    var cards: Int
    var media: Int
    var reviews: Int
  }

  var notes: [Note]
  var cards: [Card]
  var noteTypes: [NoteType]
  var decks: [String]
  var media: [String: String]
  var missingMedia: [String]
  var reviews: [Review]
  var counts: Counts

  static func load(forPackage path: String) throws -> AnkiTruth {
    let data = try Data(contentsOf: URL(fileURLWithPath: path + ".truth.json"))
    return try JSONDecoder().decode(AnkiTruth.self, from: data)
  }
}
