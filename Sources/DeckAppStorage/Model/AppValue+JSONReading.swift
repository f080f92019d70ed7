import Foundation
import JSONCore

extension AppValue {
  /// A value that the tagged JSON form cannot stand for: a `$`-key object that is no tag
  /// deckport knows, with the JSON path to it (`[3].due`).
  struct JSONTagError: Error, CustomStringConvertible {
    var path: String
    var key: String

    var description: String {
      "\(path.isEmpty ? "" : "at \(path): ")\(key) is not a tag deckport knows with this value"
    }
  }

  /// The options app JSON is read with: JSON's grammar, no key twice in an object, every
  /// number an `Int64` or a finite double (as apps' `JSONDecoder` reads them).
  package static var jsonOptions: JSONParser.Options {
    var options = JSONParser.Options()
    options.rejectsDuplicateKeys = true
    options.requiresInt64OrFiniteDouble = true
    return options
  }

  /// The value of the JSON text in `data`: every object's key order kept, integers (no fraction
  /// or exponent) told from doubles.
  ///
  /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
  init(json data: Data) throws(JSONSyntaxError) {
    self.init(untagged: try JSONParser.parse(data, options: Self.jsonOptions))
  }

  /// The value of JSON text in deckport's tagged form (see ``jsonData(dates:tagged:)``), whose
  /// `{"$date": …}`, `{"$uuid": …}`, `{"$data": …}`, `{"$double": "nan"}` and
  /// `{"$object": {…}}` objects become the typed values they were written from.
  ///
  /// - Throws: ``JSONSyntaxError`` for text that is not JSON, ``JSONTagError`` for a `$`
  ///   object that is no tag.
  init(taggedJSON data: Data) throws {
    let value = try JSONParser.parse(data, options: Self.jsonOptions)
    self = try Self.untagging(value, path: "", literal: false)
  }

  /// The value of parsed JSON as it is (no tags read).
  init(untagged value: JSONValue) {
    switch value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .integer(let number): self = .integer(number)
    case .double(let number): self = .double(number)
    case .number(let text): self = .double(Double(text) ?? .nan)
    case .string(let text): self = .string(text)
    case .unreadString(let unread): self = .string(unread.text)
    case .array(let elements): self = .array(elements.map(AppValue.init(untagged:)))
    case .object(let members):
      self = .object(
        AppRecord(fields: members.map { AppRecord.Field(key: $0.key, value: AppValue(untagged: $0.value)) }))
    }
  }

  /// The value of parsed tagged JSON; the object at `path` is taken as it is when `literal` (the
  /// content of a `$object` wrapper).
  private static func untagging(_ value: JSONValue, path: String, literal: Bool) throws(JSONTagError) -> AppValue {
    switch value {
    case .array(let elements):
      var items: [AppValue] = []
      for (position, element) in elements.enumerated() {
        items.append(try untagging(element, path: path + "[\(position)]", literal: false))
      }
      return .array(items)
    case .object(let members):
      var fields: [AppRecord.Field] = []
      for (position, member) in members.enumerated() {
        let memberPath = path.isEmpty ? member.key : path + "." + member.key
        let isWrapper = position == 0 && member.key == "$object"
        fields.append(
          AppRecord.Field(key: member.key, value: try untagging(member.value, path: memberPath, literal: isWrapper)))
      }
      let record = AppRecord(fields: fields)
      return literal ? .object(record) : try untag(record, path: path)
    default:
      return AppValue(untagged: value)
    }
  }

  /// The typed value a tagged object stands for, or the object itself.
  private static func untag(_ record: AppRecord, path: String) throws(JSONTagError) -> AppValue {
    guard record.count == 1, let field = record.first, field.key.hasPrefix("$") else { return .object(record) }
    switch (field.key, field.value) {
    case ("$date", .integer(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case ("$date", .double(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case ("$uuid", .string(let text)):
      if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
    case ("$data", .string(let text)):
      if let data = Data(base64Encoded: text) { return .data(data) }
    case ("$double", .string("nan")): return .double(.nan)
    case ("$double", .string("inf")): return .double(.infinity)
    case ("$double", .string("-inf")): return .double(-.infinity)
    case ("$object", .object(let inner)): return .object(inner)
    default: break
    }
    throw JSONTagError(path: path, key: field.key)
  }
}
