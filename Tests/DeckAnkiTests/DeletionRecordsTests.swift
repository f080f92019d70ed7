import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Testing

/// A collection's deletion records (its `graves` table: notes, cards and decks deleted since it
/// last synced) are read into the model as stored, and written into every package generation.
///
/// The expected records are what the `sqlite3` shell showed in each real package's collection
/// (`SELECT usn, type, count(*) FROM graves GROUP BY usn, type`), written here as data; that
/// Anki's own restore of what deckport writes keeps the same records is checked against the
/// real backend in `Tests/anki/test_writer_judged_by_anki.py`.
@Suite("Anki packages: deletion records")
struct DeletionRecordsTests {
  /// Per package: how many records of each (usn, kind), as the `sqlite3` shell counted them.
  static let stored: [(package: String, counts: [Key: Int])] = [
    (
      "real/c-notes-filtered-legacy1.apkg",
      [
        Key(3, .note): 4, Key(4, .note): 3, Key(5, .note): 1, Key(6, .note): 3, Key(7, .note): 2,
        Key(11, .note): 1, Key(14, .card): 1, Key(14, .note): 7,
      ]
    ),
    ("real/indian-music-legacy.colpkg", [Key(-1, .note): 4]),
    ("real/c-operators-anki20-legacy1.apkg", [Key(-1, .note): 7]),
    ("real/it-passport-empty-legacy.colpkg", [Key(-1, .card): 6966, Key(-1, .note): 6966, Key(-1, .deck): 32]),
    // Schema 18: one row per object and kind, in the table's key order.
    ("real/word-list-latest.colpkg", [Key(-1, .card): 2, Key(-1, .note): 14]),
  ]

  /// A record's update sequence number and kind.
  struct Key: Hashable {
    var usn: Int64
    var kind: DeletionKind
    init(_ usn: Int64, _ kind: DeletionKind) {
      self.usn = usn
      self.kind = kind
    }
  }

  static func counts(_ deletions: [Deletion]) -> [Key: Int] {
    deletions.reduce(into: [:]) { $0[Key($1.updateSequenceNumber, $1.kind), default: 0] += 1 }
  }

  @Test("every record is read as stored, with no warning about them", arguments: stored.map(\.package))
  func read(package: String) throws {
    let contents = try AnkiPackageReader().read(path: Fixtures.path(package))
    let expected = try #require(Self.stored.first { $0.package == package }?.counts)
    #expect(Self.counts(contents.collection.deletions) == expected)
    #expect(
      !contents.warnings.contains {
        $0.category.rawValue.contains("grave") || $0.category.rawValue.contains("deletion")
      })
  }

  @Test("the schema-11 records of one object and kind are all kept, as the file has them")
  func repeatsKept() throws {
    let deletions = try AnkiPackageReader().read(path: Fixtures.path("real/it-passport-empty-legacy.colpkg"))
      .collection.deletions
    // The sqlite3 shell: 6,998 distinct (oid, type) among the 13,964 rows.
    #expect(deletions.count == 13964)
    #expect(Set(deletions.map { "\($0.objectID)/\($0.kind.rawValue)" }).count == 6998)
    #expect(deletions.contains(Deletion(objectID: 1_690_101_107_762, kind: .deck)))
  }

  @Test(
    "written into every package generation, and read back the same",
    arguments: stored.map(\.package), [AnkiPackageKind.apkg, .colpkg])
  func written(package: String, kind: AnkiPackageKind) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    for generation in [AnkiPackageGeneration.legacy2, .latest] {
      let scratch = try TemporaryDirectory()
      let path = scratch.path(for: "written.\(kind.rawValue)")
      let warnings = try AnkiPackageWriter(options: .init(generation: generation, kind: kind))
        .write(original, to: path, reportingAs: path)
      // A deck package keeps them, and says once that Anki's import of it ignores them.
      #expect(
        warnings.filter { $0.category.rawValue.contains("deletion") }.map(\.category)
          == (kind == .apkg ? ["deletions-ignored"] : []))
      let back = try AnkiPackageReader().read(path: path).collection
      #expect(back.deletions == original.deletions, "\(generation.formatName(for: kind))")
    }
  }

  @Test("a record of a kind Anki does not define keeps its number, and shows it")
  func unknownKind() throws {
    var collection = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    #expect(collection.deletions.isEmpty)
    collection.deletions = [
      Deletion(objectID: 7, kind: DeletionKind(rawValue: 9), updateSequenceNumber: 42),
      Deletion(objectID: .max, kind: .deck), Deletion(objectID: .min, kind: .card, updateSequenceNumber: .min),
    ]
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "written.colpkg")
    _ = try AnkiPackageWriter(options: .init(generation: .legacy2, kind: .colpkg))
      .write(collection, to: path, reportingAs: path)
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(back.deletions == collection.deletions)
    #expect(back.deletions.map(\.kind.description) == ["9", "deck", "card"])
  }
}
