import DeckCore
import Foundation
import JSONCore

/// Typed access to the loosely typed JSON objects of a schema-11 collection, with errors that
/// name the object and the key.
struct JSONObjectReader {
  let object: [String: Any]
  /// What the object is, for messages: `note type 1700000000000`.
  let label: String
  let location: SourceLocation

  func require<T>(_ key: String, _ convert: (Any) -> T?) throws -> T {
    guard let raw = object[key], !(raw is NSNull) else {
      throw DeckError(.corrupt, at: location, "\(label): key '\(key)' is missing")
    }
    guard let value = convert(raw) else {
      throw DeckError(.corrupt, at: location, "\(label): key '\(key)' has the wrong type")
    }
    return value
  }

  func optional<T>(_ key: String, _ convert: (Any) -> T?) -> T? {
    object[key].flatMap(convert)
  }

  func string(_ key: String) throws -> String { try require(key, FoundationJSON.string) }
  func int64(_ key: String) throws -> Int64 { try require(key, FoundationJSON.int64) }
  func optionalString(_ key: String) -> String? { optional(key, FoundationJSON.string) }
  func optionalInt64(_ key: String) -> Int64? { optional(key, FoundationJSON.int64) }
  func optionalBool(_ key: String) -> Bool? { optional(key, FoundationJSON.bool) }

  func objects(_ key: String) throws -> [[String: Any]] {
    try require(key) { $0 as? [[String: Any]] }
  }
}

/// Conversions from `JSONSerialization`-style values (which ``FoundationJSON/object(_:)`` makes
/// from JSON text).
enum FoundationJSON {
  static func string(_ value: Any) -> String? { value as? String }

  /// An integer from a JSON number (a whole float too, and `true`/`false` as 1/0, which Anki
  /// accepts for `dyn`) or a string of digits (genanki writes note type ids as strings).
  static func int64(_ value: Any) -> Int64? {
    if let number = value as? NSNumber {
      // An integer is taken exactly (a double cannot hold every 64-bit id, such as Int64.max).
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "q"), UInt8(ascii: "l"), UInt8(ascii: "i"), UInt8(ascii: "s"):
        return number.int64Value
      case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"):
        return number.uint64Value <= UInt64(Int64.max) ? Int64(number.uint64Value) : nil
      default: break
      }
      let double = number.doubleValue
      if double == double.rounded(), abs(double) < 9.2e18 { return number.int64Value }
      return nil
    }
    if let text = value as? String { return Int64(text) }
    return nil
  }

  static func bool(_ value: Any) -> Bool? {
    if let number = value as? NSNumber { return number.doubleValue != 0 }
    return nil
  }

  /// The JSON text of an object, keys sorted so the same object always gives the same text,
  /// written as `JSONSerialization` writes it with `.sortedKeys` (`/` escaped, a whole double
  /// as `1`, keys in ``serializationKeyOrder(_:_:)``).
  static func text(of object: Any) -> String {
    guard let value = JSONValue(foundation: object, wholeDoublesAsIntegers: true, keyOrder: serializationKeyOrder),
      value.members != nil
    else { return "{}" }
    return JSONWriter.text(of: value, escapesSlashes: true)
  }

  /// The order `JSONSerialization`'s `.sortedKeys` writes keys in: case-insensitive, digit runs
  /// as numbers, ties broken by code (`a`, `B`, `x9`, `x10`).
  static func serializationKeyOrder(_ a: String, _ b: String) -> Bool {
    a.compare(
      b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
      locale: NSLocale.system)
      == .orderedAscending
  }

  /// The `JSONSerialization`-style object of JSON text.
  ///
  /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
  static func object(_ text: some Sequence<UInt8>) throws(JSONSyntaxError) -> Any {
    try JSONParser.parse(text, options: .anki).foundationObject
  }

  /// `not valid JSON: line 1, column 2: expected a key in double quotes`.
  static func invalid(_ error: JSONSyntaxError) -> String {
    "not valid JSON: line \(error.line), column \(error.column): \(error.message)"
  }
}
