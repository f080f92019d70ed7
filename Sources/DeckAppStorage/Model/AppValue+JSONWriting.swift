import Foundation
import JSONCore

extension AppValue {
  /// A value JSON cannot hold, with the path to it (`[3].score`).
  struct JSONUnrepresentable: Error {
    var path: String
    var message: String
  }

  /// The value as compact JSON text, the way `JSONEncoder` writes it with its defaults: keys in
  /// the record's order, `/` escaped as `\/`, non-ASCII as UTF-8, dates as `dates` says, UUIDs
  /// as uppercase strings, data as base64.
  ///
  /// Doubles keep a fraction or exponent (`1.0`), so reading the text back gives a double again.
  /// With `tagged`, dates, UUIDs, data and non-finite doubles are written in deckport's tagged
  /// form instead (`{"$date": 700000000.5}`), which ``init(taggedJSON:)`` turns back into the
  /// same typed values; deckport's SQLite schema stores nested values that way.
  ///
  /// - Throws: ``JSONUnrepresentable`` for a non-finite double (or date) when not `tagged`.
  func jsonData(dates: JSONDateEncoding = .secondsSince2001, tagged: Bool = false) throws(JSONUnrepresentable) -> Data {
    Data(JSONWriter.bytes(of: try jsonValue(dates: dates, tagged: tagged, path: ""), escapesSlashes: true))
  }

  /// The value as ``jsonData(dates:tagged:)`` writes it.
  private func jsonValue(dates: JSONDateEncoding, tagged: Bool, path: String) throws(JSONUnrepresentable) -> JSONValue {
    switch self {
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .double(let number):
      guard number.isFinite else {
        if tagged { return .object([("$double", .string(number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf")))]) }
        throw JSONUnrepresentable(path: path, message: "JSON cannot hold the number \(number)")
      }
      return .double(number)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .date(let date):
      if tagged { return .object([("$date", .double(date.timeIntervalSinceReferenceDate))]) }
      let encoded = dates.encode(date)
      if case .double(let number) = encoded, !number.isFinite {
        throw JSONUnrepresentable(path: path, message: "JSON cannot hold the date \(date)")
      }
      return try encoded.jsonValue(dates: dates, tagged: tagged, path: path)
    case .uuid(let uuid): return tagged ? .object([("$uuid", .string(uuid.uuidString))]) : .string(uuid.uuidString)
    case .data(let data):
      let text = JSONValue.string(data.base64EncodedString())
      return tagged ? .object([("$data", text)]) : text
    case .array(let items):
      var elements: [JSONValue] = []
      for (position, item) in items.enumerated() {
        elements.append(try item.jsonValue(dates: dates, tagged: tagged, path: path + "[\(position)]"))
      }
      return .array(elements)
    case .object(let record):
      var members: [(key: String, value: JSONValue)] = []
      for field in record.fields {
        let fieldPath = path.isEmpty ? field.key : path + "." + field.key
        members.append((field.key, try field.value.jsonValue(dates: dates, tagged: tagged, path: fieldPath)))
      }
      let wrap = tagged && record.count == 1 && (record.first?.key.hasPrefix("$") ?? false)
      return wrap ? .object([("$object", .object(members))]) : .object(members)
    }
  }
}
