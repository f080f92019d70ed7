/// Parses JSON text into a ``JSONValue``: members in their order, numbers as their text says
/// (see ``JSONValue``), errors with line and column, nesting limited so hostile input cannot
/// exhaust the stack.
///
/// ```swift
/// do {
///   let value = try JSONParser.parse(bytes)
/// } catch {
///   print("\(error.line):\(error.column): \(error.message)")
/// }
/// ```
///
/// Strings must be well-formed UTF-8 and their `\u` escapes must pair surrogates, since a Swift
/// string can hold neither a broken byte nor a lone surrogate. A UTF-8 byte order mark and white
/// space around the value are allowed.
package struct JSONParser {
  /// What the parser accepts beyond JSON's grammar.
  package struct Options: Sendable {
    /// How deeply arrays and objects may nest.
    package var maximumDepth = 512
    /// Whether an object with a key twice (compared scalar by scalar) is an error, rather than
    /// kept as it is.
    package var rejectsDuplicateKeys = false
    /// Whether an integer beyond 64 bits or a number beyond a double's range is an error,
    /// rather than kept as its text.
    package var requiresInt64OrFiniteDouble = false
    /// Whether the words `nan`, `inf` and `-inf` stand as values, the doubles they name (not
    /// JSON: the text deckport gives a number JSON has no text for, where it writes values as
    /// text for people, a note's field).
    package var readsNonFiniteWords = false

    /// Whether `-0` (an integer's text that is minus zero) is kept as its text, a
    /// ``JSONValue/number(_:)`` that is no ``JSONValue/writtenInteger``, as serde reads it (a
    /// float, which Anki refuses or reads as its default where it reads an integer), rather than
    /// read as the integer 0.
    package var readsNegativeZeroAsFloat = false

    /// JSON's grammar, a depth of 512, repeated keys and every number kept.
    package init() {}

    /// The options Anki's JSON (its collection's settings, note types, decks, option groups and
    /// card data) is read with, as Anki's Rust backend (serde_json) reads it: `-0` is a float
    /// (``readsNegativeZeroAsFloat``).
    package static var anki: Options {
      var options = Options()
      options.readsNegativeZeroAsFloat = true
      return options
    }
  }

  private let bytes: UnsafeRawBufferPointer
  private let options: Options
  private var index = 0
  private var depth = 0
  /// Bytes of the string being decoded, when it has escapes.
  private var scratch: [UInt8] = []
  /// Where string values of at least `minimumBytes` of text are left undecoded, if anywhere.
  private var unread: (source: any JSONSource, minimumBytes: Int)?

  /// Parses `bytes` as one JSON value.
  ///
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parse(_ bytes: some Sequence<UInt8>, options: Options = Options()) throws(JSONSyntaxError)
    -> JSONValue
  {
    let array = Array(bytes)
    let result: Result<JSONValue, JSONSyntaxError> = array.withUnsafeBytes { buffer in
      Result { () throws(JSONSyntaxError) -> JSONValue in try parse(buffer: buffer, options: options) }
    }
    return try result.get()
  }

  /// Parses the bytes in `buffer` as one JSON value.
  ///
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parse(buffer: UnsafeRawBufferPointer, options: Options = Options()) throws(JSONSyntaxError)
    -> JSONValue
  {
    try parse(buffer, leaving: nil, options: options)
  }

  /// Parses the text of `source` as one JSON value, leaving every string value whose text (between
  /// its quotes, as written) is `minimumBytes` or longer undecoded in `source`: it is checked as
  /// any string is (its UTF-8, its escapes), and stands as ``JSONValue/unreadString(_:)``, which
  /// keeps `source` alive. Object keys are always decoded.
  ///
  /// A reader of a large document uses it to decode long strings the way it needs them (base64
  /// straight into a file, say) rather than holding each as a `String` first.
  ///
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parse(
    source: any JSONSource, leavingStringsFrom minimumBytes: Int, options: Options = Options()
  ) throws(JSONSyntaxError) -> JSONValue {
    try parse(source.bytes, leaving: (source, minimumBytes), options: options)
  }

  private static func parse(
    _ buffer: UnsafeRawBufferPointer, leaving unread: (source: any JSONSource, minimumBytes: Int)?, options: Options
  ) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: buffer, options: options)
    parser.unread = unread
    if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.index < buffer.count { throw parser.error(.textAfterValue) }
    return value
  }

  /// Decodes the string whose opening quote is at `start` in `bytes`: its escapes resolved,
  /// surrogates paired, its text checked to be UTF-8.
  ///
  /// - Returns: the string, and the offset after its closing quote.
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func string(in bytes: UnsafeRawBufferPointer, at start: Int) throws(JSONSyntaxError)
    -> (value: String, end: Int)
  {
    var parser = JSONParser(bytes: bytes, options: Options())
    parser.index = start
    guard parser.peek(UInt8(ascii: "\"")) else { throw parser.error(.expectedValue) }
    let value = try parser.parseString()
    return (value, parser.index)
  }

  private init(bytes: UnsafeRawBufferPointer, options: Options) {
    self.bytes = bytes
    self.options = options
  }

  private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else { throw error(.endWhereValueShouldBe) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return try parseStringValue()
    case UInt8(ascii: "t"): return try parseWord("true", .bool(true))
    case UInt8(ascii: "f"): return try parseWord("false", .bool(false))
    case UInt8(ascii: "n"):
      if options.readsNonFiniteWords, JSONBytes.hasWord("nan", in: bytes, at: index) {
        return try parseWord("nan", .double(.nan))
      }
      return try parseWord("null", .null)
    case UInt8(ascii: "i") where options.readsNonFiniteWords: return try parseWord("inf", .double(.infinity))
    case UInt8(ascii: "-") where options.readsNonFiniteWords && JSONBytes.hasWord("-inf", in: bytes, at: index):
      return try parseWord("-inf", .double(-.infinity))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error(.expectedValue)
    }
  }

  private mutating func parseWord(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    guard JSONBytes.hasWord(word, in: bytes, at: index) else { throw error(.expectedValue) }
    index += word.utf8CodeUnitCount
    return value
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > options.maximumDepth { throw error(.tooDeep(limit: options.maximumDepth)) }
    index += 1
    skipWhitespace()
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    var elements: [JSONValue] = []
    guard !closes(UInt8(ascii: "]")) else { return .array(elements) }
    repeat {
      elements.append(try parseValue())
    } while try continues(closing: UInt8(ascii: "]"), orElse: .expectedCommaOrBracket)
    return .array(elements)
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    var members: [(key: String, value: JSONValue)] = []
    var seen = Set<[Unicode.Scalar]>()
    guard !closes(UInt8(ascii: "}")) else { return .object(members) }
    repeat {
      guard peek(UInt8(ascii: "\"")) else { throw error(.expectedKey) }
      let keyStart = index
      let key = try parseString()
      if options.rejectsDuplicateKeys, !seen.insert(Array(key.unicodeScalars)).inserted {
        index = keyStart
        throw error(.duplicateKey(key))
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else { throw error(.expectedColon) }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue()))
    } while try continues(closing: UInt8(ascii: "}"), orElse: .expectedCommaOrBrace)
    return .object(members)
  }

  /// Whether the list closes at once (`[]`, `{}`), consuming the closing byte if so.
  private mutating func closes(_ closing: UInt8) -> Bool {
    guard peek(closing) else { return false }
    index += 1
    return true
  }

  /// After an element: true at a comma (consumed, with the white space after it), false at the
  /// closing byte (consumed).
  private mutating func continues(closing: UInt8, orElse problem: JSONSyntaxProblem) throws(JSONSyntaxError) -> Bool {
    let (next, ends) = try JSONBytes.scanListContinuation(bytes, from: index, closing: closing, orElse: problem)
    index = next
    return !ends
  }

  /// A string value, from its opening quote: decoded, or left in the source when it is long
  /// and the parse leaves long strings.
  private mutating func parseStringValue() throws(JSONSyntaxError) -> JSONValue {
    guard let unread else { return .string(try parseString()) }
    let start = index
    try skipString()
    guard index - start - 2 >= unread.minimumBytes else {
      index = start
      return .string(try parseString())
    }
    return .unreadString(JSONUnreadString(source: unread.source, start: start, end: index))
  }

  /// Checks the string at its opening quote as ``parseString()`` does, without keeping its text,
  /// and moves past it.
  private mutating func skipString() throws(JSONSyntaxError) {
    let start = index
    index += 1
    while true {
      let found = try JSONBytes.scanStringText(bytes, from: index, openingQuote: start)
      index = found.stop
      if found.isQuote { break }
      scratch.removeAll(keepingCapacity: true)
      try appendEscape(openingQuote: start)
    }
    index += 1
  }

  /// A string, from its opening quote.
  private mutating func parseString() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    var runStart = index
    var escaped = false
    scratch.removeAll(keepingCapacity: true)
    while true {
      let found = try JSONBytes.scanStringText(bytes, from: index, openingQuote: start)
      index = found.stop
      if found.isQuote { break }
      escaped = true
      scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
      try appendEscape(openingQuote: start)
      runStart = index
    }
    let text: String
    if escaped {
      scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
      text = String(decoding: scratch, as: UTF8.self)
    } else {
      text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
    }
    index += 1
    return text
  }

  /// Decodes the escape at `index` (a backslash) into `scratch`.
  private mutating func appendEscape(openingQuote: Int) throws(JSONSyntaxError) {
    let backslash = index
    let (escape, next) = try JSONBytes.scanEscape(bytes, at: index, openingQuote: openingQuote)
    index = next
    switch escape {
    case .byte(let byte): scratch.append(byte)
    case .unit(let unit):
      var value = unit
      if (0xD800..<0xDC00).contains(unit) {
        guard index < bytes.count, bytes[index] == 0x5C,
          let (low, afterLow) = try? JSONBytes.scanEscape(bytes, at: index, openingQuote: openingQuote),
          case .unit(let lowUnit) = low, (0xDC00..<0xE000).contains(lowUnit)
        else { throw JSONSyntaxError(.unpairedHighSurrogate(unit), at: backslash, in: bytes) }
        value = 0x10000 + ((unit - 0xD800) << 10) + (lowUnit - 0xDC00)
        index = afterLow
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw JSONSyntaxError(.loneLowSurrogate(unit), at: backslash, in: bytes)
      }
      scratch.append(contentsOf: String(scalar).utf8)
    }
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    let (end, isInteger) = try JSONBytes.scanNumber(bytes, from: index)
    index = end
    let digits = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    if isInteger, let number = Self.int64(digits) {
      // `-0` (and `-00`…, which the grammar refuses anyway) is 0 with a sign: serde's float.
      let minusZero = number == 0 && digits.first == UInt8(ascii: "-")
      if !(minusZero && options.readsNegativeZeroAsFloat) { return .integer(number) }
      return .number(String(decoding: digits, as: UTF8.self))
    }
    let text = String(decoding: digits, as: UTF8.self)
    if !isInteger, let number = Double(text), number.isFinite { return .double(number) }
    if options.requiresInt64OrFiniteDouble {
      index = start
      throw error(isInteger ? .integerTooLarge(text) : .numberOutOfRange(text))
    }
    return .number(text)
  }

  /// The value of an integer's text (an optional `-` and digits) when it fits in 64 bits.
  private static func int64(_ text: UnsafeRawBufferPointer) -> Int64? {
    guard let first = text.first else { return nil }
    let negative = first == UInt8(ascii: "-")
    // Accumulated negatively, so that Int64.min fits.
    var value: Int64 = 0
    for byte in text.dropFirst(negative ? 1 : 0) {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, underflow) = shifted.subtractingReportingOverflow(Int64(byte &- 0x30))
      guard !overflow, !underflow else { return nil }
      value = next
    }
    if negative { return value }
    return value == .min ? nil : -value
  }

  private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

  private mutating func skipWhitespace() { index = JSONBytes.whitespaceEnd(bytes, from: index) }

  private func error(_ problem: JSONSyntaxProblem) -> JSONSyntaxError {
    JSONSyntaxError(problem, at: index, in: bytes)
  }
}
