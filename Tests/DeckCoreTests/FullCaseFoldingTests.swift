import DeckCore
import Testing

/// The key Anki matches deck names, tags and note type names by (Unicode full case folding, as
/// the `unicase` crate folds), in the cases the backend was asked about.
@Suite("Full case folding, as Anki compares names")
struct FullCaseFoldingTests {
  @Test("names Anki takes for one share a key; names it keeps apart do not")
  func sameAndDifferent() {
    let same: [[String]] = [
      ["Straße", "STRASSE", "STRA\u{1E9E}E", "strasse"], ["ﬁ", "FI", "fi"], ["σας", "ΣΑΣ"], ["\u{212A}", "k"],
      ["Tip", "TIP", "tip"], ["e\u{301}", "É"],
    ]
    for names in same {
      #expect(Set(names.map(FullCaseFolding.key)).count == 1, "\(names)")
    }
    // The dotless ı folds to itself; İ folds to i and a combining dot.
    for (a, b) in [("Tip", "T\u{131}p"), ("\u{130}", "i"), ("ı", "i")] {
      #expect(FullCaseFolding.key(a) != FullCaseFolding.key(b), "\(a) \(b)")
    }
    #expect(FullCaseFolding.key("T\u{131}P") == FullCaseFolding.key("t\u{131}p"))
  }
}
