import Foundation

extension String {
  /// The string in Unicode Normalization Form C, the form Anki stores names and text in and
  /// compares them by.
  ///
  /// ASCII text is in NFC already and comes back as it is, without Foundation's normalisation,
  /// which on Linux goes through a bridged string and costs microseconds for each name: a
  /// summary of a large deck normalises every file name its notes refer to.
  package var canonicallyComposed: String {
    containsUTF8Byte(where: { $0 >= 0x80 }) ? precomposedStringWithCanonicalMapping : self
  }
}
