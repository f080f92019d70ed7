import DeckCore
import Testing

@testable import DeckAnki

/// Anki reads a template's delimiters byte by byte and compares names byte for byte, where
/// Swift's `Character` and `==` join a combining mark to the character before it and take
/// canonically equivalent text for the same. Each case here rendered otherwise until deckport
/// read templates as Anki does; all are judged by the backend in
/// `Tests/anki/test_card_rendering.py` (the `exact_bytes` package).
@Suite("Card rendering: templates read byte by byte, as Anki reads them")
struct TemplateBytesTests {
  /// `text`'s scalars, to compare exactly (`#expect(a == b)` would take `e` + U+0301 for U+00E9).
  private static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

  @Test(
    "{{=<% %>=}} followed by a combining mark, a joiner or a variation selector still switches to <% %>",
    arguments: ["\u{301}", "\u{200D}", "\u{903}", "\u{FE0F}"])
  func directiveBeforeAMark(_ mark: String) {
    let front = Self.rendered(front: "{{=<% %>=}}\(mark)<%Front%>")
    #expect(front.problem == nil)
    #expect(Self.scalars(front.question) == Self.scalars("\(mark)x"))
    // Repeated and after white space, as Anki takes it.
    let repeated = Self.rendered(front: " \n{{=<% %>=}}{{=<% %>=}}\(mark)<%Front%>")
    #expect(Self.scalars(repeated.question) == Self.scalars("\(mark)x"))
    // On the back alone: the back renders, and the front is not blamed for it.
    let back = Self.rendered(front: "{{Front}}", back: "{{=<% %>=}}\(mark)<%Back%>|<%FrontSide%>")
    #expect(back.problem == nil)
    #expect(back.question == "x")
    #expect(Self.scalars(back.answer) == Self.scalars("\(mark)y|x"))
  }

  @Test("a tag's closing }} followed by a combining mark ends the tag; the mark is text")
  func markAfterATag() {
    let card = Self.rendered(front: "{{Front}}\u{301}|{{#Back}}\u{301}s{{/Back}}\u{301}")
    #expect(Self.scalars(card.question) == Self.scalars("x\u{301}|\u{301}s\u{301}"))
  }

  @Test("the tts filter's options keep a combining mark after its space")
  func ttsOptionsAfterAMark() {
    let card = Self.rendered(front: "{{tts \u{301}en_US:Front}}")
    #expect(Self.scalars(card.question) == Self.scalars("[anki:tts lang=\u{301}en_US]x[/anki:tts]"))
  }

  /// A card of a note type with the fields `Front` ("x") and `Back` ("y").
  private static func rendered(front: String, back: String = "{{FrontSide}}") -> RenderedCard {
    CardRendererTests.rendered(front: front, back: back, fields: ["Front": "x", "Back": "y"])
  }
}
