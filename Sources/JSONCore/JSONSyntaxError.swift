/// What is wrong with a JSON text, and where: the byte offset, the 1-based line and column
/// (counted in characters) and the text that follows, so callers can point at it.
///
/// Callers turn it into their own error with the file name or JSON path:
///
/// ```swift
/// } catch {
///   throw DeckError(.wrongFormat, at: place(error.line, error.column), "invalid JSON: \(error.message)")
/// }
/// ```
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  package var problem: JSONSyntaxProblem
  /// Where, as a byte offset in the text.
  package var offset: Int
  /// The 1-based line.
  package var line: Int
  /// The 1-based column, in characters.
  package var column: Int
  /// Up to 24 bytes of the text from the offset (line feeds as `\n`), empty at the end.
  package var excerpt: String
  /// Whether the offset is at the end of the text.
  package var isAtEnd: Bool

  /// The problem as a sentence: `expected ':' after the key`.
  package var message: String { problem.description }

  /// Where the excerpt is: `near '"deck'`, or `at the end of the file`.
  package var near: String { isAtEnd ? "at the end of the file" : "near '\(excerpt)'" }

  /// `line:column: message`.
  package var description: String { "\(line):\(column): \(message)" }

  /// The error for `problem` at `offset` in `bytes`, with its line, column and excerpt.
  package init(_ problem: JSONSyntaxProblem, at offset: Int, in bytes: UnsafeRawBufferPointer) {
    let end = max(0, min(offset, bytes.count))
    let place = JSONBytes.lineAndColumn(of: end, in: bytes)
    let excerptEnd = min(bytes.count, end + 24)
    self.problem = problem
    self.offset = offset
    self.line = place.line
    self.column = place.column
    var shown: [UInt8] = []
    for byte in bytes[end..<excerptEnd] {
      if byte == 0x0A { shown += [0x5C, UInt8(ascii: "n")] } else { shown.append(byte) }
    }
    self.excerpt = String(decoding: shown, as: UTF8.self)
    self.isAtEnd = end >= bytes.count
  }
}

/// The ways a JSON text can be wrong; ``description`` is the sentence users see.
package enum JSONSyntaxProblem: Sendable, Equatable, CustomStringConvertible {
  /// The text ends where a value should start.
  case endWhereValueShouldBe
  /// Something that starts no value.
  case expectedValue
  /// An object member that does not start with a quoted key.
  case expectedKey
  /// A key not followed by `:`.
  case expectedColon
  /// An object member not followed by `,` or `}`.
  case expectedCommaOrBrace
  /// An array element not followed by `,` or `]`.
  case expectedCommaOrBracket
  /// Arrays and objects nested deeper than the limit.
  case tooDeep(limit: Int)
  /// A string with no closing quote.
  case unterminatedString
  /// A raw control character (below U+0020) inside a string.
  case controlCharacter(UInt8)
  /// A byte that is not part of well-formed UTF-8 inside a string.
  case notUTF8(UInt8)
  /// A backslash followed by something JSON does not know.
  case unknownEscape
  /// `\u` not followed by four hexadecimal digits.
  case badUnicodeEscape
  /// A `\u` escape of a high surrogate not followed by one of a low surrogate.
  case unpairedHighSurrogate(UInt32)
  /// A `\u` escape of a low surrogate with no high surrogate before it.
  case loneLowSurrogate(UInt32)
  /// A number without digits where they must be (after `-`, `.` or the exponent mark).
  case expectedDigit(after: NumberPart)
  /// A number with a leading zero (`01`).
  case leadingZero
  /// Text after the value.
  case textAfterValue
  /// An object with a key twice (when the parser is asked to refuse that).
  case duplicateKey(String)
  /// An integer that does not fit in 64 bits (when the parser is asked to refuse that).
  case integerTooLarge(String)
  /// A number that overflows a double (when the parser is asked to refuse that).
  case numberOutOfRange(String)

  /// Where in a number a digit was missing.
  package enum NumberPart: Sendable, Equatable {
    /// At the start (after an optional `-`).
    case sign
    /// After the decimal point.
    case decimalPoint
    /// In the exponent.
    case exponent
  }

  /// The problem as a sentence users see: `expected ':' after the key`.
  package var description: String {
    switch self {
    case .endWhereValueShouldBe: "the document ends where a value should be"
    case .expectedValue: "expected a value (an object, array, string, number, true, false or null)"
    case .expectedKey: "expected a key in double quotes"
    case .expectedColon: "expected ':' after the key"
    case .expectedCommaOrBrace: "expected ',' or '}' after an object value"
    case .expectedCommaOrBracket: "expected ',' or ']' after an array element"
    case .tooDeep(let limit): "nested more than \(limit) levels deep"
    case .unterminatedString: "this string has no closing quote"
    case .controlCharacter(let byte):
      "a control character (U+00\(JSONBytes.hex(byte >> 4, uppercase: true))\(JSONBytes.hex(byte & 0xF, uppercase: true))) must be escaped inside a string"
    case .notUTF8(let byte):
      "not UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) in a string is not part of a valid character; a JSON document must be UTF-8"
    case .unknownEscape: "unknown escape sequence in a string"
    case .badUnicodeEscape: "\\u must be followed by four hexadecimal digits"
    case .unpairedHighSurrogate(let value):
      "a high surrogate \\u\(String(value, radix: 16)) is not followed by a low surrogate"
    case .loneLowSurrogate(let value): "a lone low surrogate \\u\(String(value, radix: 16))"
    case .expectedDigit(.sign): "expected a digit"
    case .expectedDigit(.decimalPoint): "expected a digit after '.'"
    case .expectedDigit(.exponent): "expected a digit in the exponent"
    case .leadingZero: "a number cannot have a leading zero"
    case .textAfterValue: "unexpected text after the end of the document"
    case .duplicateKey(let key): "the key \"\(key)\" occurs twice in this object"
    case .integerTooLarge(let text): "the integer \(text) does not fit in 64 bits"
    case .numberOutOfRange(let text): "the number \(text) is out of range"
    }
  }
}
