import DeckCore
import Foundation

/// App text and note-field HTML, both ways. App text becomes HTML with `&`, `<` and `>` escaped
/// and line breaks as `<br>`; HTML becomes text with `<br>` and `<div>` as line breaks, other
/// tags removed and character references decoded. deckport's own output converts back exactly.
package enum FieldText {
  /// `text` as note-field HTML (`\r\n` and a lone `\r` as marked `<br>`s, so they come back).
  package static func html(_ text: String) -> String {
    HTMLEntities.escaping(text, carriageReturns: .markedBreaks)
  }

  /// What converting `html` to text did besides the exact inverse of ``html(_:)``.
  struct Losses {
    /// Tags other than `<br>`, `<div>` and `<p>` were removed.
    var removedMarkup = false
    /// A `<div>` or `<p>` became a line break, which ``html(_:)`` makes a `<br>`.
    var blocksAsLineBreaks = false

    /// Whether the text comes back as other HTML than it was made of.
    var changedFormatting: Bool { removedMarkup || blocksAsLineBreaks }
  }

  /// `html` as app text. Read a Unicode scalar at a time, not a character: a combining mark
  /// right after a tag (`x<u>⃗</u>`, an arrow over x) makes one character with its `>`, which a
  /// search for `>` would pass over, removing the mark with the tag.
  static func text(_ html: String, losses: inout Losses) -> String {
    let scalars = html.unicodeScalars
    guard scalars.contains("<") else { return HTMLEntities.decode(html) }
    var result = String.UnicodeScalarView()
    var index = scalars.startIndex
    var firstBlock = true
    while let open = scalars[index...].firstIndex(of: "<") {
      result.append(contentsOf: scalars[index..<open])
      guard let close = scalars[open...].firstIndex(of: ">") else {
        index = open
        break
      }
      let tag = String(scalars[scalars.index(after: open)..<close]).lowercased()
      let name =
        tag.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" || $0 == "\n" }).first.map(String.init) ?? ""
      switch name {
      case "br":
        result.append(
          contentsOf: (tag.contains("data-crlf") ? "\r\n" : (tag.contains("data-cr") ? "\r" : "\n")).unicodeScalars)
      case "div", "p":
        losses.blocksAsLineBreaks = true
        if !tag.hasPrefix("/") {
          if !firstBlock || !result.isEmpty { result.append("\n") }
          firstBlock = false
        }
      default:
        losses.removedMarkup = true
      }
      index = scalars.index(after: close)
    }
    result.append(contentsOf: scalars[index...])
    return HTMLEntities.decode(String(result))
  }
}
