import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// Packages that parse cleanly but hold impossible numbers (the largest and smallest 64-bit
/// values, negative counters, huge review-log times) converted into every output format: each
/// conversion ends with exit status 0 and no trap; the deckport JSON deck keeps every value
/// exactly; an Anki package keeps ids and modification times and writes each scheduling value
/// Anki reads in a narrower range as the nearest value it can read, with a `value-clamped`
/// warning naming the card or review (see `docs/damage.md`).
@Suite("deckport on extreme numbers: every output format, no trap")
struct ExtremeValueTests {
  static let max = Int64.max
  static let min = Int64.min
  /// Cards and notes of the legacy fixture.
  static let newCard: Int64 = 1_795_331_276_845
  static let reviewCard: Int64 = 1_795_331_276_854
  static let note: Int64 = 1_795_331_276_847
  static let review: Int64 = 1_795_331_276_866

  /// One hostile package: SQL run on the legacy fixture's collection, and what each kind of
  /// output must hold afterwards.
  struct Case: CustomTestStringConvertible, Sendable {
    var id: String
    var sql: String
    /// Checks the deck read back from the deckport JSON deck (every value kept).
    var kept: @Sendable (DeckCollection) throws -> Void
    /// Checks the deck read back from an Anki package.
    var anki: @Sendable (DeckCollection) throws -> Void
    /// The start of a warning every Anki package output must print, if any.
    var ankiWarning: String?
    /// Checks the deck read back from a collection package, where it differs from `anki`: a
    /// collection package gives ids in the future new ones (`FutureIDs`), with this warning.
    var collectionPackage: (@Sendable (DeckCollection) throws -> Void)? = nil
    var collectionWarning: String? = nil
    var testDescription: String { id }
  }

  static func card(_ id: Int64, in collection: DeckCollection) throws -> CardScheduling {
    try #require(collection.cards.first { $0.id == id }).scheduling
  }

  static func review(_ id: Int64, in collection: DeckCollection) throws -> Review {
    try #require(collection.reviews.first { $0.id == id })
  }

