import DeckAnki
import DeckCore
import DeckTestSupport
import Testing

/// The sort field and checksum Anki derives from a first field whose media tags become their
/// file names, against what the real backend stored for each case of
/// `fixtures/media-references/reference_cases.json`.
@Suite("Sort field and checksum of media tags, as the real Anki backend makes them")
struct AnkiFieldTextCaseTests {
  @Test(arguments: MediaReferenceCase.all)
  func sortFieldAndChecksum(_ testCase: MediaReferenceCase) {
    let stripped = AnkiFieldText.strippingHTMLPreservingMediaFileNames(testCase.field)
    #expect(stripped == testCase.sortField)
    #expect(AnkiFieldText.checksum(stripped) == testCase.checksum)
  }

  /// A megabyte of quoted runs in a tag without a `src` (hours for a backtracking engine).
  @Test(.timeLimit(.minutes(5)))
  func hostileMediaTagsTakeLinearTime() {
    let field = "<img " + String(repeating: #""a""#, count: 350_000) + " src=x>"
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames(field) == " x ")
  }
}
