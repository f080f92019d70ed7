import Foundation

/// The text of one of Anki's searches (`deck:TEXT`, `tag:TEXT`) turned into a regular
/// expression as Anki turns it: its parser first takes `\"`, `\:`, `\(`, `\)` and `\-` for the
/// characters themselves (`unescape` in `rslib/src/search/parser.rs`), then `to_custom_re`
/// (`rslib/src/text.rs`) makes `*` any run of characters and `_` one, keeps `\*`, `\_` and `\\`
/// for the characters themselves, and takes everything else literally. The one way
/// ``TagSearch`` and ``DeckSearch`` read their wildcards.
///
/// Where Anki's parser refuses a backslash before any other character (or at the end), deckport
/// takes the backslash literally, so a name holding one is still found as it is written.
enum AnkiSearchText {
  /// `text` with the parser's escapes taken for their characters (`\:` is `:`), read scalar by
  /// scalar as Anki reads it; `\\`, `\*` and `\_` stay escaped, for
  /// ``regularExpression(_:wildcard:)``.
  static func unescaped(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\\", let next = scalars.first else {
        result.append(scalar)
        continue
      }
      if next == "\\" {
        scalars.removeFirst()
        result.append(contentsOf: "\\\\".unicodeScalars)
      } else if "\":()-".unicodeScalars.contains(next) {
        scalars.removeFirst()
        result.append(next)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// `text` (``unescaped(_:)`` already) as a regular expression matching the same characters:
  /// `*` is `wildcard*`, `_` is `wildcard`, `\*`, `\_` and `\\` are the characters themselves,
  /// and every other character, a lone backslash too, is itself. `isGlob` says whether it holds
  /// a wildcard (Anki's `is_glob`).
  static func regularExpression(_ text: String, wildcard: String) -> (pattern: String, isGlob: Bool) {
    var pattern = ""
    var isGlob = false
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\\":
        if let next = scalars.first, next == "*" || next == "_" || next == "\\" {
          scalars.removeFirst()
          pattern += NSRegularExpression.escapedPattern(for: String(next))
        } else {
          pattern += NSRegularExpression.escapedPattern(for: "\\")
        }
      case "*":
        pattern += wildcard + "*"
        isGlob = true
      case "_":
        pattern += wildcard
        isGlob = true
      default: pattern += NSRegularExpression.escapedPattern(for: String(scalar))
      }
    }
    return (pattern, isGlob)
  }
}
