import DeckCore
import Testing

/// A template's directive, delimiters and names, read byte by byte as Anki reads them: Swift's
/// `Character` joins a combining mark to the `}` before it, and its `==` takes canonically
/// equivalent names for one. The renderer's cards are judged by the backend in
/// `Tests/anki/test_card_rendering.py`.
@Suite("Card templates: bytes, not characters")
struct AnkiTemplateBytesTests {
  /// The template's nodes written out, each text's and name's scalars escaped, to compare
  /// exactly (`Node`'s `==` compares canonically).
  private static func written(_ template: String) throws -> String {
    try AnkiTemplate(parsing: template).nodes.map(written).joined(separator: " ")
  }

  private static func written(_ node: AnkiTemplate.Node) -> String {
    func escaped(_ text: Substring) -> String {
      text.unicodeScalars.map { $0.isASCII ? String($0) : "U+\(String($0.value, radix: 16, uppercase: true))" }
        .joined()
    }
    switch node {
    case .text(let text): return "text(\(escaped(text)))"
    case .comment(let text): return "comment(\(escaped(text)))"
    case .replacement(let key, let filters):
      return "field(\((filters.map(escaped) + [escaped(key)]).joined(separator: ":")))"
    case .conditional(let key, let children):
      return "if(\(escaped(key)): \(children.map(written).joined(separator: " ")))"
    case .negatedConditional(let key, let children):
      return "unless(\(escaped(key)): \(children.map(written).joined(separator: " ")))"
    }
  }

  @Test(
    "{{=<% %>=}} is found before a mark the directive's } would join in a Character",
    arguments: ["\u{301}", "\u{200D}", "\u{903}", "\u{FE0F}"])
  func directiveBeforeAMark(_ mark: String) throws {
    let code = mark.unicodeScalars.map { "U+\(String($0.value, radix: 16, uppercase: true))" }.joined()
    #expect(try Self.written("{{=<% %>=}}\(mark)<%F%>") == "text(\(code)) field(F)")
    #expect(try Self.written("\t {{=<% %>=}}{{=<% %>=}}\(mark)<%F%>{{F}}") == "text(\(code)) field(F) text({{F}})")
    // Not at the start: a tag like any other.
    #expect(try Self.written("x{{=<% %>=}}\(mark)") == "text(x) field(=<% %>=) text(\(code))")
  }

  @Test("a section closes only at its name spelled with the same scalars")
  func sectionsCloseByExactName() throws {
    #expect(try Self.written("{{#Nai\u{308}ve}}s{{/Nai\u{308}ve}}") == "if(NaiU+308ve: text(s))")
    #expect(throws: AnkiTemplate.SyntaxError.self) { try AnkiTemplate(parsing: "{{#Na\u{EF}ve}}s{{/Nai\u{308}ve}}") }
    #expect(throws: AnkiTemplate.SyntaxError.self) { try AnkiTemplate(parsing: "{{^\u{C5}}}s{{/\u{212B}}}") }
  }

  @Test("a field is found by its name's exact scalars, the first field of a name")
  func fieldPositions() {
    let positions = FieldPositions(["Na\u{EF}ve", "Back", "Nai\u{308}ve", "Back"])
    #expect(positions["Na\u{EF}ve"] == 0)
    #expect(positions["Nai\u{308}ve"] == 2)
    #expect(positions["Back"] == 1)
    #expect(positions["\u{212B}"] == nil)
    #expect(positions.sortedPositions == [0, 1, 2])
  }

  @Test("a front that names a field in another normalization form shows no field: Anki makes no card of it")
  func cardGenerationComparesNamesExactly() {
    let noteType = NoteType(
      id: 1, name: "T", fields: [NoteType.Field(name: "Na\u{EF}ve"), NoteType.Field(name: "Back")],
      templates: [
        NoteType.CardTemplate(name: "1", questionFormat: "{{Nai\u{308}ve}}", answerFormat: ""),
        NoteType.CardTemplate(name: "2", questionFormat: "{{Back}}", answerFormat: ""),
        NoteType.CardTemplate(name: "3", questionFormat: "{{Na\u{EF}ve}}", answerFormat: ""),
      ])
    var generation = CardGeneration()
    #expect(generation.ordinals(for: ["n", "b"], tags: [], of: noteType) == [1, 2])
  }
}
