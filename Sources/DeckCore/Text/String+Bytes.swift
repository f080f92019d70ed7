#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
  /// Whether the UTF-8 form of the string holds `byte` (an ASCII character, or any byte):
  /// a `memchr` over the string's storage, many times faster than `contains` on a `String`
  /// argument (which goes through Foundation) or on the `utf8` view (byte by byte).
  @inlinable
  package func containsUTF8Byte(_ byte: UInt8) -> Bool {
    if let found = utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
      return memchr(base, Int32(byte), bytes.count) != nil
    }) {
      return found
    }
    return utf8.contains(byte)
  }

  /// Whether the UTF-8 of the string holds a byte for which `isMatch` is true; a fast scan of
  /// the contiguous storage native strings have.
  package func containsUTF8Byte(where isMatch: (UInt8) -> Bool) -> Bool {
    if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: isMatch) }) { return found }
    return utf8.contains(where: isMatch)
  }

  /// The string without the character U+0000 (NUL), which Anki removes from every field it
  /// saves (and its import of a package removes).
  package var withoutNUL: String {
    String(String.UnicodeScalarView(unicodeScalars.lazy.filter { $0 != "\u{0}" }))
  }
}
