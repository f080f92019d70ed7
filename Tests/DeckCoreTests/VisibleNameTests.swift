import DeckCore
import Testing

/// How names from a file are shown in messages (``MediaFileName/visible(_:)``): hidden
/// characters as escapes, and the marks of a name not in NFC, so that it reads otherwise than
/// its NFC form; a name in NFC keeps its marks.
@Suite("Names shown in messages")
struct VisibleNameTests {
  @Test("an NFD name shows its marks escaped; NFC names, Devanagari and Thai among them, read as they are")
  func marks() {
    #expect(MediaFileName.visible("Nai\u{308}ve") == "Nai\\u{308}ve")
    #expect(MediaFileName.visible("Na\u{EF}ve") == "Na\u{EF}ve")
    #expect(MediaFileName.visible("कार्ड") == "कार्ड")
    #expect(MediaFileName.visible("ภาษาไทย") == "ภาษาไทย")
    // A mark NFC cannot compose stays: the name is in NFC.
    #expect(MediaFileName.visible("x\u{301}") == "x\u{301}")
  }

  @Test("control, format and private-use characters are always escaped")
  func hidden() {
    #expect(MediaFileName.visible("pix\u{07}el.png") == "pix\\u{07}el.png")
    #expect(MediaFileName.visible("abc\u{202E}def") == "abc\\u{202E}def")
    #expect(MediaFileName.visible("a\u{200B}b") == "a\\u{200B}b")
    #expect(MediaFileName.visible("\u{E000}") == "\\u{E000}")
  }
}
