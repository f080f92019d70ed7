import Foundation

/// Parses JSON text into ``AppValue``s, keeping every object's key order and telling integers
/// (no fraction or exponent) from doubles.
///
/// Foundation's `JSONSerialization` loses key order and merges integers with doubles, so app
/// records would not round-trip through it exactly. With `tagged`, objects in deckport's tagged
/// form (`{"$date": …}`, `{"$uuid": …}`, `{"$data": …}`, `{"$double": "nan"}`,
/// `{"$object": {…}}`) become the typed values ``JSONTextWriter`` wrote them from.
struct JSONTextParser {
  /// A syntax error: what is wrong, and the 1-based line and column where.
  struct SyntaxError: Error {
    var message: String
    var line: Int
    var column: Int
  }

  private let bytes: [UInt8]
  private var index = 0
  private let tagged: Bool
  private var depth = 0
  /// Set while reading the value of a `$object` wrapper, whose own top level is never a tag.
  private var literalNext = false
  /// How deeply arrays and objects may nest, so hostile input cannot exhaust the stack.
  static let maximumDepth = 512

  /// Parses `data` as one JSON value (surrounding whitespace and a UTF-8 byte order mark allowed).
  static func parse(_ data: Data, tagged: Bool = false) throws(SyntaxError) -> AppValue {
    var parser = JSONTextParser(bytes: Array(data), tagged: tagged)
    if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.index < parser.bytes.count {
      throw parser.error("unexpected text after the JSON value")
    }
    return value
  }

  private init(bytes: [UInt8], tagged: Bool) {
    self.bytes = bytes
    self.tagged = tagged
  }

  private mutating func parseValue() throws(SyntaxError) -> AppValue {
    guard index < bytes.count else { throw error("the text ends where a value should be") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("expected a value (an object, array, string, number, true, false or null)")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: AppValue) throws(SyntaxError) -> AppValue {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
      throw error("expected a value (an object, array, string, number, true, false or null)")
    }
    index += expected.count
    return value
  }

  private mutating func enter() throws(SyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("arrays and objects nest more than \(Self.maximumDepth) deep") }
  }

  private mutating func parseArray() throws(SyntaxError) -> AppValue {
    try enter()
    defer { depth -= 1 }
    literalNext = false
    index += 1
    var items: [AppValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("the text ends inside an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      throw error("expected ',' or ']' after an array item")
    }
  }

  private mutating func parseObject() throws(SyntaxError) -> AppValue {
    try enter()
    defer { depth -= 1 }
    let literal = literalNext
    literalNext = false
    index += 1
    var fields: [AppRecord.Field] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(AppRecord(fields: fields))
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error(index < bytes.count ? "expected a key in double quotes" : "the text ends inside an object")
      }
      let keyStart = index
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
      index += 1
      skipWhitespace()
      literalNext = tagged && fields.isEmpty && key == "$object"
      let value = try parseValue()
      literalNext = false
      if fields.contains(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }) {
        index = keyStart
        throw error("the key \"\(key)\" occurs twice in this object")
      }
      fields.append(AppRecord.Field(key: key, value: value))
      skipWhitespace()
      guard index < bytes.count else { throw error("the text ends inside an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        let record = AppRecord(fields: fields)
        return tagged && !literal ? try untag(record, at: keyStart) : .object(record)
      }
      throw error("expected ',' or '}' after an object value")
    }
  }

  /// The typed value a tagged object stands for, or the object itself.
  private mutating func untag(_ record: AppRecord, at position: Int) throws(SyntaxError) -> AppValue {
    guard record.count == 1, let field = record.first, field.key.hasPrefix("$") else { return .object(record) }
    switch (field.key, field.value) {
    case ("$date", .integer(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case ("$date", .double(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case ("$uuid", .string(let text)):
      if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
    case ("$data", .string(let text)):
      if let data = Data(base64Encoded: text) { return .data(data) }
    case ("$double", .string("nan")): return .double(.nan)
    case ("$double", .string("inf")): return .double(.infinity)
    case ("$double", .string("-inf")): return .double(-.infinity)
    case ("$object", .object(let inner)): return .object(inner)
    default: break
    }
    index = position
    throw error("\(field.key) is not a tag deckport knows with this value")
  }

  private mutating func parseString() throws(SyntaxError) -> String {
    let start = index
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ end: Int) {
      if end > runStart { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 {
        throw error("a control character (U+\(String(format: "%04X", byte))) must be escaped inside a string")
      }
      if byte == UInt8(ascii: "\\") {
        flush(index)
        scalars.append(try parseEscape())
        runStart = index
        continue
      }
      index += 1
    }
    index = start
    throw error("this string has no closing quote")
  }

  private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
    index += 1
    guard index < bytes.count else { throw error("the text ends inside an escape") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try parseHex4()
      if (0xD800..<0xDC00).contains(high) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
          throw error("a high surrogate \\u\(String(high, radix: 16)) is not followed by a low surrogate")
        }
        index += 2
        let low = try parseHex4()
        guard (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        else { throw error("\\u\(String(low, radix: 16)) is not a low surrogate") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(high) else { throw error("a lone low surrogate \\u\(String(high, radix: 16))") }
      return scalar
    default:
      index -= 2
      throw error("an unknown escape")
    }
  }

  private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
    guard bytes.count - index >= 4,
      let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
    else { throw error("\\u must be followed by four hexadecimal digits") }
    index += 4
    return value
  }

  private mutating func parseNumber() throws(SyntaxError) -> AppValue {
    let start = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        index = start
        throw error("a number cannot have a leading zero")
      }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit must follow the decimal point") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit must follow the exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger {
      guard let number = Int64(text) else {
        index = start
        throw error("the integer \(text) does not fit in 64 bits")
      }
      return .integer(number)
    }
    guard let number = Double(text), number.isFinite else {
      index = start
      throw error("the number \(text) is out of range")
    }
    return .double(number)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  /// An error at the current position, with its line and column (in characters).
  private func error(_ message: String) -> SyntaxError {
    var line = 1
    var lineStart = 0
    let end = min(index, bytes.count)
    for position in 0..<end where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
    return SyntaxError(message: message, line: line, column: column)
  }
}
