import Foundation

/// Reads an XML property list (Apple's DTD): `<dict>`, `<array>`, `<key>`, `<string>`,
/// `<integer>`, `<real>`, `<true/>`, `<false/>`, `<date>`, `<data>`, with comments, processing
/// instructions, a DOCTYPE, CDATA sections, character references and a UTF-16 byte order mark
/// allowed. Dictionaries keep the order their keys have in the file.
///
/// It also returns the ``XMLPlistLayout`` of the top-level dictionary: where each key's value
/// element lies in the text, so one key can be replaced without touching a byte of the others.
package struct XMLPlistReader {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  private var layout: XMLPlistLayout

  /// Parses `data` and returns the top value and its layout.
  package static func read(_ data: Data) throws(PlistFormatError) -> (PlistValue, XMLPlistLayout) {
    let (text, transcoded) = try utf8Text(data)
    var reader = XMLPlistReader(bytes: text, transcoded: transcoded)
    let value = try reader.document()
    return (value, reader.layout)
  }

  /// Whether `data` looks like an XML plist: after a byte order mark and whitespace, `<?xml`,
  /// `<!DOCTYPE plist` or `<plist`.
  package static func looksLikeXMLPlist(_ data: Data) -> Bool {
    guard let (text, _) = try? utf8Text(data.prefix(512)) else { return false }
    let head = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE plist") || head.hasPrefix("<plist")
  }

  private init(bytes: [UInt8], transcoded: Bool) {
    self.bytes = bytes
    self.layout = XMLPlistLayout(text: bytes, spliceable: !transcoded)
  }

  /// The document as UTF-8 bytes; UTF-16 (with a byte order mark) is transcoded.
  private static func utf8Text(_ data: Data) throws(PlistFormatError) -> ([UInt8], Bool) {
    let bytes = Array(data)
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      let bigEndian = bytes[0] == 0xFE
      var units: [UInt16] = []
      var position = 2
      while position + 1 < bytes.count {
        let pair = (UInt16(bytes[position]), UInt16(bytes[position + 1]))
        units.append(bigEndian ? pair.0 << 8 | pair.1 : pair.1 << 8 | pair.0)
        position += 2
      }
      return (Array(String(decoding: units, as: UTF16.self).utf8), true)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (Array(bytes.dropFirst(3)), false) }
    return (bytes, false)
  }

  // MARK: Document structure

  private mutating func document() throws(PlistFormatError) -> PlistValue {
    try skipMisc()
    let root = try openTag()
    let value: PlistValue
    if root.name == "plist" {
      guard !root.selfClosing else { throw error("the <plist> element is empty", at: root.start) }
      try skipMisc()
      value = try self.value(topLevel: true)
      try skipMisc()
      try closeTag("plist")
    } else {
      index = root.start
      value = try self.value(topLevel: true)
    }
    try skipMisc()
    guard index == bytes.count else { throw error("unexpected content after the plist") }
    return value
  }

  private mutating func value(topLevel: Bool = false) throws(PlistFormatError) -> PlistValue {
    let tag = try openTag()
    switch tag.name {
    case "dict": return try dictionary(tag, topLevel: topLevel)
    case "array":
      if tag.selfClosing { return .array([]) }
      depth += 1
      defer { depth -= 1 }
      guard depth < 512 else { throw error("arrays and dictionaries nest more than 512 deep", at: tag.start) }
      var items: [PlistValue] = []
      while true {
        try skipMisc()
        if try atCloseTag("array") { return .array(items) }
        items.append(try value())
      }
    case "string": return .string(try content(of: tag))
    case "integer":
      let text = try content(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      return try integer(text, at: tag.start)
    case "real":
      let text = try content(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let number = Self.real(text) else { throw error("<real>\(text)</real> is not a number", at: tag.start) }
      return .real(number)
    case "true", "false":
      if !tag.selfClosing {
        guard try content(of: tag).allSatisfy(\.isWhitespace) else {
          throw error("<\(tag.name)> must be empty", at: tag.start)
        }
      }
      return .bool(tag.name == "true")
    case "date":
      let text = try content(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let seconds = Self.date(text) else {
        throw error("<date>\(text)</date> is not an ISO 8601 date", at: tag.start)
      }
      return .date(seconds)
    case "data":
      let text = try content(of: tag).filter { !$0.isWhitespace }
      guard let data = Data(base64Encoded: text) else {
        throw error("<data> does not hold valid base64", at: tag.start)
      }
      return .data(data)
    default:
      throw error("<\(tag.name)> is not a plist element", at: tag.start)
    }
  }

  private mutating func dictionary(_ tag: Tag, topLevel: Bool) throws(PlistFormatError) -> PlistValue {
    if tag.selfClosing {
      if topLevel { layout.spliceable = false }
      return .dictionary(PlistDictionary())
    }
    depth += 1
    defer { depth -= 1 }
    guard depth < 512 else { throw error("arrays and dictionaries nest more than 512 deep", at: tag.start) }
    var dictionary = PlistDictionary()
    while true {
      try skipMisc()
      let closeStart = index
      if try atCloseTag("dict") {
        if topLevel { layout.closeTagStart = closeStart }
        return .dictionary(dictionary)
      }
      let keyTag = try openTag()
      guard keyTag.name == "key" else {
        throw error("expected <key> in a dictionary, found <\(keyTag.name)>", at: keyTag.start)
      }
      let key = try content(of: keyTag)
      try skipMisc()
      let valueStart = index
      let value = try self.value()
      if dictionary[key] != nil { throw error("the key '\(key)' occurs twice in a dictionary", at: keyTag.start) }
      dictionary.entries.append(.init(key: key, value: value))
      if topLevel { layout.entries.append(.init(key: key, keyStart: keyTag.start, valueRange: valueStart..<index)) }
    }
  }

  // MARK: Tags and text

  private struct Tag {
    var name: String
    var selfClosing: Bool
    var start: Int
  }

  private mutating func openTag() throws(PlistFormatError) -> Tag {
    let start = index
    guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else {
      throw error(index < bytes.count ? "expected an element" : "the document ends where an element should be")
    }
    guard let end = find(">", from: index) else { throw error("an element is not closed with '>'") }
    var inner = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    let selfClosing = inner.hasSuffix("/")
    if selfClosing { inner.removeLast() }
    guard let name = inner.split(whereSeparator: \.isWhitespace).first.map(String.init), !name.hasPrefix("/") else {
      throw error("expected an element, found '<\(inner)>'")
    }
    index = end + 1
    return Tag(name: name, selfClosing: selfClosing, start: start)
  }

  private mutating func atCloseTag(_ name: String) throws(PlistFormatError) -> Bool {
    let closing = Array("</\(name)".utf8)
    guard bytes.count - index >= closing.count, Array(bytes[index..<(index + closing.count)]) == closing else {
      return false
    }
    guard let end = find(">", from: index) else { throw error("</\(name) is not closed with '>'") }
    guard String(decoding: bytes[(index + closing.count)..<end], as: UTF8.self).allSatisfy(\.isWhitespace) else {
      return false
    }
    index = end + 1
    return true
  }

  private mutating func closeTag(_ name: String) throws(PlistFormatError) {
    guard try atCloseTag(name) else { throw error("expected </\(name)>") }
  }

  /// The text of a simple element (entities decoded, CDATA kept, comments dropped) through its
  /// closing tag.
  private mutating func content(of tag: Tag) throws(PlistFormatError) -> String {
    if tag.selfClosing { return "" }
    var text: [UInt8] = []
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[") {
          guard let end = find("]]>", from: index) else { throw error("a CDATA section is not closed") }
          text += bytes[(index + 9)..<end]
          index = end + 3
          continue
        }
        if starts(with: "<!--") {
          guard let end = find("-->", from: index) else { throw error("a comment is not closed") }
          index = end + 3
          continue
        }
        guard try atCloseTag(tag.name) else {
          throw error("<\(tag.name)> holds an element; expected text and </\(tag.name)>")
        }
        return String(decoding: text, as: UTF8.self)
      }
      if bytes[index] == UInt8(ascii: "&") {
        text += Array(try entity().utf8)
        continue
      }
      text.append(bytes[index])
      index += 1
    }
    throw error("<\(tag.name)> is not closed", at: tag.start)
  }

  private mutating func entity() throws(PlistFormatError) -> String {
    guard let end = find(";", from: index), end - index <= 12 else {
      throw error("an '&' does not start a character reference")
    }
    let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    let decoded: String?
    switch name {
    case "lt": decoded = "<"
    case "gt": decoded = ">"
    case "amp": decoded = "&"
    case "quot": decoded = "\""
    case "apos": decoded = "'"
    default:
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
      } else if name.hasPrefix("#") {
        decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
      } else {
        decoded = nil
      }
    }
    guard let decoded else { throw error("&\(name); is not a character reference XML knows") }
    index = end + 1
    return decoded
  }

  /// Skips whitespace, comments, processing instructions and a DOCTYPE.
  private mutating func skipMisc() throws(PlistFormatError) {
    while index < bytes.count {
      if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
        index += 1
      } else if starts(with: "<!--") {
        guard let end = find("-->", from: index) else { throw error("a comment is not closed") }
        index = end + 3
      } else if starts(with: "<?") {
        guard let end = find("?>", from: index) else { throw error("a processing instruction is not closed") }
        index = end + 2
      } else if starts(with: "<!DOCTYPE") {
        var nesting = 0
        var position = index
        while position < bytes.count {
          if bytes[position] == UInt8(ascii: "[") { nesting += 1 }
          if bytes[position] == UInt8(ascii: "]") { nesting -= 1 }
          if bytes[position] == UInt8(ascii: ">") && nesting <= 0 { break }
          position += 1
        }
        guard position < bytes.count else { throw error("the DOCTYPE is not closed") }
        index = position + 1
      } else {
        return
      }
    }
  }

  private func starts(with text: String) -> Bool {
    let pattern = Array(text.utf8)
    return bytes.count - index >= pattern.count && Array(bytes[index..<(index + pattern.count)]) == pattern
  }

  private func find(_ text: String, from start: Int) -> Int? {
    let pattern = Array(text.utf8)
    guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
    var position = start
    while position <= bytes.count - pattern.count {
      if bytes[position] == pattern[0], Array(bytes[position..<(position + pattern.count)]) == pattern {
        return position
      }
      position += 1
    }
    return nil
  }

  // MARK: Scalars

  private func integer(_ text: String, at start: Int) throws(PlistFormatError) -> PlistValue {
    var digits = Substring(text)
    var negative = false
    if digits.hasPrefix("-") {
      negative = true
      digits = digits.dropFirst()
    } else if digits.hasPrefix("+") {
      digits = digits.dropFirst()
    }
    let radix = digits.hasPrefix("0x") || digits.hasPrefix("0X") ? 16 : 10
    if radix == 16 { digits = digits.dropFirst(2) }
    guard let magnitude = UInt64(digits, radix: radix) else {
      throw error("<integer>\(text)</integer> is not a 64-bit integer", at: start)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw error("<integer>\(text)</integer> is below the 64-bit range", at: start)
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
    return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude)
  }

  static func real(_ text: String) -> Double? {
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default: return Double(text)
    }
  }

  /// Seconds since 2001 for `YYYY-MM-DDTHH:MM:SS(.fff)Z` (``XMLPlistDate``).
  static func date(_ text: String) -> Double? { XMLPlistDate.seconds(text) }

  private func error(_ message: String, at position: Int? = nil) -> PlistFormatError {
    let end = min(position ?? index, bytes.count)
    let line = 1 + bytes[0..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return PlistFormatError(message: message, byteOffset: nil, line: line)
  }
}
