import Foundation

extension Deck {
  /// What a `deck-renamed` warning says of ``storedName(_:)``, before it says what the deck is
  /// called instead.
  package static let storedNameRule =
    "Anki normalises deck names (no control characters, no empty levels, no spaces or ':' around a level)"

  /// A deck name as Anki stores it: its ``storedLevels(of:)`` joined by `::` (` A :: B ` is
  /// `A::B`).
  package static func storedName(_ name: String) -> String {
    storedLevels(of: name).joined(separator: levelSeparator)
  }

  /// The levels of a deck name as Anki stores them (`normalized_deck_name_component`): each
  /// `::` level of ``levels(of:)`` as ``storedLevel(_:)`` gives it, and `blank` when nothing is
  /// left of it.
  package static func storedLevels(of name: String) -> [String] {
    levels(of: name).map { level in
      let stored = storedLevel(level)
      return stored.isEmpty ? "blank" : stored
    }
  }

  /// One `::` level of a deck name as Anki stores it: in NFC, without ASCII control characters,
  /// trimmed of white space (Unicode's `White_Space`, as Rust's `char::is_whitespace`) and `:`,
  /// scalar by scalar; empty when nothing is left.
  package static func storedLevel(_ level: String) -> String {
    let kept = level.canonicallyComposed.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
    func trimmed(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar == ":" }
    guard let first = kept.firstIndex(where: { !trimmed($0) }), let last = kept.lastIndex(where: { !trimmed($0) })
    else { return "" }
    return String(String.UnicodeScalarView(kept[first...last]))
  }
}
