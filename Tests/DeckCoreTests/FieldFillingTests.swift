import Testing

@testable import DeckCore

/// The empty values notes are filled with stay within 4 Mi and twice the bytes of text counted
/// so far: the note that passes it throws, naming the note type and the place; those before it,
/// and notes that leave nothing out, pass.
@Suite("FieldFilling: empty values in proportion to the text")
struct FieldFillingTests {
  let place = SourceLocation(file: "deck.json", jsonPath: "notes[7].fields")

  @Test("the limit is 4 Mi and 2 per byte of text (UTF-8)")
  func limit() {
    var filling = FieldFilling()
    #expect(filling.limit == 4_194_304)
    filling.countText(of: ["ab", "é", ""])
    #expect(filling.textBytes == 4)
    #expect(filling.limit == 4_194_304 + 8)
  }

  @Test("up to the limit passes; one past it throws, naming the note type, the fields and the figures")
  func passingTheLimit() throws {
    var filling = FieldFilling()
    filling.countText(of: ["x"])
    // 1 given of 4_194_307 fields: 4_194_306 empty values, the limit exactly.
    try filling.countFill(given: 1, of: 4_194_307, noteType: "Wide", at: place)
    #expect(filling.emptyValuesAdded == 4_194_306)
    // A note that leaves nothing out adds nothing.
    try filling.countFill(given: 3, of: 3, noteType: "Wide", at: place)
    try filling.countFill(given: 5, of: 3, noteType: "Wide", at: place)
    let error = #expect(throws: DeckError.self) {
      try filling.countFill(given: 2, of: 3, noteType: "Wide", at: place)
    }
    #expect(error?.kind == .memoryLimitExceeded)
    #expect(error?.location == place)
    #expect(
      error?.message
        == "note type 'Wide' has 3 fields and this note gives values for 2: filling the notes so far with empty values for the fields they leave out would hold 4194307 empty values in memory, more than the 4194306 deckport allows (4194304, and 2 more for each of the 1 byte of text the notes give); remove the fields the notes do not use from the note type, or give the notes their values"
    )
  }

  @Test("text counted later raises the limit for the notes after it")
  func textRaisesTheLimit() throws {
    var filling = FieldFilling()
    try filling.countFill(given: 0, of: FieldFilling.allowance, noteType: "Wide", at: place)
    #expect(throws: DeckError.self) { try filling.countFill(given: 0, of: 1, noteType: "Wide", at: place) }
    var later = FieldFilling()
    try later.countFill(given: 0, of: FieldFilling.allowance, noteType: "Wide", at: place)
    later.countText(of: ["a"])
    try later.countFill(given: 0, of: 2, noteType: "Wide", at: place)
    #expect(later.emptyValuesAdded == FieldFilling.allowance + 2)
  }
}
