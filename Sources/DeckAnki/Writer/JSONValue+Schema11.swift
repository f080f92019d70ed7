import Foundation
import JSONCore

/// The ways the schema-11 writer builds JSON values the way Anki's serde structs write the `col`
/// JSON (so a package deckport writes reads like one Anki wrote).
extension JSONValue {
  /// An integer value.
  static func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }

  /// An integer value.
  static func int(_ value: Int64) -> JSONValue { .integer(value) }

  /// A float in its shortest form (`1.3`, not `1.2999999523162842`), as serde writes Anki's
  /// `f32` settings, with a `.0` on whole numbers; non-finite values (which JSON cannot hold)
  /// as 0.
  static func float(_ value: Float) -> JSONValue { .number(floatText(value)) }

  /// The text ``float(_:)`` writes.
  static func floatText(_ number: Float) -> String {
    guard number.isFinite else { return "0.0" }
    return number.description
  }

  /// The value, or `null` when nil.
  static func optional<Value>(_ value: Value?, _ make: (Value) -> JSONValue) -> JSONValue {
    value.map(make) ?? .null
  }

  /// A value parsed by `JSONSerialization` (an object's keys sorted, a whole double written
  /// `1` as `JSONSerialization` writes it), for JSON the writer passes through without
  /// interpreting it; `null` for anything JSON cannot hold.
  static func fromFoundation(_ value: Any) -> JSONValue {
    JSONValue(foundation: value, wholeDoublesAsIntegers: true, keyOrder: { $0 < $1 }) ?? .null
  }

  /// The compact JSON text.
  var text: String { JSONWriter.text(of: self) }
}
