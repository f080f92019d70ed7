import Foundation

/// A JSON value written with its keys in the given order, the way Anki's serde structs write
/// the `col` JSON (so a package deckport writes reads like one Anki wrote).
///
/// Floats are written in their shortest form (`1.3`, not `1.2999999523162842`), as serde does
/// for Anki's `f32` settings; ``raw(_:)`` embeds JSON text that is already valid.
indirect enum JSONText: Sendable {
  case object([(String, JSONText)])
  case array([JSONText])
  case string(String)
  case int(Int64)
  case float(Float)
  case bool(Bool)
  case null
  /// JSON text inserted verbatim; the caller vouches that it is valid.
  case raw(String)

  /// An integer value.
  static func int(_ value: Int) -> JSONText { .int(Int64(value)) }

  /// The value, or `null` when nil.
  static func optional<Value>(_ value: Value?, _ make: (Value) -> JSONText) -> JSONText {
    value.map(make) ?? .null
  }

  /// The JSON text, compact.
  var text: String {
    var output = ""
    write(into: &output)
    return output
  }

  private func write(into output: inout String) {
    switch self {
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        Self.writeString(member.0, into: &output)
        output += ":"
        member.1.write(into: &output)
      }
      output += "}"
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        element.write(into: &output)
      }
      output += "]"
    case .string(let text): Self.writeString(text, into: &output)
    case .int(let number): output += String(number)
    case .float(let number): output += Self.floatText(number)
    case .bool(let flag): output += flag ? "true" : "false"
    case .null: output += "null"
    case .raw(let text): output += text
    }
  }

  /// The shortest decimal form of `number` that reads back as the same `Float`, with a `.0`
  /// on whole numbers as serde writes them; non-finite values (which JSON cannot hold) as 0.
  static func floatText(_ number: Float) -> String {
    guard number.isFinite else { return "0.0" }
    return number.description
  }

  private static func writeString(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }

  /// A value parsed by `JSONSerialization` (an object's keys sorted), for JSON the writer passes
  /// through without interpreting it.
  static func fromFoundation(_ value: Any) -> JSONText {
    switch value {
    case let object as [String: Any]:
      return .object(object.keys.sorted().map { ($0, fromFoundation(object[$0] as Any)) })
    case let array as [Any]:
      return .array(array.map(fromFoundation))
    case let text as String:
      return .string(text)
    case is NSNull:
      return .null
    case let number as NSNumber:
      if let raw = try? JSONSerialization.data(withJSONObject: number, options: [.fragmentsAllowed]) {
        return .raw(String(decoding: raw, as: UTF8.self))
      }
      return .raw(number.stringValue)
    default:
      return .null
    }
  }
}
