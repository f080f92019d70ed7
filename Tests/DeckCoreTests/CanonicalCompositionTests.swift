import Foundation
import Testing

@testable import DeckCore

@Suite("NFC: ASCII comes back as it is, the rest as Foundation composes it")
struct CanonicalCompositionTests {
  @Test("every ASCII character, alone and in a name, is its own NFC form")
  func ascii() {
    for value in UInt8(0)..<0x80 {
      let text = String(decoding: [value], as: UTF8.self)
      #expect(
        text.canonicallyComposed.unicodeScalars.elementsEqual(text.precomposedStringWithCanonicalMapping.unicodeScalars)
      )
      let name = "image \(text) 1.jpg"
      #expect(name.canonicallyComposed.unicodeScalars.elementsEqual(name.unicodeScalars))
    }
  }

  @Test("decomposed text is composed; composed text and non-ASCII names are left alone")
  func composed() {
    let decomposed = "Cafe\u{301}.mp3"  // e and a combining acute accent
    #expect(Array(decomposed.canonicallyComposed.unicodeScalars) == Array("Caf\u{E9}.mp3".unicodeScalars))
    let jamo = "\u{1100}\u{1161}"  // Hangul conjoining jamo, composed to one syllable
    #expect(Array(jamo.canonicallyComposed.unicodeScalars) == ["\u{AC00}"])
    for name in ["Caf\u{E9}.mp3", "日本語.png", "A\u{30A}ngstr\u{F6}m", "\u{212B}"] {
      #expect(
        Array(name.canonicallyComposed.unicodeScalars)
          == Array(name.precomposedStringWithCanonicalMapping.unicodeScalars))
    }
    // A non-ASCII byte anywhere, even last, sends the string through the composition.
    #expect(Array("x\u{212B}".canonicallyComposed.unicodeScalars) == ["x", "\u{C5}"])
  }
}
