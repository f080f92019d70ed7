import DeckCore
import Testing

@testable import DeckAnki

/// ``TemplateFieldCheck``'s reasons, template by template. Whether each rule matches the real
/// backend is judged in `Tests/anki/test_crowdanki_import_of_ours.py` (the template test), which
/// runs Anki's note type API on every case; these pin the wording, the order of the reasons and
/// the cases that turn on single Unicode scalars.
@Suite("Card templates Anki's note type API refuses")
struct TemplateFieldCheckTests {
  private func problems(_ sides: [(String, String)], kind: NoteType.Kind = .standard) -> [String] {
    let templates = sides.enumerated().map { index, side in
      NoteType.CardTemplate(name: "Card \(index + 1)", questionFormat: side.0, answerFormat: side.1)
    }
    let names = kind == .cloze ? ["Text", "Back Extra"] : ["Front", "Back"]
    let noteType = NoteType(
      id: 1, name: "Probe", kind: kind, fields: names.map { NoteType.Field(name: $0) }, templates: templates)
    return TemplateFieldCheck.problems(in: noteType).map { "\($0.template): \($0.problem)" }
  }

  @Test func aFrontNeedsAReplacementOrASection() {
    let none =
      "Card 1: its front has no field replacement ({{Field}}) or section ({{#Field}}); Anki needs one on a front"
    #expect(problems([("plain", "{{Back}}")]) == [none])
    #expect(problems([("", "{{Back}}")]) == [none])
    #expect(problems([("<!-- {{Front}} -->", "{{Back}}")]) == [none])
    #expect(problems([("{{=<% %>=}}plain", "{{Back}}")]) == [none])
    #expect(problems([("{{Tags}}", "plain")]).isEmpty)
    #expect(problems([("{{#Front}}{{/Front}}", "")]).isEmpty)
    #expect(problems([("{{}}", "{{Back}}")]).isEmpty)
    #expect(problems([("<!-- {{Front}}", "{{Back}}")]).isEmpty, "an unclosed comment is text")
  }

  @Test func twoFrontsMustDifferByteForByteUnlessTheyHoldCard() {
    let same = "Card 2: its front is the same as that of template 'Card 1'"
    #expect(problems([("{{Front}}", "{{Back}}"), ("{{Front}}", "{{Front}}")]) == [same])
    #expect(
      problems([("{{Front}}", "1"), ("{{Back}}", "2"), ("{{Front}}", "3")]) == [
        "Card 3: its front is the same as that of template 'Card 1'"
      ])
    #expect(
      problems([("\u{E9}{{Front}}", "1"), ("e\u{301}{{Front}}", "2")]).isEmpty, "canonically equivalent, other bytes")
    #expect(problems([("{{ Card }}{{Front}}", "1"), ("{{ Card }}{{Front}}", "2")]).isEmpty)
    #expect(problems([("{{\u{A0}Card\t}}{{Front}}", "1"), ("{{\u{A0}Card\t}}{{Front}}", "2")]).isEmpty)
    #expect(problems([("{{{Card}}\u{301}{{Front}}", "1"), ("{{{Card}}\u{301}{{Front}}", "2")]).isEmpty)
    #expect(problems([("<!-- {{Card}} -->{{Front}}", "1"), ("<!-- {{Card}} -->{{Front}}", "2")]).isEmpty)
    #expect(problems([("{{text:Card}}{{Front}}", "1"), ("{{text:Card}}{{Front}}", "2")]) == [same])
    #expect(problems([("{{Card}{{Front}}", "1"), ("{{Card}{{Front}}", "2")]).last == same)
  }

  @Test func theSameFrontIsReportedBeforeWhatTheTemplateLacks() {
    #expect(
      problems([("{{card}}", "1"), ("{{card}}", "2")]) == [
        "Card 1: its front names the field 'card', which the note type does not have",
        "Card 2: its front is the same as that of template 'Card 1'",
      ])
  }

  /// Anki's API refused each of these (anki 26.9.3, `add_dict`: "Field 'Naïve' not found"),
  /// which Swift's `==` takes for the field's own name.
  @Test func namesAreComparedByteForByte() {
    let noteType = NoteType(
      id: 1, name: "Probe", fields: ["Na\u{EF}ve", "\u{C5}ngstr\u{F6}m"].map { NoteType.Field(name: $0) },
      templates: [
        NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Nai\u{308}ve}}", answerFormat: ""),
        NoteType.CardTemplate(name: "Card 2", questionFormat: "{{\u{212B}ngstr\u{F6}m}}", answerFormat: ""),
        NoteType.CardTemplate(name: "Card 3", questionFormat: "{{Na\u{EF}ve}}{{\u{C5}ngstr\u{F6}m}}", answerFormat: ""),
      ])
    let found = TemplateFieldCheck.problems(in: noteType).map { Array("\($0.template): \($0.problem)".unicodeScalars) }
    let expected = [
      "Card 1: its front names the field 'Nai\u{308}ve', which the note type does not have",
      "Card 2: its front names the field '\u{212B}ngstr\u{F6}m', which the note type does not have",
    ]
    #expect(found == expected.map { Array($0.unicodeScalars) })
  }

  @Test func aClozeNoteTypesFirstTemplateNeedsClozeOnBothSides() {
    let needs = "has no {{cloze:Field}}, which the first template of a cloze note type needs on its front and its back"
    let back = "Card 1: its back \(needs)"
    #expect(problems([("{{cloze:Text}}", "{{cloze:Text}}")], kind: .cloze).isEmpty)
    #expect(
      problems([("{{#Text}}{{type:cloze:Text}}{{/Text}}", "{{^Text}}{{cloze:Tags}}{{/Text}}")], kind: .cloze).isEmpty)
    #expect(problems([("{{cloze:Text}}", "{{FrontSide}}")], kind: .cloze) == [back])
    #expect(problems([("{{Cloze:Text}}", "{{cloze:Text}}")], kind: .cloze) == ["Card 1: its front \(needs)"])
    #expect(problems([("<!-- {{cloze:Text}} -->{{Text}}", "{{cloze:Text}}")], kind: .cloze).count == 1)
    #expect(problems([("{{cloze:Text}}", "{{cloze:Text}}"), ("{{Back Extra}}", "{{Text}}")], kind: .cloze).isEmpty)
    #expect(problems([("{{Front}}", "{{Back}}")]).isEmpty, "a standard note type needs no cloze")
  }
}
