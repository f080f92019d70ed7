import DeckCore
import Testing

/// A `::` name's levels, and the deck name Anki stores of it.
///
/// The stored names are those the real backend gave (anki 26.9.3, `col.decks.id(name)` then the
/// deck's name), written out here; `Tests/anki/test_csv_import_of_ours.py` has the backend
/// judge the same names through a written file.
@Suite("Deck name levels")
struct DeckNameLevelsTests {
  @Test(
    "a name splits at each :: from the left, byte by byte",
    arguments: [
      ("A::B", ["A", "B"]),
      ("a:::b", ["a", ":b"]),
      ("a::::b", ["a", "", "b"]),
      ("::", ["", ""]),
      ("plain", ["plain"]),
      ("", [""]),
      // Foundation's components(separatedBy:) compares characters: `:` and U+0301 are one, so it
      // would find no separator here.
      ("a::\u{301}b", ["a", "\u{301}b"]),
      ("\u{1F1EB}\u{1F1F7}::\u{E9}", ["\u{1F1EB}\u{1F1F7}", "\u{E9}"]),
    ])
  func levels(name: String, expected: [String]) {
    #expect(Deck.levels(of: name).map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
    #expect(Deck(id: 2, name: name).nameComponents == expected)
  }

  @Test(
    "the stored name is what Anki's backend stores",
    arguments: [
      ("a:: \u{301}b", "a::\u{301}b"),
      ("x::\u{301}y", "x::\u{301}y"),
      ("p :::q", "p::q"),
      ("\u{A0}r\u{2028}::s\u{85}", "r::s"),
      ("::\u{301}", "blank::\u{301}"),
      (" Spaced :: Deck ", "Spaced::Deck"),
      ("Line\nBreak", "LineBreak"),
    ])
  func storedName(given: String, stored: String) {
    #expect(Array(Deck.storedName(given).unicodeScalars) == Array(stored.unicodeScalars))
  }
}
