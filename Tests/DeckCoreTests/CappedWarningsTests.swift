import DeckCore
import Testing

@Suite("CappedWarnings")
struct CappedWarningsTests {
  @Test("the first N of each category are listed, the rest counted in one warning per category")
  func capsPerCategory() {
    let file = SourceLocation(file: "deck.apkg")
    var warnings = CappedWarnings(location: file, listedPerCategory: 2)
    for row in 1...5 { warnings.report("orphan-card", at: file.table("cards", row: Int64(row)), "card \(row)") }
    warnings.report("field-count", at: file.table("notes", row: 9), "note 9")
    let all = warnings.finished()
    #expect(all.map(\.message) == ["card 1", "card 2", "note 9", "3 more warnings of this kind were not listed"])
    #expect(all.last?.category == "orphan-card")
    #expect(all.last?.location == file)
  }

  @Test("warnings listed in full keep their turn; a category's count points where its reports said")
  func listedInFullAndSummaryPlace() {
    let file = SourceLocation(file: "deck.apkg")
    let notes = file.table("notes")
    var warnings = CappedWarnings(location: file, listedPerCategory: 1)
    warnings.report("tag-changed", at: notes.item("note 1"), summaryAt: notes, "note 1")
    warnings.append(contentsOf: [Diagnostic("media-renamed", at: file.member("media"), "a.png")])
    warnings.report("tag-changed", at: notes.item("note 2"), summaryAt: notes, "note 2")
    warnings.report("orphan-card", at: file.table("cards", row: 1), "card 1")
    warnings.report("orphan-card", at: file.table("cards", row: 2), "card 2")
    let all = warnings.finished()
    #expect(
      all.map(\.message) == [
        "note 1", "a.png", "card 1", "1 more warnings of this kind were not listed",
        "1 more warnings of this kind were not listed",
      ])
    // Categories' counts in name order, each where its reports said (else the file).
    #expect(all.suffix(2).map(\.category) == ["orphan-card", "tag-changed"])
    #expect(all.suffix(2).map(\.location) == [file, notes])
  }
}
