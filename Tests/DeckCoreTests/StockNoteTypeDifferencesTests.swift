import DeckCore
import Foundation
import Testing

@Suite("What differs from a stock note type")
struct StockNoteTypeDifferencesTests {
  @Test("a stock note type, in any of Anki's languages, differs in nothing; another name is no stock one")
  func stockAndOther() throws {
    #expect(StockNoteType.differences(of: StockNoteType.cloze.noteType) == [])
    let french = try #require(StockNoteType.noteType(named: "Basique"))
    #expect(StockNoteType.differences(of: french) == [])
    var vocab = StockNoteType.basic.noteType
    vocab.name = "Vocab"
    #expect(StockNoteType.differences(of: vocab) == nil)
    #expect(!StockNoteType.isUnchanged(vocab))
  }

  @Test("each part that differs is named, in a fixed order")
  func eachPart() {
    var cloze = StockNoteType.cloze.noteType
    cloze.css += "\n.cloze { color: red; }"
    #expect(StockNoteType.differences(of: cloze) == ["styling"])
    #expect(!StockNoteType.isUnchanged(cloze))
    cloze.fields[1].name = "Extra"
    cloze.templates[0].answerFormat = cloze.templates[0].answerFormat.replacingOccurrences(
      of: "Back Extra", with: "Extra")
    #expect(StockNoteType.differences(of: cloze) == ["fields", "templates", "styling"])
    var basic = StockNoteType.basic.noteType
    basic.name = "BASIC"
    basic.sortFieldIndex = 1
    basic.kind = .cloze
    #expect(StockNoteType.differences(of: basic) == ["name's letter case", "kind", "sort field"])
  }
}
