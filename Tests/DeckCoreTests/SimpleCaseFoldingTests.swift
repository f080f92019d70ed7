import DeckCore
import Testing

/// ``SimpleCaseFolding``, the letters Rust's `regex` joins under `(?i)`, made from the standard
/// library's case mappings. The backend's answers for the contested letters are in
/// `fixtures/search/search_cases.json` (`AnkiSearchPatternTests`).
@Suite("Unicode simple case folding, as Rust's regex ignores case")
struct SimpleCaseFoldingTests {
  static func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
    SimpleCaseFolding.key(a) == SimpleCaseFolding.key(b)
  }

  @Test("joined: both cases, ſ and s, the Kelvin sign and k, the three sigmas, ẞ and ß, Cherokee")
  func joined() {
    let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [
      ("A", "a"), ("ſ", "s"), ("ſ", "S"), ("\u{212A}", "k"), ("\u{212A}", "K"), ("ς", "σ"), ("ς", "Σ"), ("ẞ", "ß"),
      ("É", "é"), ("ǅ", "ǆ"), ("ǅ", "Ǆ"), ("\u{2126}", "ω"), ("ϑ", "θ"), ("ϴ", "θ"), ("µ", "μ"), ("\u{345}", "ι"),
      ("Ꭰ", "ꭰ"), ("ᏸ", "Ᏸ"), ("𐐀", "𐐨"), ("Ⅻ", "ⅻ"),
    ]
    for (a, b) in pairs { #expect(Self.same(a, b), "\(a) \(b)") }
  }

  @Test("apart: ı and i, İ and i, ß and s, ﬆ and s (their only foldings are Turkish or of two scalars)")
  func apart() {
    let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [
      ("ı", "i"), ("ı", "I"), ("İ", "i"), ("İ", "I"), ("ß", "s"), ("ﬆ", "s"), ("ŉ", "n"), ("a", "b"), ("σ", "ρ"),
    ]
    for (a, b) in pairs { #expect(!Self.same(a, b), "\(a) \(b)") }
  }

  @Test("a key is its own key, and only ASCII letters, ſ and the Kelvin sign have an ASCII letter's (FoldedLiteral)")
  func everyScalar() {
    var toASCIILetters: [Unicode.Scalar] = []
    for value in UInt32(0)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let key = SimpleCaseFolding.key(scalar)
      #expect(SimpleCaseFolding.key(key) == key, "\(value)")
      if !scalar.isASCII, key.isASCII, key.properties.isAlphabetic { toASCIILetters.append(scalar) }
    }
    #expect(toASCIILetters == ["ſ", "\u{212A}"])
  }
}
