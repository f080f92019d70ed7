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

  /// The message of `card`'s template error on `side`, or nil.
  private static func templateError(_ card: RenderedCard, side: CardSide) -> String? {
    guard case .templateError(side, let message) = card.problem else { return nil }
    return message
  }

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

  /// A field `Naïve` (U+00EF) and its name in other spellings: decomposed (`i` + U+0308), and
  /// `Å` as U+212B ANGSTROM SIGN for U+00C5.
  @Test(
    "a name written in another normalization form is not the field's: Anki finds no field of that name",
    arguments: [
      ("{{Nai\u{308}ve}}", "Found '{{Nai\u{308}ve}}', but there is no field called 'Nai\u{308}ve'"),
      ("{{text:Nai\u{308}ve}}", "Found '{{text:Nai\u{308}ve}}', but there is no field called 'Nai\u{308}ve'"),
      ("{{#Nai\u{308}ve}}s{{/Nai\u{308}ve}}", "Found '{{#Nai\u{308}ve}}', but there is no field called 'Nai\u{308}ve'"),
      ("{{^Nai\u{308}ve}}s{{/Nai\u{308}ve}}", "Found '{{^Nai\u{308}ve}}', but there is no field called 'Nai\u{308}ve'"),
      (
        "{{\u{212B}ngstr\u{F6}m}}",
        "Found '{{\u{212B}ngstr\u{F6}m}}', but there is no field called '\u{212B}ngstr\u{F6}m'"
      ),
      ("{{#Na\u{EF}ve}}s{{/Nai\u{308}ve}}", "Found '{{/Nai\u{308}ve}}', but expected '{{/Na\u{EF}ve}}'"),
    ])
  func namesCompareExactly(_ front: String, message: String) {
    let fields: KeyValuePairs = ["G": "g", "Na\u{EF}ve": "value", "\u{C5}ngstr\u{F6}m": "value"]
    let card = CardRendererTests.rendered(front: "{{G}}" + front, fields: fields)
    let error = Self.templateError(card, side: .question)
    #expect(error.map(Self.scalars) == Self.scalars(message))
    // The name exactly as the field spells it is found.
    let exact = CardRendererTests.rendered(front: "{{Na\u{EF}ve}}|{{#Na\u{EF}ve}}s{{/Na\u{EF}ve}}", fields: fields)
    #expect(exact.question == "value|s")
  }

  @Test("a closing tag spelled exactly as its opening one closes it, and the field of that spelling shows")
  func sectionClosedByItsOwnName() {
    let card = CardRendererTests.rendered(
      front: "{{#Nai\u{308}ve}}s{{Nai\u{308}ve}}{{/Nai\u{308}ve}}", fields: ["Na\u{EF}ve": "", "Nai\u{308}ve": "v"])
    #expect(card.problem == nil)
    #expect(card.question == "sv")
  }

  /// A card of a note type with the fields `Front` ("x") and `Back` ("y").
  private static func rendered(front: String, back: String = "{{FrontSide}}") -> RenderedCard {
    CardRendererTests.rendered(front: front, back: back, fields: ["Front": "x", "Back": "y"])
  }
}
