import Foundation

/// Ids and GUIDs derived from content, for sources that have none (a hand-written JSON deck, a
/// CSV file): the same content always gives the same id, so converting the same input twice
/// gives the same deck, and re-importing it into Anki updates notes instead of duplicating them.
package enum DerivedID {
  /// An id in Anki's millisecond-timestamp range, between 2001 and 2020, so Anki never takes
  /// it for a time in the future.
  package static func id(for text: String) -> Int64 {
    let digest = SHA1.digest(utf8: text)
    let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return 1_000_000_000_000 + Int64(number % 600_000_000_000)
  }

  /// A GUID in Anki's base-91 form from the given parts, as genanki derives one (see
  /// ``AnkiGUID/derived(from:)``).
  package static func guid(for parts: [String]) -> String {
    AnkiGUID.derived(from: parts)
  }
}
