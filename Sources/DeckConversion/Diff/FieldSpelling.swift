import DeckCore

/// A field's HTML with every character of its text spelled one way, so that two fields that
/// differ only in how they spell characters compare equal: `l&#x27;impression` and
/// `l'impression`, `extra & more` and `extra &amp; more`. Tags are kept as they are; the text
/// between them has its character references decoded and then `&`, `<` and `>` escaped
/// (`&lt;b&gt;` stays text, and never becomes a tag). A no-break space stays a no-break space,
/// however it is spelled.
enum FieldSpelling {
  /// `html` spelled the one way. Read a Unicode scalar at a time: a combining mark right after a
  /// tag's `>` makes one character with it, which a search for `>` would pass over.
  static func canonical(_ html: String) -> String {
    guard html.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
    else { return html }
    var result = ""
    result.reserveCapacity(html.utf8.count)
    var rest = html.unicodeScalars[...]
    while let open = rest.firstIndex(of: "<") {
      result += text(rest[..<open])
      guard let close = rest[open...].firstIndex(of: ">") else {
        rest = rest[open...]
        break
      }
      result += String(rest[open...close])
      rest = rest[rest.index(after: close)...]
    }
    return result + text(rest)
  }

  /// Text between tags, its characters spelled the one way.
  private static func text(_ text: Substring.UnicodeScalarView) -> String {
    HTMLEntities.escaping(HTMLEntities.decode(String(text)), breaksLines: false)
  }
}
