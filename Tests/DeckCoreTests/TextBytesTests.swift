import DeckCore
import Testing

/// ``TextBytes`` (a vector loop in C) against the byte rules it stands for, written out here
/// byte by byte: every byte value, at the start, in the middle of a long run and in the tail
/// the vector loop leaves to single steps.
@Suite("The kinds of byte a field holds, found in one vector pass")
struct TextBytesTests {
  /// The rules, one byte at a time, for text given as UTF-8 bytes.
  static func expected(_ bytes: [UInt8]) -> TextBytes {
    var kinds: TextBytes = []
    for byte in bytes {
      if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F { kinds.insert(.removedControl) }
      if byte >= 0xCC { kinds.insert(.mayChangeInNFC) }
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "[") { kinds.insert(.markup) }
    }
    return kinds
  }

  @Test("every ASCII byte is classed as the rules say, wherever it stands", arguments: [0, 5, 40, 71])
  func everyASCIIByte(position: Int) {
    for byte in UInt8(0)...0x7F {
      var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 80)
      bytes[position] = byte
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(TextBytes(of: text) == Self.expected(bytes), "byte \(byte) at \(position)")
    }
  }

  @Test("characters from U+0300 on are the ones NFC may change; those below are not")
  func nfcBoundary() {
    for (text, mayChange) in [
      ("é", false), ("\u{02FF}", false), ("e\u{0301}", true), ("日本語", true), ("🙂", true), ("plain", false),
      (String(repeating: "x", count: 100) + "\u{0301}", true),
    ] {
      #expect(TextBytes(of: text).contains(.mayChangeInNFC) == mayChange, "\(Array(text.unicodeScalars))")
      #expect(text.mayChangeInNFC == mayChange)
      #expect(TextBytes(of: text) == Self.expected(Array(text.utf8)))
    }
  }

  @Test("empty text holds nothing; tab and line feed are not removed controls")
  func emptyAndWhiteSpace() {
    #expect(TextBytes(of: "") == [])
    #expect(TextBytes(of: "a\tb\nc") == [])
    #expect(TextBytes(of: "a\r\nb") == [.removedControl])
    #expect(TextBytes(of: "<img src=\"a.png\">\u{1F}") == [.markup, .removedControl])
  }
}
