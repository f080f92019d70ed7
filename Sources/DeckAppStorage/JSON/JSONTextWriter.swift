import Foundation

/// Writes ``AppValue``s as compact JSON text the way `JSONEncoder` does with its defaults: keys in
/// the record's order, `/` escaped as `\/`, non-ASCII as UTF-8, dates as the chosen
/// ``JSONDateEncoding``, UUIDs as uppercase strings, data as base64.
///
/// Doubles keep a fraction or exponent (`1.0`), so reading the text back gives a double again.
/// With `tagged`, dates, UUIDs, data and non-finite doubles are written in deckport's tagged
/// form instead (`{"$date": 700000000.5}`), which ``JSONTextParser`` turns back into the same
/// typed values; deckport's SQLite schema stores nested values that way.
struct JSONTextWriter {
  /// A value JSON cannot hold, with the path to it (`[3].score`).
  struct Unrepresentable: Error {
    var path: String
    var message: String
  }

  var dates: JSONDateEncoding = .secondsSince2001
  var tagged = false

  /// The JSON text of `value`.
  func data(_ value: AppValue) throws(Unrepresentable) -> Data {
    var output: [UInt8] = []
    try write(value, path: "", into: &output)
    return Data(output)
  }

  private func write(_ value: AppValue, path: String, into output: inout [UInt8]) throws(Unrepresentable) {
    switch value {
    case .string(let text): Self.writeString(text, into: &output)
    case .integer(let number): output += Array(String(number).utf8)
    case .double(let number):
      guard number.isFinite else {
        if tagged {
          let name = number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf")
          output += Array("{\"$double\":\"\(name)\"}".utf8)
          return
        }
        throw Unrepresentable(path: path, message: "JSON cannot hold the number \(number)")
      }
      output += Array(Self.doubleText(number).utf8)
    case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
    case .null: output += Array("null".utf8)
    case .date(let date):
      if tagged {
        output += Array("{\"$date\":".utf8)
        output += Array(Self.doubleText(date.timeIntervalSinceReferenceDate).utf8)
        output.append(UInt8(ascii: "}"))
      } else {
        let encoded = dates.encode(date)
        if case .double(let number) = encoded, !number.isFinite {
          throw Unrepresentable(path: path, message: "JSON cannot hold the date \(date)")
        }
        try write(encoded, path: path, into: &output)
      }
    case .uuid(let uuid):
      if tagged { output += Array("{\"$uuid\":".utf8) }
      Self.writeString(uuid.uuidString, into: &output)
      if tagged { output.append(UInt8(ascii: "}")) }
    case .data(let data):
      if tagged { output += Array("{\"$data\":".utf8) }
      Self.writeString(data.base64EncodedString(), into: &output)
      if tagged { output.append(UInt8(ascii: "}")) }
    case .array(let items):
      output.append(UInt8(ascii: "["))
      for (position, item) in items.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        try write(item, path: path + "[\(position)]", into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let record):
      let wrap = tagged && record.count == 1 && (record.first?.key.hasPrefix("$") ?? false)
      if wrap { output += Array("{\"$object\":".utf8) }
      output.append(UInt8(ascii: "{"))
      for (position, field) in record.fields.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        Self.writeString(field.key, into: &output)
        output.append(UInt8(ascii: ":"))
        try write(field.value, path: path.isEmpty ? field.key : path + "." + field.key, into: &output)
      }
      output.append(UInt8(ascii: "}"))
      if wrap { output.append(UInt8(ascii: "}")) }
    }
  }

  /// The shortest text that reads back as exactly `number`, always with a fraction or exponent.
  static func doubleText(_ number: Double) -> String {
    let text = "\(number)"
    return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
  }

  static func writeString(_ text: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "/"): output += [UInt8(ascii: "\\"), UInt8(ascii: "/")]
      case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20: output += Array(String(format: "\\u%04x", byte).utf8)
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
