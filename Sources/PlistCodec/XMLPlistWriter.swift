import Foundation

/// Writes an XML property list in Apple's layout: the XML declaration and DOCTYPE, tab
/// indentation, `<data>` as base64 in lines of 68 characters, `<dict/>` and `<array/>` when empty.
///
/// XML plist dates hold whole seconds only (Apple's parser rejects fractions), so a date with a
/// fraction is refused rather than silently cut. Text holding a character XML 1.0 cannot hold
/// at all (U+0000, the other C0 controls but tab, line feed and carriage return, U+FFFE, U+FFFF),
/// raw or as a character reference, is refused too: written raw, it makes the whole document
/// one XML parsers reject.
package struct XMLPlistWriter {
  /// A value an XML plist cannot hold exactly.
  package struct Unrepresentable: Error {
    /// One step from a container to a value inside it.
    package enum Step: Equatable, Sendable {
      /// The item at this position of an array (from 0).
      case index(Int)
      /// The value of this key of a dictionary.
      case key(String)
    }

    /// Why the value cannot be written.
    package var message: String
    /// Where the value is, from the value the writer was given (the document's top value).
    package var path: [Step] = []

    /// ``path`` after its first `count` steps, in the form `[3].score` (`[0].tags[2]`).
    package func pathText(droppingFirst count: Int = 0) -> String {
      var text = ""
      for step in path.dropFirst(count) {
        switch step {
        case .index(let index): text += "[\(index)]"
        case .key(let key): text += text.isEmpty ? key : ".\(key)"
        }
      }
      return text
    }
  }

  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// A whole XML plist document whose top value is `value`.
  package static func data(_ value: PlistValue) throws(Unrepresentable) -> Data {
    var text = header
    text += try element(value, depth: 0, path: [])
    text += "\n</plist>\n"
    return Data(text.utf8)
  }

  /// The element for `value`, its first line without indentation and later lines indented
  /// `depth` tabs (the depth of the element itself), without a final newline.
  ///
  /// - Throws: ``Unrepresentable`` with `path` and the steps to the value inside `value`.
  static func element(_ value: PlistValue, depth: Int, path: [Unrepresentable.Step]) throws(Unrepresentable)
    -> String
  {
    do {
      return try element(value, depth: depth)
    } catch var error {
      error.path = path + error.path
      throw error
    }
  }

  private static func element(_ value: PlistValue, depth: Int) throws(Unrepresentable) -> String {
    let indent = String(repeating: "\t", count: depth)
    switch value {
    case .string(let text): return "<string>\(try escaped(text, what: "the text"))</string>"
    case .integer(let number): return "<integer>\(number)</integer>"
    case .unsignedInteger(let number): return "<integer>\(number)</integer>"
    case .real(let number): return "<real>\(realText(number))</real>"
    case .bool(let flag): return flag ? "<true/>" : "<false/>"
    case .date(let seconds):
      guard !seconds.isNaN else {
        throw Unrepresentable(
          message:
            "the date is not a number (NaN seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
        )
      }
      guard seconds.isFinite else {
        throw Unrepresentable(
          message:
            "the date is infinite (\(seconds) seconds since 2001); an XML plist date names a moment of the years 1 to 9999"
        )
      }
      guard let text = XMLPlistDate.text(ofSeconds: seconds) else {
        throw Unrepresentable(
          message:
            "the date \(seconds) (seconds since 2001) is outside the years 1 to 9999, the only ones an XML plist date can name"
        )
      }
      guard seconds == seconds.rounded() else {
        throw Unrepresentable(
          message: "the date \(seconds) (seconds since 2001) has a fraction of a second, which an XML plist cannot hold"
        )
      }
      return "<date>\(text)</date>"
    case .data(let data):
      let base64 = Array(data.base64EncodedString())
      var text = "<data>\n"
      var start = 0
      while start < base64.count {
        let end = min(start + 68, base64.count)
        text += indent + String(base64[start..<end]) + "\n"
        start = end
      }
      return text + indent + "</data>"
    case .uid(let number):
      return "<dict>\n\(indent)\t<key>CF$UID</key>\n\(indent)\t<integer>\(number)</integer>\n\(indent)</dict>"
    case .array(let items):
      guard !items.isEmpty else { return "<array/>" }
      var text = "<array>\n"
      for (index, item) in items.enumerated() {
        text += indent + "\t" + (try element(item, depth: depth + 1, path: [.index(index)])) + "\n"
      }
      return text + indent + "</array>"
    case .dictionary(let dictionary):
      guard !dictionary.entries.isEmpty else { return "<dict/>" }
      var text = "<dict>\n"
      for entry in dictionary.entries {
        let key: String
        do {
          key = try escaped(entry.key, what: "the key")
        } catch var error {
          error.path = [.key(entry.key)]
          throw error
        }
        text += indent + "\t<key>\(key)</key>\n"
        text += indent + "\t" + (try element(entry.value, depth: depth + 1, path: [.key(entry.key)])) + "\n"
      }
      return text + indent + "</dict>"
    }
  }

  /// `text` with `&`, `<`, `>` and carriage returns (which XML parsers would turn into line
  /// feeds) written as character references.
  ///
  /// - Throws: ``Unrepresentable`` for a character XML 1.0 cannot hold, naming it as `what`
  ///   ("the text", "the key") holds it.
  static func escaped(_ text: String, what: String) throws(Unrepresentable) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for (position, character) in text.unicodeScalars.enumerated() {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\r": result += "&#13;"
      case "\t", "\n": result.unicodeScalars.append(character)
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
        throw Unrepresentable(
          message:
            "\(what) holds \(String(format: "U+%04X", character.value)) (character \(position + 1)), which XML 1.0 cannot hold, raw or as a character reference, so an XML plist cannot (a binary plist can)"
        )
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  private static func realText(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
    return "\(number)"
  }
}
