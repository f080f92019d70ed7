import DeckCore
import Testing

@Suite("Finding a name among a file's names")
struct NameLookupTests {
  let composed = "caf\u{E9}"
  let decomposed = "cafe\u{301}"

  @Test("the name spelled exactly wins over one canonically equivalent")
  func exactFirst() {
    let names = ["front", composed, decomposed]
    #expect(NameLookup.position(of: composed, in: names) == 1)
    #expect(NameLookup.position(of: decomposed, in: names) == 2)
    #expect(NameLookup.position(of: "back", in: names) == nil)
  }

  @Test("a name in another composition finds the only name it can mean")
  func onlyEquivalent() {
    #expect(NameLookup.position(of: decomposed, in: ["front", composed]) == 1)
    #expect(NameLookup.position(of: composed, in: [decomposed]) == 0)
  }

  @Test("a name equivalent to several, none exactly, finds none")
  func ambiguous() {
    // ệ three ways: precomposed, ẹ + circumflex, ê + dot below.
    let names = ["\u{1EB9}\u{302}", "\u{EA}\u{323}"]
    #expect(names[0] == names[1])
    #expect(NameLookup.position(of: "\u{1EC7}", in: names) == nil)
    #expect(NameLookup.position(of: "\u{EA}\u{323}", in: names) == 1)
  }

  @Test("names that look alike are listed with their code points beyond ASCII")
  func listedApart() {
    #expect(NameLookup.listed(["a", "b"]) == "'a', 'b'")
    #expect(NameLookup.listed([composed]) == "'\(composed)'")
    #expect(
      NameLookup.listed(["front", composed, decomposed])
        == "'front', '\(composed)' (caf\\u{E9}), '\(decomposed)' (cafe\\u{301})")
  }
}
