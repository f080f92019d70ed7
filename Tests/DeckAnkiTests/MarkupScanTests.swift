import DeckCore
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

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

@Suite("A field as one line of plain text (Anki's export without HTML)")
struct PlainTextLineTests {
  @Test(
    "line breaks, <br> and <div> become spaces; sound, type-the-answer and tags go; entities decode; ends trimmed",
    arguments: [
      ("line1<br>line2 [sound:a.mp3] &amp; <img src=\"b.png\">", "line1 line2  &"),
      ("a<BR/>b<br />c<div>d</div>", "a b c d"),
      ("one\ntwo", "one two"),
      ("  [[type:Back]] answer&nbsp;", "answer"),
      ("<style>.x{}</style>styled <b>bold</b>", "styled bold"),
      ("plain", "plain"),
      ("a<br          \u{A0}>b", "a b"),
    ])
  func plainTextLine(html: String, text: String) {
    #expect(AnkiFieldText.plainTextLine(html) == text)
    #expect(AnkiFieldText.plainTextLineWithPatterns(html) == text)
  }

  /// Random strings over an alphabet rich in line breaks, tags and their look-alikes: the byte
  /// scan gives what Anki's expressions give.
  @Test func randomStringsSameAsPatterns() {
    let pieces = [
      "<", ">", "/", " ", "\t", "\n", "\r", "<br", "<BR", "<bR", "<div>", "<DIV>", "<div", "</div>", "br", "b", "r",
      "x", "é", "\u{A0}", "[sound:a.mp3]", "[[type:Back]]", "[sound:", "&amp;", "<img src=a.png>", "<b>",
    ]
    var generator = SplitMix64(seed: 0xB2)
    for _ in 0..<4000 {
      let count = Int(generator.next() % 12)
      let html = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
      #expect(
        AnkiFieldText.plainTextLine(html) == AnkiFieldText.plainTextLineWithPatterns(html), "\(html.debugDescription)")
    }
  }
}
