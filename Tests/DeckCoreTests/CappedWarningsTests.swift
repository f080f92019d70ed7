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
}
