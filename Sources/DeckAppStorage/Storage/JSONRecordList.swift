import DeckCore

/// The records in a parsed JSON value: an array whose every item is an object.
enum JSONRecordList {
  /// The records of `value`, or an error naming the record that is not an object.
  static func records(in value: AppValue, name: String, location: SourceLocation, what: String) throws -> AppRecords {
    guard case .array(let items) = value else {
      throw DeckError(.corrupt, at: location, "\(what) holds \(describe(value)), not an array of records")
    }
    let records = try items.enumerated().map { index, item -> AppRecord in
      guard case .object(let record) = item else {
        var place = location
        place.item = [location.item, AppRecords.label(ofRecordAt: index)].compactMap { $0 }.joined(separator: ": ")
        throw DeckError(.corrupt, at: place, "is \(describe(item)), not an object")
      }
      return record
    }
    return AppRecords(name: name, records: records)
  }

  /// "a string", "an object", … for messages.
  static func describe(_ value: AppValue) -> String {
    switch value {
    case .string: "a string"
    case .integer, .double: "a number"
    case .bool: "a boolean"
    case .null: "null"
    case .array: "an array"
    case .object: "an object"
    case .date: "a date"
    case .uuid: "a UUID"
    case .data: "data"
    }
  }
}