  static let cases: [Case] = [
    Case(
      id: "new card with due Int64.max, ivl -5, factor -100 (the issue's package)",
      sql: "UPDATE cards SET due = \(max), ivl = -5, factor = -100 WHERE id = \(newCard)",
      kept: { deck in
        let s = try card(newCard, in: deck)
        #expect(s.due == max && s.interval == -5 && s.easeFactor == -100)
      },
      anki: { deck in
        let s = try card(newCard, in: deck)
        #expect(s.due == Int64(Int32.max) && s.interval == 0 && s.easeFactor == 0)
      },
      ankiWarning:
        "card \(newCard): warning: [value-clamped] due 9223372036854775807 is written as 2147483647, ivl -5 is written as 0, factor -100 is written as 0: Anki reads these columns in a narrower range and would otherwise refuse the package or read 0"
    ),
    Case(
      id: "review card with due Int64.min and original due Int64.max",
      sql: "UPDATE cards SET due = \(min), odue = \(max) WHERE id = \(reviewCard)",
      kept: { deck in
        let s = try card(reviewCard, in: deck)
        #expect(s.due == min && s.originalDue == max)
      },
      anki: { deck in
        let s = try card(reviewCard, in: deck)
        #expect(s.due == Int64(Int32.min) && s.originalDue == Int64(Int32.max))
      },
      ankiWarning:
        "card \(reviewCard): warning: [value-clamped] due -9223372036854775808 is written as -2147483648, odue"),
    Case(
      id: "counters at both ends",
      sql:
        "UPDATE cards SET reps = \(max), lapses = \(min), left = -1, flags = \(max), ivl = \(max), factor = \(min) WHERE id = \(reviewCard)",
      kept: { deck in
        let s = try card(reviewCard, in: deck)
        #expect(s.reviews == Int(max) && s.lapses == Int(min) && s.remainingSteps == -1 && s.flags == Int(max))
        #expect(s.interval == Int(max) && s.easeFactor == Int(min))
      },
      anki: { deck in
        let s = try card(reviewCard, in: deck)
        #expect(s.reviews == Int(UInt32.max) && s.lapses == 0 && s.remainingSteps == 0 && s.flags == 255)
        #expect(s.interval == Int(UInt32.max) && s.easeFactor == 0)
      },
      ankiWarning: "card \(reviewCard): warning: [value-clamped] ivl 9223372036854775807 is written as 4294967295"),
    Case(
      id: "ids and modification times at both ends",
      sql: """
        UPDATE revlog SET cid = \(max) WHERE cid = \(newCard);
        UPDATE cards SET id = \(max), mod = \(min) WHERE id = \(newCard);
        UPDATE cards SET nid = \(max) WHERE nid = \(note);
        UPDATE notes SET id = \(max), mod = \(max) WHERE id = \(note);
        UPDATE cards SET id = \(min), mod = \(max) WHERE id = \(reviewCard);
        """,
      kept: { deck in
        #expect(deck.cards.contains { $0.id == max && $0.modificationTime == min })
        #expect(deck.cards.contains { $0.id == min && $0.modificationTime == max })
        #expect(deck.notes.contains { $0.id == max && $0.modificationTime == max })
        #expect(deck.cards.filter { $0.noteID == max }.count == 2)
      },
      anki: { deck in
        #expect(deck.cards.contains { $0.id == max && $0.modificationTime == min })
        #expect(deck.cards.contains { $0.id == min && $0.modificationTime == max })
        #expect(deck.notes.contains { $0.id == max && $0.modificationTime == max })
        #expect(deck.cards.filter { $0.noteID == max }.count == 2)
      },
      collectionPackage: { deck in
        // The note and the card of id Int64.max get new ids; the note's cards follow it.
        #expect(!deck.notes.contains { $0.id == max } && !deck.cards.contains { $0.id == max })
        let note = try #require(deck.notes.first { $0.modificationTime == max })
        #expect(note.id <= Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000)
        #expect(deck.cards.filter { $0.noteID == note.id }.count == 2)
        #expect(deck.cards.contains { $0.modificationTime == min })
        #expect(deck.cards.contains { $0.id == min && $0.modificationTime == max })
      },
      collectionWarning: "note \(max): warning: [future-id] 1 note and 1 card have ids more than a day in the future"
    ),
    Case(
      id: "review log with extreme ids, intervals, ease and times",
      sql: """
        UPDATE revlog SET id = \(max), ivl = \(min), lastIvl = \(max), factor = -1, time = \(max), ease = \(max), type = \(min) WHERE id = \(review);
        UPDATE revlog SET id = \(min), time = -5 WHERE id = 1795331276853;
        """,
      kept: { deck in
        let r = try review(max, in: deck)
        #expect(r.interval == min && r.lastInterval == max && r.easeFactor == -1 && r.duration == Int(max))
        #expect(r.ease == Int(max) && r.kind.rawValue == Int(min))
        #expect(try review(min, in: deck).duration == -5)
      },
      anki: { deck in
        let r = try review(max, in: deck)
        #expect(r.interval == Int64(Int32.min) && r.lastInterval == Int64(Int32.max) && r.easeFactor == 0)
        #expect(r.duration == Int(UInt32.max) && r.ease == 255 && r.kind == .learning)
        #expect(try review(min, in: deck).duration == 0)
      },
      ankiWarning:
        "review \(max): warning: [value-clamped] review of card 1795331276858: ease 9223372036854775807 is written as 255",
      collectionPackage: { deck in
        // The review of id Int64.max gets a new id, its values clamped as in a deck package.
        #expect(!deck.reviews.contains { $0.id == max })
        let r = try #require(deck.reviews.first { $0.interval == Int64(Int32.min) })
        #expect(r.id <= Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000)
        #expect(r.lastInterval == Int64(Int32.max) && r.duration == Int(UInt32.max) && r.ease == 255)
        #expect(try review(min, in: deck).duration == 0)
      },
      collectionWarning:
        "review \(max): warning: [future-id] 1 review-log entry has an id more than a day in the future"
    ),
    Case(
      id: "collection creation time Int64.max",
      sql: "UPDATE col SET crt = \(max)",
      kept: { deck in #expect(deck.creationTime == max) },
      anki: { deck in #expect(deck.creationTime == 8_210_266_876_799) },
      ankiWarning:
        "table col: warning: [value-clamped] the collection's creation time 9223372036854775807 is outside the times Anki accepts (-8334601228800…8210266876799 seconds); 8210266876799 is written"
    ),
    Case(
      id: "deck id Int64.max whose parent decks are missing",
      sql: """
        UPDATE col SET decks = replace(replace(decks, '1795331276842', '\(max)'), 'Languages::French::Verbs', 'Orphan::Child::Leaf');
        UPDATE cards SET did = \(max) WHERE did = 1795331276842;
        """,
      kept: { deck in #expect(deck.decks.contains { $0.id == max && $0.name == "Orphan::Child::Leaf" }) },
      anki: { deck in #expect(deck.decks.contains { $0.id == max && $0.name == "Orphan::Child::Leaf" }) }),
  ]

  /// Every output format, with the output's file name.
  static let outputs: [(format: String, name: String)] = [
    ("apkg", "out.apkg"), ("apkg-modern", "out.apkg"), ("colpkg", "out.colpkg"),
    ("colpkg-modern", "out.colpkg"), ("json", "out.json"), ("csv", "out.csv"), ("tsv", "out.tsv"),
    ("plist", "out.plist"), ("app-json", "out.json"), ("sqlite", "out.sqlite"),
  ]

  @Test("extreme numbers into every output format", arguments: cases)
  func extreme(_ testCase: Case) throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "extreme.apkg")
    try DamagedInputTests.alteredCollection(testCase.sql)(input)
    for output in Self.outputs {
      let folder = scratch.path(for: output.format)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      let path = (folder as NSString).appendingPathComponent(output.name)
      let run = try CommandRun.deckport(["convert", input, path, "--to", output.format, "--verbose"])
      #expect(run.status == 0, "\(output.format): stderr: \(run.standardError)")
      #expect(!run.standardError.contains("Fatal error") && !run.standardError.contains("runtime failure"))
      guard run.status == 0 else { continue }
      switch output.format {
      case "apkg", "apkg-modern", "colpkg", "colpkg-modern":
        let deck = try DeckLoader().load(path: path).collection
        let collectionPackage = output.format.hasPrefix("colpkg")
        if collectionPackage, let check = testCase.collectionPackage {
          try check(deck)
        } else {
          try testCase.anki(deck)
        }
        let warnings = [testCase.ankiWarning, collectionPackage ? testCase.collectionWarning : nil].compactMap { $0 }
        for warning in warnings {
          #expect(run.standardError.contains("deckport: \(path): \(warning)"), "\(output.format): \(run.standardError)")
        }
      case "json":
        try testCase.kept(try DeckLoader().load(path: path).collection)
        // And back: the JSON deck with every value kept converts into an Anki package.
        let again = scratch.path(for: "\(output.format)-again.apkg")
        let back = try CommandRun.deckport(["convert", path, again])
        #expect(back.status == 0, "stderr: \(back.standardError)")
        try testCase.anki(try DeckLoader().load(path: again).collection)
      default:
        // CSV and app storage hold no scheduling; they must be written and read back whole.
        let deck = try DeckLoader().load(path: path).collection
        #expect(deck.notes.count == 9, "\(output.format)")
      }
    }
  }
}
