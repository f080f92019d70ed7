import Foundation

extension String {
  /// The string in Unicode Normalization Form C, the form Anki stores names and text in and
  /// compares them by.
  ///
  /// Text whose every character is below U+0300 (ASCII, the Latin letters with their accents,
  /// IPA) is in NFC already and comes back as it is, without Foundation's normalisation, which on
  /// Linux goes through a bridged string and costs microseconds for each string: a package write
  /// checks every field of every note.
  package var canonicallyComposed: String {
    mayChangeInNFC ? precomposedStringWithCanonicalMapping : self
  }

  /// Whether the string holds a character from U+0300 on, the first that NFC can change (a
  /// combining accent); when it holds none, it is in NFC. Over the UTF-8 bytes: U+0300 is
  /// 0xCC 0x80, and every lead byte below 0xCC starts a character below it (``TextBytes``).
  package var mayChangeInNFC: Bool {
    TextBytes(of: self).contains(.mayChangeInNFC)
  }
}
