/// Writes ``JSONValue``s as JSON text into a byte buffer: members in their order, the same value
/// always giving the same bytes.
///
/// ```swift
/// JSONWriter.text(of: .object([("a", .integer(1)), ("b", .array([.double(2)]))]))
/// // {"a":1,"b":[2.0]}
/// var writer = JSONWriter(layout: .indented(spaces: 2))
/// writer.write(value)  // {\n  "a": 1,\n  "b": [\n    2.0\n  ]\n}
/// ```
///
/// Strings are UTF-8 with only quotes, backslashes and control characters escaped (`\n`, `\t`,
/// `\r`, `\b`, `\f`, else `\u001f`); with ``escapesSlashes`` `/` is written `\/` as well, the
/// way Foundation's `JSONEncoder` writes it. Integers are written as they are, doubles in their
/// shortest form that reads back the same (`1.0`, `1e-05`, `1e+16`), number text verbatim.
///
/// Its pieces (``appendKey(_:indent:)``, ``appendString(_:)``, ``newline(_:)``) let a caller
/// write a large document piece by piece, in exactly the layout a whole value would have, and
/// empty ``bytes`` into a file as it grows.
package struct JSONWriter: Sendable {
  /// How the text is laid out.
  package enum Layout: Sendable, Equatable {
    /// Everything on one line, no spaces: `{"a":1,"b":[2]}`.
    case compact
    /// One member or element a line, indented by this many spaces a level, `"key": value`;
    /// empty arrays and objects as `[]` and `{}`.
    case indented(spaces: Int)
  }

  /// The layout.
  package var layout: Layout
  /// Whether `/` is escaped as `\/`.
  package var escapesSlashes: Bool
  /// The text written so far (a caller streaming to a file may empty it at any point between
  /// two pieces).
  package var bytes: [UInt8] = []

  /// A writer with `layout`, escaping slashes when `escapesSlashes`.
  package init(layout: Layout = .compact, escapesSlashes: Bool = false) {
    self.layout = layout
    self.escapesSlashes = escapesSlashes
  }

  /// The JSON text of `value`.
  package static func text(of value: JSONValue, layout: Layout = .compact, escapesSlashes: Bool = false) -> String {
    String(decoding: bytes(of: value, layout: layout, escapesSlashes: escapesSlashes), as: UTF8.self)
  }

  /// The JSON text of `value`, as bytes.
  package static func bytes(of value: JSONValue, layout: Layout = .compact, escapesSlashes: Bool = false) -> [UInt8] {
    var writer = JSONWriter(layout: layout, escapesSlashes: escapesSlashes)
    writer.write(value)
    return writer.bytes
  }

  /// Writes `value`, its nested lines (in an indented layout) indented one level deeper than
  /// `indent`.
  package mutating func write(_ value: JSONValue, indent: Int = 0) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .integer(let number): appendNumber(number)
    case .double(let number): append(Self.text(of: number))
    case .number(let text): append(text)
    case .string(let text): appendString(text)
    case .unreadString(let unread): appendString(unread.text)
    case .array(let elements):
      guard !elements.isEmpty else { return append("[]") }
      bytes.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        write(element, indent: indent + 1)
      }
      newline(indent)
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return append("{}") }
      bytes.append(UInt8(ascii: "{"))
      for (position, member) in members.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        appendKey(member.key, indent: indent + 1)
        write(member.value, indent: indent + 1)
      }
      newline(indent)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// In an indented layout, a line break and `indent` levels of indentation; nothing in a
  /// compact one.
  package mutating func newline(_ indent: Int) {
    guard case .indented(let spaces) = layout else { return }
    bytes.append(0x0A)
    var count = max(0, indent * spaces)
    while count > 0 {
      let piece = min(count, Self.spaces.count)
      bytes.append(contentsOf: Self.spaces[0..<piece])
      count -= piece
    }
  }

  /// Spaces to indent with, copied a slice at a time.
  private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

  /// The start of an object member: ``newline(_:)`` at `indent`, the key, and `: ` (`:` when
  /// compact).
  package mutating func appendKey(_ key: String, indent: Int) {
    newline(indent)
    appendString(key)
    bytes.append(UInt8(ascii: ":"))
    if layout != .compact { bytes.append(UInt8(ascii: " ")) }
  }

  /// Text as it is (JSON punctuation or a literal the caller vouches for).
  package mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// One byte as it is.
  package mutating func append(byte: UInt8) { bytes.append(byte) }

  /// An integer.
  package mutating func appendNumber(_ number: Int64) { Self.appendDecimal(number, into: &bytes) }

  /// The decimal digits of `number` (after a `-` when negative), written without making a
  /// `String` first.
  package static func appendDecimal(_ number: Int64, into output: inout [UInt8]) {
    if number < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = number.magnitude
    // The digits, last first, in a 20-byte scratch word pair (UInt64.max has 20 digits).
    var digits: (UInt64, UInt64, UInt32) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { scratch in
      var start = scratch.count
      repeat {
        start -= 1
        scratch[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[start...]))
    }
  }

  /// A string, quoted and escaped.
  package mutating func appendString(_ text: String) {
    JSONWriter.appendQuoted(text, escapingSlashes: escapesSlashes, into: &bytes)
  }

  /// The text of a double: its shortest form that reads back the same, always with a fraction
  /// or exponent (`1.0`, `2.5`, `1e-05`, `1e+16`); `null` when it is not finite.
  package static func text(of number: Double) -> String {
    guard number.isFinite else { return "null" }
    let text = number.description
    return text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) ? text : text + ".0"
  }

  /// `text` as a JSON string: in quotes, with quotes, backslashes and control characters (and
  /// `/` when `escapingSlashes`) escaped, everything else as UTF-8.
  package static func appendQuoted(_ text: String, escapingSlashes: Bool = false, into output: inout [UInt8]) {
    if !escapingSlashes,
      text.utf8.withContiguousStorageIfAvailable({ appendQuoted(UnsafeRawBufferPointer($0), into: &output) }) != nil
    {
      return
    }
    output.append(UInt8(ascii: "\""))
    // Most text needs no escape: copy it whole, and look byte by byte only when it does.
    let plain = text.utf8.allSatisfy {
      $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        && !(escapingSlashes && $0 == UInt8(ascii: "/"))
    }
    if plain {
      output.append(contentsOf: text.utf8)
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        || (escapingSlashes && byte == UInt8(ascii: "/"))
      {
        appendEscaped(byte, into: &output)
      } else {
        output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// The UTF-8 `text` as a JSON string, slashes as they are: the runs that need no escape are
  /// found with ``JSONBytes/plainRunEnd(_:from:)`` (vector instructions) and copied whole.
  private static func appendQuoted(_ text: UnsafeRawBufferPointer, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var start = 0
    while start < text.count {
      var end = JSONBytes.plainRunEnd(text, from: start)
      // The run ends at text that is not ASCII too, which needs no escape: go on past it.
      while end < text.count, text[end] >= 0x80 { end = JSONBytes.plainRunEnd(text, from: end + 1) }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<end]))
      guard end < text.count else { break }
      appendEscaped(text[end], into: &output)
      start = end + 1
    }
    output.append(UInt8(ascii: "\""))
  }

  /// The escape of `byte` (a quote, a backslash or a control character).
  private static func appendEscaped(_ byte: UInt8, into output: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): output += [0x5C, 0x22]
    case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
    case UInt8(ascii: "/"): output += [0x5C, 0x2F]
    case 0x0A: output += [0x5C, UInt8(ascii: "n")]
    case 0x0D: output += [0x5C, UInt8(ascii: "r")]
    case 0x09: output += [0x5C, UInt8(ascii: "t")]
    case 0x08: output += [0x5C, UInt8(ascii: "b")]
    case 0x0C: output += [0x5C, UInt8(ascii: "f")]
    case 0..<0x20:
      output += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
      output.append(JSONBytes.hexDigit(byte >> 4))
      output.append(JSONBytes.hexDigit(byte & 0xF))
    default: output.append(byte)
    }
  }

  /// `text` as a JSON string (see ``appendQuoted(_:escapingSlashes:into:)``).
  package static func quoted(_ text: String, escapingSlashes: Bool = false) -> String {
    var output: [UInt8] = []
    appendQuoted(text, escapingSlashes: escapingSlashes, into: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
