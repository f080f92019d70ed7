import DeckCore
import Foundation

/// One pass over a JSON document's bytes that checks its syntax (reporting line and column) and
/// sets aside the long string values of `data` keys, which hold base64 media: the document is
/// copied without them, each replaced by a short placeholder, so decoding the rest never holds
/// the media, and each media file is later decoded straight from its place in the file.
struct JSONSyntaxPass {
  /// A string value left in the file: where its content starts and how many bytes it has.
  struct SetAside: Equatable {
    var offset: Int
    var length: Int
  }

  /// Strings shorter than this are kept in the reduced document.
  static let setAsideThreshold = 4096

  /// The document with the set-aside strings replaced by placeholders.
  private(set) var reduced: [UInt8] = []
  /// The set-aside strings, by placeholder number.
  private(set) var setAside: [SetAside] = []
  /// The prefix of every placeholder (a NUL and a per-read nonce, which no real string has).
  let placeholderPrefix: String

  private let bytes: UnsafeRawBufferPointer
  private let location: SourceLocation
  private var index = 0
  private var depth = 0
  private var lastKey: [UInt8] = []
  private static let maximumDepth = 512

  /// Checks `bytes` and builds the reduced document.
  ///
  /// - Throws: ``DeckError`` at the line and column of the first syntax error, with the text there.
  init(bytes: UnsafeRawBufferPointer, location: SourceLocation) throws {
    self.bytes = bytes
    self.location = location
    self.placeholderPrefix = "\u{0}" + UUID().uuidString + ":"
    reduced.reserveCapacity(min(bytes.count, 1 << 24))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark
    skipWhitespace()
    try value()
    skipWhitespace()
    if index < bytes.count { throw error("unexpected text after the end of the document") }
  }

  /// The placeholder text for set-aside string `number`.
  func placeholder(_ number: Int) -> String { placeholderPrefix + String(number) }

  /// The set-aside string a placeholder stands for, if `text` is one.
  func setAsideString(for text: String) -> SetAside? {
    guard text.hasPrefix(placeholderPrefix), let number = Int(text.dropFirst(placeholderPrefix.count)),
      setAside.indices.contains(number)
    else { return nil }
    return setAside[number]
  }

  // MARK: - Grammar

  private mutating func value() throws {
    guard index < bytes.count else { throw error("the document ends where a value should be") }
    switch bytes[index] {
    case UInt8(ascii: "{"): try object()
    case UInt8(ascii: "["): try array()
    case UInt8(ascii: "\""): try string(isKey: false)
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw error("expected a value (an object, array, string, number, true, false or null)")
    }
  }

  private mutating func object() throws {
    try list(closing: "}", afterElement: "after an object value") {
      guard $0.peek(UInt8(ascii: "\"")) else { throw $0.error("expected a key in double quotes") }
      try $0.string(isKey: true)
      $0.skipWhitespace()
      guard $0.peek(UInt8(ascii: ":")) else { throw $0.error("expected ':' after the key") }
      $0.copy(1)
      $0.skipWhitespace()
      try $0.value()
    }
  }

  private mutating func array() throws {
    try list(closing: "]", afterElement: "after an array element") { try $0.value() }
  }

  /// An object or array: the opening byte, elements separated by commas, the closing byte.
  private mutating func list(
    closing: Unicode.Scalar, afterElement: String, element: (inout JSONSyntaxPass) throws -> Void
  ) throws {
    try enter()
    copy(1)
    skipWhitespace()
    let close = UInt8(ascii: closing)
    if peek(close) {
      copy(1)
      depth -= 1
      return
    }
    while true {
      try element(&self)
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        copy(1)
        skipWhitespace()
        continue
      }
      guard peek(close) else { throw error("expected ',' or '\(closing)' \(afterElement)") }
      copy(1)
      depth -= 1
      return
    }
  }

  private mutating func enter() throws {
    depth += 1
    if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
  }

  private mutating func string(isKey: Bool) throws {
    let start = index
    index += 1
    var hasEscape = false
    while true {
      guard index < bytes.count else {
        index = start
        throw error("this string has no closing quote")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 { throw error("a control character must be escaped inside a string") }
      if byte == UInt8(ascii: "\\") {
        hasEscape = true
        index += 1
        guard index < bytes.count else { continue }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          for offset in 1...4 {
            guard index + offset < bytes.count, isHexDigit(bytes[index + offset]) else {
              throw error("\\u must be followed by four hexadecimal digits")
            }
          }
          index += 5
        default: throw error("unknown escape sequence in a string")
        }
        continue
      }
      index += 1
    }
    let contentStart = start + 1
    let contentLength = index - contentStart
    index += 1
    if isKey {
      lastKey = Array(bytes[contentStart..<(contentStart + contentLength)])
      append(start..<index)
    } else if !hasEscape, contentLength >= Self.setAsideThreshold, lastKey == Array("data".utf8) {
      reduced.append(contentsOf: Array("\"".utf8))
      reduced.append(contentsOf: Array("\\u0000".utf8))
      reduced.append(contentsOf: Array(placeholder(setAside.count).dropFirst().utf8))
      reduced.append(UInt8(ascii: "\""))
      setAside.append(SetAside(offset: contentStart, length: contentLength))
    } else {
      append(start..<index)
    }
  }

  private mutating func number() throws {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    append(start..<index)
  }

  private mutating func literal(_ word: StaticString) throws {
    let text = word.withUTF8Buffer { Array($0) }
    guard index + text.count <= bytes.count, bytes[index..<(index + text.count)].elementsEqual(text) else {
      throw error("expected a value (an object, array, string, number, true, false or null)")
    }
    copy(text.count)
  }

  // MARK: - Bytes

  private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }

  private mutating func skipWhitespace() {
    let start = index
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
    append(start..<index)
  }

  private mutating func copy(_ count: Int) {
    append(index..<(index + count))
    index += count
  }

  private mutating func append(_ range: Range<Int>) {
    reduced.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
  }

  /// A syntax error at the current byte: line and column (counted in characters), and the
  /// text around it.
  private func error(_ message: String) -> DeckError {
    var line = 1
    var lineStart = 0
    for offset in 0..<min(index, bytes.count) where bytes[offset] == 0x0A {
      line += 1
      lineStart = offset + 1
    }
    let prefix = Data(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<min(index, bytes.count)]))
    let column = String(decoding: prefix, as: UTF8.self).count + 1
    var place = location
    place.line = line
    place.column = column
    let excerptEnd = min(bytes.count, index + 24)
    let excerpt = String(decoding: Data(UnsafeRawBufferPointer(rebasing: bytes[min(index, bytes.count)..<excerptEnd])), as: UTF8.self)
      .replacingOccurrences(of: "\n", with: "\\n")
    let near = index >= bytes.count ? "at the end of the file" : "near '\(excerpt)'"
    return DeckError(.wrongFormat, at: place, "invalid JSON: \(message) (\(near))")
  }
}
