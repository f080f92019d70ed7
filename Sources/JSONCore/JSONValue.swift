/// A JSON value whose objects keep their members in order, and whose numbers keep what their
/// text says: a whole number that fits in 64 bits is an ``integer(_:)``, a number with a fraction
/// or exponent a ``double(_:)``, and any other number (an integer beyond 64 bits, `1e400`) its
/// text, ``number(_:)``, so nothing is rounded or clamped on the way through.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"b":1,"a":2.5,"big":18446744073709551616}"#.utf8))
/// value["big"]  // .number("18446744073709551616")
/// JSONWriter.text(of: value)  // {"b":1,"a":2.5,"big":18446744073709551616}
/// ```
package indirect enum JSONValue: Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number that fits in 64 bits (written without fraction or exponent).
  case integer(Int64)
  /// A floating-point number, written in its shortest form that reads back the same (`1.0`,
  /// `2.5`, `1e-05`); a non-finite one, which JSON cannot hold, is written as `null`.
  case double(Double)
  /// A number as JSON text, written as it is (the caller vouches that it is a JSON number).
  case number(String)
  /// A string.
  case string(String)
  /// A string left undecoded in its source (only a parse that asks for it makes one; see
  /// ``JSONUnreadString``). It is the same value as the ``string(_:)`` of its text.
  case unreadString(JSONUnreadString)
  /// An array.
  case array([JSONValue])
  /// An object, its members in order (a key may occur more than once when the text had it so).
  case object([(key: String, value: JSONValue)])

  /// Whether two values are the same: members in the same order, numbers of the same kind and
  /// value (NaN equal to NaN, so a value always equals itself).
  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.unreadString, _), (_, .unreadString): lhs.string != nil && lhs.string == rhs.string
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// The value of the last member named `key` (as JSON readers keep the last of repeated keys),
  /// or nil when there is none or this is not an object.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last(where: { $0.key == key })?.value
  }

  /// The members, when this is an object.
  package var members: [(key: String, value: JSONValue)]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The elements, when this is an array.
  package var elements: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The text, when this is a string.
  package var string: String? {
    switch self {
    case .string(let text): text
    case .unreadString(let unread): unread.text
    default: nil
    }
  }

  /// The value, when this is `true` or `false`.
  package var bool: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  /// The value when it is written as an integer that fits 64 bits (`5`, not `5.0` or `5e0`),
  /// as a reader into an integer type (Anki's, serde's) takes it; nil otherwise. `-0` is 0 here
  /// unless parsed with ``JSONParser/Options/anki``, which keeps it as serde reads it, a float
  /// (and Anki its default).
  package var writtenInteger: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }

  /// The value as a 64-bit integer: an integer, or a double or number text with no fraction
  /// that fits; nil otherwise.
  package var int64: Int64? {
    switch self {
    case .integer(let number): return number
    case .double(let number):
      guard number == number.rounded(), number >= -9.2e18, number <= 9.2e18 else { return nil }
      return Int64(number)
    case .number(let text):
      return Int64(text) ?? Double(text).flatMap { JSONValue.double($0).int64 }
    default: return nil
    }
  }

  /// The value as a double (an integer or number text converted, possibly rounded), when this
  /// is a number.
  package var double: Double? {
    switch self {
    case .integer(let number): Double(number)
    case .double(let number): number
    case .number(let text): Double(text)
    default: nil
    }
  }

  /// Number text as an integer when it is one that fits, else as a finite double; nil when it
  /// is neither.
  private static func parsedNumber(_ text: String) -> JSONValue? {
    if let whole = Int64(text) { return .integer(whole) }
    guard let number = Double(text), number.isFinite else { return nil }
    return .double(number)
  }

  /// Whether this is `null`.
  package var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Whether two values mean the same to a reader that looks members up by key, as Anki's
  /// does: objects by the last value of each key, in any order; numbers by value (`1`, `1.0` and
  /// the number text `1.0` are the same; an integer equals a double only when the double holds
  /// it exactly). ``==`` is the stricter comparison.
  package func isEquivalent(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
    case (.object(let a), .object(let b)):
      var left: [String: JSONValue] = [:]
      var right: [String: JSONValue] = [:]
      for member in a { left[member.key] = member.value }
      for member in b { right[member.key] = member.value }
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { value.isEquivalent(to: $0) } ?? false }
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
      return Double(exactly: a) == b
    case (.number(let a), .number(let b)):
      guard a != b else { return true }
      guard let left = JSONValue.parsedNumber(a), let right = JSONValue.parsedNumber(b) else { return false }
      return left.isEquivalent(to: right)
    case (.number(let text), .integer), (.number(let text), .double):
      return JSONValue.parsedNumber(text)?.isEquivalent(to: other) ?? false
    case (.integer, .number), (.double, .number):
      return other.isEquivalent(to: self)
    default:
      return self == other
    }
  }
}
