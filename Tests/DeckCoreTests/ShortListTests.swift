import DeckCore
import Testing

@Suite("ShortList")
struct ShortListTests {
  @Test("five items or fewer are all shown; more are counted")
  func counts() {
    #expect(ShortList.text([]) == "")
    #expect(ShortList.text(["a"]) == "a")
    #expect(ShortList.text(["a", "b", "c", "d", "e"]) == "a, b, c, d, e")
    #expect(ShortList.text(["a", "b", "c", "d", "e", "f", "g"]) == "a, b, c, d, e and 2 more")
  }

  @Test("quoted, with another limit and separator")
  func quotedAndSeparated() {
    #expect(ShortList.quoted(["x y", "z"]) == "'x y', 'z'")
    #expect(ShortList.quoted(["1", "2", "3"], limit: 2) == "'1', '2' and 1 more")
    #expect(ShortList.text(["note a", "note b", "note c"], limit: 2, separator: "; ") == "note a; note b and 1 more")
  }

  @Test("a sample of a longer list counts what it does not hold")
  func sample() {
    #expect(ShortList.text(["3", "5"], total: 9) == "3, 5 and 7 more")
    #expect(ShortList.text(["3", "5", "8", "9", "12", "14"], total: 40) == "3, 5, 8, 9, 12 and 35 more")
  }
}
