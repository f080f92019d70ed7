import DeckCore
import Foundation
import PlistCodec

/// The form records take under one plist key, as found when reading and kept when writing back.
enum PlistRecordForm: Equatable {
  /// A data value holding JSON text (`JSONEncoder().encode([Card])`).
  case jsonData
  /// A string holding JSON text.
  case jsonString
  /// A data value holding a plist of an array of dictionaries (`PropertyListEncoder`).
  case plistData(PlistDocument.Format)
  /// An array of dictionaries.
  case native

  /// Whether the records are JSON text (data or a string), which holds no bytes but as text.
  var isJSON: Bool { self == .jsonData || self == .jsonString }

  /// How messages describe the form.
  var description: String {
    switch self {
    case .jsonData: "JSON data"
    case .jsonString: "a JSON string"
    case .plistData(let format): "\(format.rawValue == "xml" ? "XML" : "binary") plist data"
    case .native: "an array of dictionaries"
    }
  }

  /// The form a new key gets for `style`.
  init(_ style: PlistRecordStyle) {
    self = style == .json ? .jsonData : .native
  }

  /// The value this form stores `records` as.
  ///
  /// - Throws: ``DeckError`` naming the record and key of a value the form cannot hold (a null
  ///   or a UID in a plist, a non-finite number in JSON).
  func encode(_ records: AppRecords, at location: SourceLocation) throws -> PlistValue {
    switch self {
    case .jsonData: return .data(try Self.json(records, at: location))
    case .jsonString: return .string(String(decoding: try Self.json(records, at: location), as: UTF8.self))
    case .native: return try Self.native(records, at: location)
    case .plistData(let format):
      do {
        return .data(try PlistDocument(format: format, root: try Self.native(records, at: location)).data())
      } catch let error as XMLPlistWriter.Unrepresentable {
        throw DeckError(.invalidRequest, at: ValuePath.location(error.pathText(), in: location), error.message)
      }
    }
  }

  /// The records as JSON text, in their JSON date encoding.
  static func json(_ records: AppRecords, at location: SourceLocation) throws -> Data {
    do {
      return try AppValue.array(records.records.map(AppValue.object)).jsonData(dates: records.jsonDates)
    } catch {
      throw DeckError(.invalidRequest, at: ValuePath.location(error.path, in: location), error.message)
    }
  }

  /// The records as an array of plist dictionaries.
  static func native(_ records: AppRecords, at location: SourceLocation) throws -> PlistValue {
    .array(
      try records.records.enumerated().map { index, record in
        try plist(.object(record), path: "[\(index)]", at: location)
      })
  }

  /// An app value as a plist value: UUIDs as strings (as `PropertyListEncoder` writes them).
  static func plist(_ value: AppValue, path: String, at location: SourceLocation) throws -> PlistValue {
    switch value {
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .double(let number): return .real(number)
    case .bool(let flag): return .bool(flag)
    case .date(let date): return .date(date.timeIntervalSinceReferenceDate)
    case .uuid(let uuid): return .string(uuid.uuidString)
    case .data(let data): return .data(data)
    case .array(let items):
      return .array(try items.enumerated().map { try plist($1, path: path + "[\($0)]", at: location) })
    case .object(let record):
      return .dictionary(
        PlistDictionary(
          try record.fields.map {
            .init(key: $0.key, value: try plist($0.value, path: path + "." + $0.key, at: location))
          }))
    case .null:
      throw DeckError(
        .invalidRequest, at: ValuePath.location(path, in: location),
        "a plist cannot hold null; write the records as JSON data (\(setting: .plistStyle) json) or to another kind of storage"
      )
    }
  }

  /// A plist value as an app value.
  static func app(_ value: PlistValue, path: String, at location: SourceLocation) throws -> AppValue {
    switch value {
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .real(let number): return .double(number)
    case .bool(let flag): return .bool(flag)
    case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .data(let data): return .data(data)
    case .array(let items):
      return .array(try items.enumerated().map { try app($1, path: path + "[\($0)]", at: location) })
    case .dictionary(let dictionary):
      return .object(
        AppRecord(
          fields: try dictionary.entries.map {
            .init(key: $0.key, value: try app($0.value, path: path + "." + $0.key, at: location))
          }))
    case .unsignedInteger(let number):
      throw DeckError(
        .corrupt, at: ValuePath.location(path, in: location), "the integer \(number) does not fit in 64 bits")
    case .uid:
      throw DeckError(
        .corrupt, at: ValuePath.location(path, in: location), "an NSKeyedArchiver UID is not a record value")
    }
  }
}
