import DeckCore

/// Where the parts of an XML plist's top-level dictionary lie in its text, so that one key's
/// value can be replaced, or a key added, while every other byte stays as it was.
package struct XMLPlistLayout {
  /// One top-level key: where its `<key>` starts and the byte range of its value element.
  struct Entry: ExactlyKeyed {
    var key: String
    var keyStart: Int
    var valueRange: Range<Int>
  }

  /// The document's text (UTF-8).
  var text: [UInt8]
  /// Whether the text can be edited in place (false for a UTF-16 document or an empty `<dict/>`,
  /// which are written anew instead).
  var spliceable: Bool
  /// The top-level keys in order.
  var entries: [Entry] = []
  /// Where the top-level dictionary's `</dict>` starts.
  var closeTagStart: Int?

  /// The text with `key`'s value replaced by `element` (its first line unindented, later lines
  /// indented for depth 1), or with the key and value added before `</dict>`; nil when the text
  /// cannot be edited in place.
  ///
  /// - Throws: ``XMLPlistWriter/Unrepresentable`` when a new key holds a character XML cannot.
  package func replacing(key: String, with element: String) throws(XMLPlistWriter.Unrepresentable) -> [UInt8]? {
    guard spliceable else { return nil }
    if let entry = entries.first(withKey: key) {
      return Array(text[..<entry.valueRange.lowerBound]) + Array(element.utf8)
        + Array(text[entry.valueRange.upperBound...])
    }
    guard let closeTagStart else { return nil }
    var lineStart = closeTagStart
    while lineStart > 0, text[lineStart - 1] == 0x20 || text[lineStart - 1] == 0x09 { lineStart -= 1 }
    guard lineStart == 0 || text[lineStart - 1] == 0x0A else { return nil }
    let insertion = "\t<key>\(try XMLPlistWriter.escaped(key, what: "the key"))</key>\n\t\(element)\n"
    return Array(text[..<lineStart]) + Array(insertion.utf8) + Array(text[lineStart...])
  }
}
