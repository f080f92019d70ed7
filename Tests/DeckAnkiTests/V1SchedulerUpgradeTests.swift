import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A collection kept by Anki's v1 scheduler (no `schedVer`, or 1) is upgraded on reading as
/// Anki upgrades it when it imports or opens one; any other is read as stored.
///
/// The expected values are what the real backend did to such rows (its `upgrade_scheduler`,
/// and its importer of a v1 `.apkg`, on a real v1 collection with rows of every kind planted in
/// it): learning and relearning answers (review-log type 0 and 2) with ease 2 or 3 take 3 or 4,
/// every other answer keeps its ease; cards of type 2 in queue 1 or 3 take type 3, no other card
/// changes. `Tests/anki` checks the same against the backend on `fixtures/real`'s v1 package.
@Suite("Reading Anki packages: the v1 scheduler")
struct V1SchedulerUpgradeTests {
  /// A relearning card of v2 (type 3, queue 1) in the fixture, which v1 would hold as type 2.
  static let relearningCard: Int64 = 1_795_331_276_847
  /// Review-log rows of every type (0 to 3) and ease (0 to 4), ids from 1, for one card.
  static let answers =
    "DELETE FROM revlog; WITH RECURSIVE kinds(t) AS (SELECT 0 UNION ALL SELECT t + 1 FROM kinds WHERE t < 3), "
    + "eases(e) AS (SELECT 0 UNION ALL SELECT e + 1 FROM eases WHERE e < 4) "
    + "INSERT INTO revlog SELECT t * 10 + e + 1, \(relearningCard), -1, e, 1, 1, 2500, 1000, t FROM kinds, eases;"

  /// The fixture with `sql` run on its collection, read.
  static func read(_ sql: String) throws -> AnkiPackageContents {
    let scratch = try TemporaryDirectory()
    let changed = scratch.path(for: "changed.apkg")
    try PackageSurgery.copy(Fixtures.path("anki/legacy2_sched.apkg"), to: changed, runningOnCollection: sql)
    return try AnkiPackageReader().read(path: changed)
  }

  static func schedulerWarnings(_ contents: AnkiPackageContents) -> [Diagnostic] {
    contents.warnings.filter { $0.category.rawValue.hasPrefix("scheduler-") }
  }

  @Test("a v2 collection's cards and review log are read as stored")
  func v2AsStored() throws {
    let contents = try Self.read(Self.answers)
    #expect(Self.schedulerWarnings(contents).isEmpty)
    for review in contents.collection.reviews {
      #expect(review.ease == Int(review.id - 1) % 10, "review \(review.id)")
    }
    let card = try #require(contents.collection.cards.first { $0.id == Self.relearningCard })
    #expect(card.scheduling.type == .relearning)
  }

  @Test(
    "a v1 collection is upgraded as Anki upgrades it",
    arguments: [
      "UPDATE col SET conf = json_remove(conf, '$.schedVer');",
      "UPDATE col SET conf = json_set(conf, '$.schedVer', 1);",
    ])
  func v1Upgraded(setting: String) throws {
    // v1 holds a card being relearned as a review card (type 2), in queue 1 or (next day) 3.
    let v1Cards = """
      UPDATE cards SET type = 2 WHERE id = \(Self.relearningCard);
      UPDATE cards SET type = 2, queue = 3, due = 10 WHERE id = (SELECT id FROM cards WHERE type = 2 AND queue = 2 LIMIT 1);
      UPDATE cards SET type = 2, queue = -1 WHERE id = (SELECT id FROM cards WHERE type = 2 AND queue = 2 LIMIT 1);
      """
    let before = try Self.read(Self.answers + v1Cards.replacingOccurrences(of: "\n", with: " ")).collection
    let contents = try Self.read(setting + Self.answers + v1Cards.replacingOccurrences(of: "\n", with: " "))
    let upgraded = contents.collection

    var expectedEases: [Int] = []
    for kind in 0...3 {
      for ease in 0...4 {
        expectedEases.append((kind == 0 || kind == 2) && (ease == 2 || ease == 3) ? ease + 1 : ease)
      }
    }
    #expect(upgraded.reviews.map(\.ease) == expectedEases)
    #expect(upgraded.reviews.map(\.kind) == before.reviews.map(\.kind))

    for (was, card) in zip(before.cards, upgraded.cards) {
      let s = was.scheduling
      let relearning = s.type == .review && (s.queue == .learning || s.queue == .dayLearning)
      var expected = was
      if relearning { expected.scheduling.type = .relearning }
      #expect(card == expected, "card \(card.id)")
    }
    let changedCards = zip(before.cards, upgraded.cards).filter { $0 != $1 }.count
    #expect(changedCards == 2)

    let warning = try #require(Self.schedulerWarnings(contents).first)
    #expect(Self.schedulerWarnings(contents).count == 1)
    #expect(warning.category == "scheduler-v1-upgraded")
    #expect(warning.location.table == "col")
    #expect(warning.message.contains("4 learning answers in the review log took v2's button numbers"))
    #expect(warning.message.contains("2 cards being relearned became relearning cards (type 3)"))
  }

