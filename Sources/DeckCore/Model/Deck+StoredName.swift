import Foundation

extension Deck {
  /// What a `deck-renamed` warning says of ``storedName(_:)``, before it says what the deck is
  /// called instead.
  package static let storedNameRule =
    "Anki normalises deck names (no control characters, no empty levels, no spaces or ':' around a level)"

  /// A deck name as Anki stores it: each `::` level as ``storedLevel(_:)`` gives it, and `blank`
  /// when nothing is left of a level (` A :: B ` is `A::B`).
  package static func storedName(_ name: String) -> String {
    name.components(separatedBy: levelSeparator).map { level in
      let stored = storedLevel(level)
      return stored.isEmpty ? "blank" : stored
    }.joined(separator: levelSeparator)
  }

  /// One `::` level of a deck name as Anki stores it: in NFC, without ASCII control characters,
  /// trimmed of white space and `:` (empty when nothing is left).
  package static func storedLevel(_ level: String) -> String {
    let kept = String(
      String.UnicodeScalarView(
        level.canonicallyComposed.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    return kept.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ":")))
  }
}
