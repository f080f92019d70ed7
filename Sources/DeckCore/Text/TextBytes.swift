import CVectorText

/// The kinds of byte a text's UTF-8 holds that a package writer looks for in every field of
/// every note, found in one vector pass over the bytes (instead of a byte-by-byte scan for each
/// kind): a deck of 20,000 notes is checked in well under a millisecond.
package struct TextBytes: OptionSet, Sendable {
  package let rawValue: UInt32

  package init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// An ASCII control character other than tab and line feed (U+0000 and U+001F among them),
  /// or DEL: what Anki's import of a deck package removes from fields.
  package static let removedControl = TextBytes(rawValue: 1)
  /// A character from U+0300 on, the first that Unicode NFC can change: text without one is
  /// in NFC.
  package static let mayChangeInNFC = TextBytes(rawValue: 2)
  /// `<` or `[`, which every media reference (an HTML tag, `[sound:…]`) starts with.
  package static let markup = TextBytes(rawValue: 4)

  /// The kinds of byte `text` holds.
  package init(of text: String) {
    var text = text
    rawValue = text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return 0 }
      return UInt32(deckport_text_bytes(base, bytes.count))
    }
  }
}