  @Test("a v1 collection with nothing to change is read without a warning")
  func v1WithoutChanges() throws {
    let contents = try Self.read(
      "UPDATE col SET conf = json_remove(conf, '$.schedVer'); DELETE FROM revlog; UPDATE cards SET type = 1 WHERE type = 3;"
    )
    #expect(Self.schedulerWarnings(contents).isEmpty)
  }

  @Test(
    "a v1 collection package with nothing to change in its rows is reported: its settings are written for v2 (`schedVer`, the day's start)"
  )
  func v1CollectionPackageSettings() throws {
    let contents = try AnkiPackageReader().read(path: Fixtures.path("real/it-passport-empty-legacy.colpkg"))
    #expect(!contents.collection.settings.contains { $0.key == "schedVer" })
    let warning = try #require(Self.schedulerWarnings(contents).first)
    #expect(Self.schedulerWarnings(contents).count == 1)
    #expect(warning.category == "scheduler-v1-upgraded")
    #expect(
      warning.message
        == "the collection was kept by Anki's v1 scheduler; as Anki does when it imports or opens it, its settings count days as Anki's current scheduler does (`schedVer` 2 and `sched2021`; the day starting at `rollover` and `creationOffset`, taken from the collection's creation time where it has none)"
    )
  }

  @Test("the config table, when there is one, holds the setting Anki reads")
  func configTable() throws {
    let table =
      "CREATE TABLE config (KEY text NOT NULL PRIMARY KEY, usn integer NOT NULL, mtime_secs integer NOT NULL, val blob NOT NULL);"
    let v1 = try Self.read(table + Self.answers)
    #expect(v1.collection.reviews.filter { $0.kind == .learning }.map(\.ease) == [0, 1, 3, 4, 4])
    let v2 = try Self.read(table + "INSERT INTO config VALUES ('schedVer', 0, 0, CAST('2' AS BLOB));" + Self.answers)
    #expect(v2.collection.reviews.filter { $0.kind == .learning }.map(\.ease) == [0, 1, 2, 3, 4])
    #expect(Self.schedulerWarnings(v2).isEmpty)
  }

  @Test(
    "an unreadable setting keeps the scheduling as stored, with a warning",
    arguments: [
      ("UPDATE col SET conf = json_set(conf, '$.schedVer', 'two');", "column conf", "not a whole number"),
      ("UPDATE col SET conf = 'not json';", "column conf", "not a JSON object"),
    ])
  func unreadable(sql: String, item: String, wording: String) throws {
    let contents = try Self.read(sql + Self.answers)
    #expect(contents.collection.reviews.filter { $0.kind == .learning }.map(\.ease) == [0, 1, 2, 3, 4])
    let warning = try #require(Self.schedulerWarnings(contents).first)
    #expect(warning.category == "scheduler-unknown")
    #expect(warning.location.item == item)
    #expect(warning.message.contains(wording))
  }
  // MARK: - Filtered decks

  /// The real v1 package with a filtered deck (`Custom Study Session`, which does not
  /// reschedule), and the ids it holds.
  static let filteredPackage = "real/c-notes-filtered-legacy1.apkg"
  static let filteredDeck: Int64 = 1_515_336_194_837
  static let homeDeck: Int64 = 1_514_870_624_479
  static let note: Int64 = 1_515_339_103_411

  /// What the real backend's `upgrade_scheduler` made of a card of each type and queue planted
  /// in that filtered deck, with the deck rescheduling or not (type, queue before → after);
  /// every other pair stayed as it was. Cards planted in a normal deck (with a home deck set),
  /// or in the filtered deck without one, changed only by the rule for cards being relearned.
  static let filteredChanges: [Bool: [[Int]: [Int]]] = [
    false: [
      [0, 0]: [0, 2], [2, 0]: [2, 2], [3, 0]: [3, 2], [2, 1]: [3, 1], [2, 3]: [3, 3],
      [1, -3]: [0, 4], [1, -2]: [0, 4], [1, -1]: [0, 4], [1, 0]: [0, 4],
      [1, 1]: [0, 4], [1, 2]: [0, 4], [1, 3]: [0, 4], [1, 4]: [0, 4],
    ],
    true: [[1, 0]: [1, 3], [2, 0]: [2, 2], [3, 0]: [3, 3], [2, 1]: [3, 1], [2, 3]: [3, 3]],
  ]

  /// SQL planting a card of every type (0–3) and queue (-3 to 4) in deck `deck` with home deck
  /// `home`, ids from `firstID` in that order.
  static func planted(firstID: Int64, deck: Int64, home: Int64) -> String {
    "WITH RECURSIVE types(t) AS (SELECT 0 UNION ALL SELECT t + 1 FROM types WHERE t < 3), "
      + "queues(q) AS (SELECT -3 UNION ALL SELECT q + 1 FROM queues WHERE q < 4) "
      + "INSERT INTO cards SELECT \(firstID) + t * 8 + q + 3, \(note), \(deck), 0, 0, -1, t, q, "
      + "CASE WHEN q IN (1, 4) THEN 1515388089 ELSE -99990 END, 0, 0, 0, 0, 0, 29, \(home), 0, '' FROM types, queues;"
  }

  @Test("cards in a v1 filtered deck take v2's queues as Anki gives them", arguments: [false, true])
  func filteredDeckCards(reschedules: Bool) throws {
    let scratch = try TemporaryDirectory()
    let changed = scratch.path(for: "changed.apkg")
    let setting =
      "UPDATE col SET decks = json_set(decks, '$.\"\(Self.filteredDeck)\".resched', json('\(reschedules)'));"
    try PackageSurgery.copy(
      Fixtures.path(Self.filteredPackage), to: changed,
      runningOnCollection: setting
        + Self.planted(firstID: 1_600_000_000_000, deck: Self.filteredDeck, home: Self.homeDeck)
        + Self.planted(firstID: 1_700_000_000_000, deck: Self.homeDeck, home: Self.filteredDeck)
        + Self.planted(firstID: 1_800_000_000_000, deck: Self.filteredDeck, home: 0))
    let contents = try AnkiPackageReader().read(path: changed)
    let cards = Dictionary(uniqueKeysWithValues: contents.collection.cards.map { ($0.id, $0.scheduling) })
    let changes = try #require(Self.filteredChanges[reschedules])
    for type in 0...3 {
      for queue in -3...4 {
        let offset = Int64(type * 8 + queue + 3)
        let relearning = type == 2 && (queue == 1 || queue == 3) ? [3, queue] : [type, queue]
        let cases: [(Int64, [Int])] = [
          (1_600_000_000_000, changes[[type, queue]] ?? [type, queue]),
          (1_700_000_000_000, relearning),
          (1_800_000_000_000, relearning),
        ]
        for (first, expected) in cases {
          let scheduling = try #require(cards[first + offset])
          #expect(
            [scheduling.type.rawValue, scheduling.queue.rawValue] == expected,
            "card \(first + offset): type \(type), queue \(queue)")
          #expect(scheduling.due == (queue == 1 || queue == 4 ? 1_515_388_089 : -99990))
          #expect(scheduling.originalDue == 29)
        }
      }
    }
    let warning = try #require(Self.schedulerWarnings(contents).first)
    #expect(warning.message.contains("in filtered decks took v2's queue"))
  }
}
