import DeckCore
import Foundation
import Testing

@testable import DeckAnki

@Suite("Reading Anki packages: note fields split on U+001F, invalid UTF-8 found")
struct FieldSplitTests {
  static func split(_ bytes: [UInt8]) -> (values: [String], isValidUTF8: Bool) {
    bytes.withUnsafeBufferPointer { CollectionReader.checkedFields($0) }
  }

  @Test("values between separators, empty ones included")
  func values() {
    #expect(Self.split([]).values == [""])
    #expect(Self.split(Array("a".utf8)).values == ["a"])
    #expect(Self.split([0x1F]).values == ["", ""])
    #expect(Self.split(Array("a\u{1F}".utf8)).values == ["a", ""])
    #expect(Self.split(Array("a\u{1F}b\u{1F}\u{1F}caf\u{E9}".utf8)).values == ["a", "b", "", "caf\u{E9}"])
    #expect(Self.split(Array("a\u{1F}b".utf8)).isValidUTF8)
  }

  @Test("invalid UTF-8 is read as U+FFFD and reported, even where the text keeps its length")
  func invalid() {
    let stray = Self.split([0x61, 0xFF, 0x1F, 0x62])
    #expect(stray.values == ["a\u{FFFD}", "b"])
    #expect(!stray.isValidUTF8)
    // A 4-byte sequence cut after 3 bytes becomes one U+FFFD, also 3 bytes long.
    let cut = Self.split([0x1F, 0xF0, 0x90, 0x80])
    #expect(cut.values == ["", "\u{FFFD}"])
    #expect(!cut.isValidUTF8)
    #expect(Self.split(Array("日本\u{1F}語".utf8)).isValidUTF8)
  }
}
