import Foundation

/// Ids and GUIDs derived from content, for sources that have none (a hand-written JSON deck, a
/// CSV file): the same content always gives the same id, so converting the same input twice
/// gives the same deck, and re-importing it into Anki updates notes instead of duplicating them.
public enum DerivedID {
  /// The characters of Anki's base-91 GUIDs, digit 0 to 90.
  public static let base91Alphabet = Array(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~")

  /// An id in Anki's millisecond-timestamp range, between 2001 and 2020, so Anki never takes
  /// it for a time in the future.
  public static func id(for text: String) -> Int64 {
    let digest = SHA1.digest(Data(text.utf8))
    let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return 1_000_000_000_000 + Int64(number % 600_000_000_000)
  }

  /// A GUID in Anki's base-91 form from the given parts (joined with U+001F, SHA-1, first eight
  /// bytes as a big-endian number).
  public static func guid(for parts: [String]) -> String {
    let digest = SHA1.digest(Data(parts.joined(separator: "\u{1F}").utf8))
    var number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    var digits: [Character] = []
    repeat {
      digits.append(base91Alphabet[Int(number % 91)])
      number /= 91
    } while number > 0
    return String(digits.reversed())
  }
}
