import Foundation
import Testing

@testable import DeckCore

/// The byte scanners that replace Anki's regular expressions on the hot path must find exactly
/// what the expressions find.
@Suite("Markup stripping: byte scan against Anki's patterns")
struct MarkupScanTests {
  static let examples = [
    "Hello <b>world</b> &amp; friends",
    "a<br>b<!-- c --><style>d</style>",
    "<!-- open comment > then <b>x</b>",
    "<style>a</style>b</style>c",
    "<STYLE type=x>p{}</StYlE>after",
    "<style</style>",
    "<styles>x</style>y",
    "<script>if (a < b) {}</script>tail",
    "<scrip>t</script>",
    "no closing <b",
    "<<b>>",
    "<>",
    "a <-- b --> c <!---->d",
    "<img src=\"x.png\"> after",
    "<b>être</b> <i>là</i>",
    "<ſtyle>x</style>y",
    "<div>\nline\r\n</div>",
    "",
    "plain",
  ]

  @Test(arguments: examples)
  func sameAsPattern(_ html: String) {
    #expect(AnkiFieldText.strippingHTML(html) == AnkiFieldText.strippingHTMLWithPattern(html))
    #expect(
      AnkiFieldText.strippingHTMLPreservingMediaFileNames(html)
        == AnkiFieldText.strippingHTMLPreservingMediaFileNamesWithPatterns(html))
  }

  /// Random strings over an alphabet rich in the pattern's delimiters.
  @Test func randomStringsSameAsPattern() {
    let pieces = [
      "<", ">", "/", "!", "-", "--", "<!--", "-->", "<style", "</style>", "<script", "</script>",
      "<STYLE", "</Script>", "<b>", "</b>", " ", "x", "é", "\n", "&amp;", "<img src=", "\"a.png\"",
      "'b c.jpg'", "<audio src=d.ogg>", "s", "t", "y", "l", "e",
    ]
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<4000 {
      let count = Int(generator.next() % 12)
      let html = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      #expect(
        AnkiFieldText.strippingHTML(html) == AnkiFieldText.strippingHTMLWithPattern(html),
        "\(html.debugDescription)")
      #expect(
        AnkiFieldText.strippingHTMLPreservingMediaFileNames(html)
          == AnkiFieldText.strippingHTMLPreservingMediaFileNamesWithPatterns(html),
        "\(html.debugDescription)")
    }
  }

  @Test func laTeXPrefilter() {
    #expect(MediaReferences.mayHoldLaTeX("x [latex]a[/latex]"))
    #expect(MediaReferences.mayHoldLaTeX("[LaTeX]a"))
    #expect(MediaReferences.mayHoldLaTeX("[$]x[/$]"))
    #expect(MediaReferences.mayHoldLaTeX("[$$]x"))
    #expect(!MediaReferences.mayHoldLaTeX("[sound:a.mp3] [late"))
    #expect(!MediaReferences.mayHoldLaTeX("no brackets $"))
    #expect(MediaReferences.latexFileNames(in: "[latex]x^2[/latex]", svg: false).count == 1)
  }
}

/// A small deterministic generator, so a failure can be reproduced.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("SHA1: the system's and the portable code agree")
struct SHA1EngineTests {
  @Test func copiesAreIndependent() {
    var first = SHA1()
    first.update(Data("ab".utf8))
    var second = first
    first.update(Data("c".utf8))
    second.update(Data("x".utf8))
    #expect(SHA1.hex(first.finalize()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(SHA1.hex(second.finalize()) == SHA1.hex(SHA1.digest(Data("abx".utf8))))
  }

  @Test func portableMatchesSystem() {
    var generator = SplitMix64(seed: 7)
    for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 70_000] {
      let data = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
      var portable = SHA1(portable: ())
      var split = 0
      while split < data.count {
        let end = min(data.count, split + 1 + Int(generator.next() % 100))
        portable.update(data[split..<end])
        split = end
      }
      #expect(portable.finalize() == SHA1.digest(data), "length \(length)")
    }
  }
}
