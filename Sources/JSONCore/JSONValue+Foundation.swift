import Foundation

extension JSONValue {
  /// The value as `JSONSerialization` gives one (`[String: Any]`, `[Any]`, `String`, `NSNumber`,
  /// `NSNull`), for code that still works on those: integers as integer `NSNumber`s, doubles as
  /// double ones, Booleans as Boolean ones, number text as the `NSNumber` nearest it; the last
  /// of repeated keys wins.
  package var foundationObject: Any {
    switch self {
    case .null: return NSNull()
    case .bool(let flag): return NSNumber(value: flag)
    case .integer(let number): return NSNumber(value: number)
    case .double(let number): return NSNumber(value: number)
    case .number(let text):
      // `-0` (kept as text by ``JSONParser/Options/anki``) stays a float, -0.0, as serde reads it.
      if !text.hasPrefix("-"), let whole = UInt64(text) { return NSNumber(value: whole) }
      return NSNumber(value: Double(text) ?? 0)
    case .string(let text): return text
    case .unreadString(let unread): return unread.text
    case .array(let elements): return elements.map(\.foundationObject)
    case .object(let members):
      var object: [String: Any] = [:]
      for member in members { object[member.key] = member.value.foundationObject }
      return object
    }
  }

  /// The value of a `JSONSerialization`-style object (`[String: Any]`, `[Any]`, `String`,
  /// `NSNumber`, `NSNull`, or Swift's `Bool`, integers and `Double`), object keys sorted by
  /// `keyOrder` (by code point unless given) so the same object always gives the same text; nil
  /// for anything JSON cannot hold.
  ///
  /// An `NSNumber` is told apart by its stored type: a Boolean, an integer, or a floating-point
  /// number (a ``double(_:)``, unless `wholeDoublesAsIntegers`, which writes a whole one as
  /// `JSONSerialization` does, `1` for `1.0`).
  package init?(
    foundation value: Any, wholeDoublesAsIntegers: Bool = false,
    keyOrder: (String, String) -> Bool = JSONValue.codePointOrder
  ) {
    switch value {
    case is NSNull: self = .null
    case let text as String: self = .string(text)
    case let stored as NSNumber where type(of: value) is NSNumber.Type:
      guard let number = JSONValue(number: stored, wholeDoublesAsIntegers: wholeDoublesAsIntegers) else { return nil }
      self = number
    case let flag as Bool: self = .bool(flag)
    case let integer as Int: self = .integer(Int64(integer))
    case let integer as Int64: self = .integer(integer)
    case let integer as Int32: self = .integer(Int64(integer))
    case let integer as UInt64:
      self = integer <= UInt64(Int64.max) ? .integer(Int64(integer)) : .number(String(integer))
    case let double as Double:
      guard let number = JSONValue(double: double, wholeDoublesAsIntegers: wholeDoublesAsIntegers) else { return nil }
      self = number
    case let items as [Any]:
      var elements: [JSONValue] = []
      elements.reserveCapacity(items.count)
      for item in items {
        guard
          let element = JSONValue(foundation: item, wholeDoublesAsIntegers: wholeDoublesAsIntegers, keyOrder: keyOrder)
        else { return nil }
        elements.append(element)
      }
      self = .array(elements)
    case let object as [String: Any]:
      var members: [(key: String, value: JSONValue)] = []
      for key in object.keys.sorted(by: keyOrder) {
        guard
          let member = object[key].flatMap({
            JSONValue(foundation: $0, wholeDoublesAsIntegers: wholeDoublesAsIntegers, keyOrder: keyOrder)
          })
        else { return nil }
        members.append((key, member))
      }
      self = .object(members)
    default: return nil
    }
  }

  /// A number from `JSONSerialization`, by its stored type.
  private init?(number: NSNumber, wholeDoublesAsIntegers: Bool) {
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"), UInt8(ascii: "B"): self = .bool(number.boolValue)
    case UInt8(ascii: "d"), UInt8(ascii: "f"):
      guard let double = JSONValue(double: number.doubleValue, wholeDoublesAsIntegers: wholeDoublesAsIntegers)
      else { return nil }
      self = double
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"):
      let whole = number.uint64Value
      self = whole <= UInt64(Int64.max) ? .integer(Int64(whole)) : .number(String(whole))
    default: self = .integer(number.int64Value)
    }
  }

  /// A finite double, a whole one written `1` when `wholeDoublesAsIntegers`; nil when not finite.
  private init?(double: Double, wholeDoublesAsIntegers: Bool) {
    guard double.isFinite else { return nil }
    if wholeDoublesAsIntegers, double == double.rounded() {
      let text = double.description
      self = .number(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    } else {
      self = .double(double)
    }
  }

  /// Whether `a` sorts before `b` by Unicode code point (as Python's `sort_keys` orders keys).
  package static func codePointOrder(_ a: String, _ b: String) -> Bool {
    a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
  }
}
