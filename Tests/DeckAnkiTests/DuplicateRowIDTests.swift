import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A collection whose `notes` or `cards` table lost its primary key and holds two rows of one id:
/// refused on reading, naming the table and the id (Anki refuses such a package too).
@Suite("Reading Anki packages: two rows with one id")
struct DuplicateRowIDTests {
  static func copyWithoutPrimaryKey(_ table: String) -> String {
    "CREATE TABLE copy AS SELECT * FROM \(table); DROP TABLE \(table); ALTER TABLE copy RENAME TO \(table);"
  }

  @Test(
    "two notes or two cards with one id are refused",
    arguments: [
      (
        "notes",
        "INSERT INTO notes SELECT id, 'other', mid, mod, usn, tags, flds, sfld, csum, flags, data FROM notes WHERE id = 1795331276845"
      ),
      (
        "cards",
        "INSERT INTO cards SELECT id, 1795331276846, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, flags, data FROM cards WHERE id = 1795331276845"
      ),
    ])
  func refused(table: String, insert: String) throws {
    let scratch = try TemporaryDirectory()
    let damaged = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: damaged,
      runningOnCollection: Self.copyWithoutPrimaryKey(table) + insert)
    let error = try #require(throws: DeckError.self) { try AnkiPackageReader().read(path: damaged) }
    #expect(error.location.table == table)
    #expect(error.location.row == 1_795_331_276_845)
    #expect(
      error.message
        == "two rows have the id 1795331276845; references to it would be ambiguous, and Anki refuses such a package")
  }
}
