import Foundation

/// What the real Anki backend saw in a fixture package, as `fixtures/anki_view.py` wrote it
/// into `<package>.truth.json` (and `Tests/anki/test_truth_is_current.py` re-proves it), or in a
/// collection `fixtures/anki_import_sequence.py` imported packages into.
///
/// Tests that build expected values use the memberwise initialisers through
/// `@testable import DeckTestSupport`.
public struct AnkiTruth: Decodable, Sendable {
  public struct Note: Decodable, Equatable, Sendable {
    public var guid: String
    public var noteType: String
    public var fields: [String]
    public var tags: [String]
    public var mod: Int64
  }

  public struct Card: Decodable, Equatable, Sendable {
    public var noteGuid: String
    public var ord: Int
    public var deck: String
    public var type: Int
    public var queue: Int
    public var due: Int64
    public var ivl: Int
    public var factor: Int
    public var reps: Int
    public var lapses: Int
    public var left: Int
    public var flags: Int
    public var odue: Int64
    public var odeck: String?
  }

  public struct Template: Decodable, Equatable, Sendable {
    public var name: String
    public var qfmt: String
    public var afmt: String
  }

  public struct NoteType: Decodable, Equatable, Sendable {
    public var name: String
    public var kind: String
    public var fields: [String]
    public var templates: [Template]
    public var css: String
    public var sortField: Int
  }

  public struct Review: Decodable, Equatable, Sendable {
    public var noteGuid: String
    public var ord: Int
    public var ease: Int
    public var ivl: Int64
    public var lastIvl: Int64
    public var factor: Int
    public var time: Int
    public var type: Int
  }

  public struct Counts: Decodable, Equatable, Sendable {
    public var notes: Int
    public var cards: Int
    public var media: Int
    public var reviews: Int
  }

  public var notes: [Note]
  public var cards: [Card]
  public var noteTypes: [NoteType]
  public var decks: [String]
  public var media: [String: String]
  public var missingMedia: [String]
  public var reviews: [Review]
  public var counts: Counts

  /// The truth file of the package at `path`.
  public static func load(forPackage path: String) throws -> AnkiTruth {
    let data = try Data(contentsOf: URL(fileURLWithPath: path + ".truth.json"))
    return try JSONDecoder().decode(AnkiTruth.self, from: data)
  }
}
