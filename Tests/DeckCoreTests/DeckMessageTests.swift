import DeckCore
import Foundation
import Testing

@Suite("Messages that name settings")
struct DeckMessageTests {
  @Test("a setting stays typed: the library names it its way, a front end its own")
  func naming() {
    let count = 2
    let message: DeckMessage = "several keys hold records (\(count)); name one with \(setting: .recordKey)"
    #expect(message.text == "several keys hold records (2); name one with AppStorageOptions.key")
    #expect(message.text { "<\($0.rawValue)>" } == "several keys hold records (2); name one with <recordKey>")
    #expect(message.settings == [.recordKey])
    #expect(message.parts == [.text("several keys hold records (2); name one with "), .setting(.recordKey)])
  }

  @Test("a plain message equals the same words however they were built")
  func plain() {
    let word = "held"
    #expect(DeckMessage("already \(word)") == "already \(word)")
    #expect(DeckMessage("").parts.isEmpty)
    let inner: DeckMessage = "pass \(setting: .replaceExisting)"
    let outer: DeckMessage = "wrapped: \(inner) (after)"
    #expect(outer.parts == [.text("wrapped: pass "), .setting(.replaceExisting), .text(" (after)")])
  }

  @Test("errors and warnings keep the setting; naming writes it into the words")
  func errorsAndWarnings() {
    let error = DeckError(
      .invalidRequest, at: SourceLocation(file: "out.apkg"),
      "already exists; pass \(setting: .replaceExisting) to replace it")
    #expect(error.message == "already exists; pass replacing: true (ExistingFilePolicy.replace) to replace it")
    #expect(error.wording.settings == [.replaceExisting])
    let named = error.naming { _ in "--force" }
    #expect(named.description == "out.apkg: already exists; pass --force to replace it")
    #expect(named.wording.settings.isEmpty)
    let warning = Diagnostic(
      "csv-separator", at: SourceLocation(file: "s.csv"), "pass \(setting: .csvSeparator) if that is wrong")
    #expect(warning.naming { _ in "--separator" }.message == "pass --separator if that is wrong")
    #expect(DeckError.Kind.notFaithful.explanation.settings == [.strict])
  }

  @Test("an app showing localizedDescription gets the same line as description, not Foundation's placeholder")
  func localizedDescription() {
    let error = DeckError(.corrupt, at: SourceLocation(file: "cut.apkg", member: "media"), "not a zstd frame")
    let shown: any Error = error
    #expect(shown.localizedDescription == "cut.apkg: member 'media': not a zstd frame")
    #expect((shown as NSError).localizedDescription == error.description)
    // A location that names nothing (an app's own input) leaves the message alone.
    let unplaced = DeckError(.invalidRequest, at: SourceLocation(file: ""), "a tag to search for is empty")
    #expect(unplaced.description == "a tag to search for is empty")
    let warning = Diagnostic("deck-missing", at: SourceLocation(file: ""), "no such deck")
    #expect(warning.description == "warning: [deck-missing] no such deck")
  }
}
