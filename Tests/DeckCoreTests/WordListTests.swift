import DeckCore
import Testing

@Suite("Lists in messages")
struct WordListTests {
  @Test("none, one, two and more items, with \"and\" before the last")
  func joined() {
    #expect(WordList.joined([]) == "")
    #expect(WordList.joined(["fields"]) == "fields")
    #expect(WordList.joined(["fields", "styling"]) == "fields and styling")
    #expect(WordList.joined(["fields", "templates", "styling"]) == "fields, templates and styling")
  }
}
