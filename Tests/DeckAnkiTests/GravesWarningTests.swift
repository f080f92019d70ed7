import DeckAnki
import DeckCore
import DeckTestSupport
import Testing

/// A collection's deletion records (its `graves` table) are not carried by the model; a
/// collection that holds some says so when it is read, with their number.
@Suite("Reading Anki packages: deletion records")
struct GravesWarningTests {
  static func gravesWarnings(_ package: String) throws -> [Diagnostic] {
    try AnkiPackageReader().read(path: Fixtures.path(package)).warnings.filter { $0.category == "graves-dropped" }
  }

  @Test(
    "a collection with deletion records warns, counting them",
    arguments: [
      ("real/it-passport-empty-legacy.colpkg", "13964 deletion records"),
      ("real/c-notes-filtered-legacy1.apkg", "22 deletion records"),
      ("real/word-list-latest.colpkg", "16 deletion records"),
    ])
  func counted(package: String, wording: String) throws {
    let warnings = try Self.gravesWarnings(package)
    #expect(warnings.count == 1)
    let warning = try #require(warnings.first)
    #expect(warning.location.table == "graves")
    #expect(warning.message.contains(wording))
    #expect(warning.message.contains("deckport does not carry them"))
  }

  @Test("a package without deletion records has no such warning")
  func none() throws {
    #expect(try Self.gravesWarnings("real/french-phrases-latest.apkg").isEmpty)
    #expect(try Self.gravesWarnings("anki/legacy2_sched.apkg").isEmpty)
  }
}
