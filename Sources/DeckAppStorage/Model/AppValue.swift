import DeckCore
import Foundation

/// One value of an app record, with its type: what an app's `Codable` struct, a plist, a JSON
/// file or a SQLite/Core Data column holds.
///
/// Values are compared exactly: doubles and dates by their bit pattern (so `-0.0` differs from
/// `0.0` and NaN equals NaN), objects by their keys *and their order*.
///
/// ```swift
/// let card: AppValue = .object(AppRecord([("id", .uuid(UUID())), ("prompt", .string("12 × 12")), ("answer", .integer(144))]))
/// ```
public enum AppValue: Sendable, Hashable, CustomStringConvertible {
  /// Text.
  case string(String)
  /// A whole number (`Int`, `Int64`, a JSON number without fraction or exponent).
  case integer(Int64)
  /// A floating-point number (`Double`, `Float`, a JSON number with a fraction or exponent).
  case double(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// A moment, kept as `Date` (seconds since 2001-01-01T00:00:00Z, full precision).
  case date(Date)
  /// A UUID.
  case uuid(UUID)
  /// Bytes (`Data`): images, archives. Large values deckport makes (a deck's pictures, a Core
  /// Data store's external-storage files) are mapped from a private temporary file rather than
  /// held in memory; they compare and copy as any `Data` does.
  case data(Data)
  /// An ordered list.
  case array([AppValue])
  /// A nested object, its keys in their stored order.
  case object(AppRecord)
  /// An explicit null (a JSON `null`, an SQL `NULL`).
  case null

  /// The value's type.
  public var type: AppValueType {
    switch self {
    case .string: .string
    case .integer: .integer
    case .double: .double
    case .bool: .bool
    case .date: .date
    case .uuid: .uuid
    case .data: .data
    case .array: .array
    case .object: .object
    case .null: .any
    }
  }

  /// Whether this is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value as an app compares identities: a UUID's text in any spelling `UUID(uuidString:)`
  /// takes is the UUID (`Codable` decodes `e621e1f8-…` and `E621E1F8-…` to one value); any other
  /// value is itself.
  var identityValue: AppValue {
    if case .string(let text) = self, let uuid = UUID(uuidString: text) { return .uuid(uuid) }
    return self
  }

  /// Whether the two are the same as stored: strings scalar by scalar, doubles and dates by bit
  /// pattern, objects with their keys in the same order.
  public static func == (lhs: AppValue, rhs: AppValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a.isExactly(b)
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a.isExactly(b)
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)): a.isExactly(b)
    case (.uuid(let a), .uuid(let b)): a == b
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a == b
    case (.null, .null): true
    default: false
    }
  }

  /// Feeds the value's type, then what ``==(_:_:)`` compares. Data is hashed whole: `Data`'s own
  /// hash takes only its count and first 80 bytes, so pictures of one size and header (one
  /// camera's, one encoder's) would all collide in a record index or a memo.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    switch self {
    case .string(let text): text.hashExactly(into: &hasher)
    case .integer(let number): hasher.combine(number)
    case .double(let number): number.hashExactly(into: &hasher)
    case .bool(let flag): hasher.combine(flag)
    case .date(let date): date.hashExactly(into: &hasher)
    case .uuid(let uuid): hasher.combine(uuid)
    case .data(let data):
      hasher.combine(data.count)
      data.withUnsafeBytes { hasher.combine(bytes: $0) }
    case .array(let items): hasher.combine(items)
    case .object(let record): hasher.combine(record)
    case .null: break
    }
  }

  /// A short rendering for messages: strings quoted and cut to 40 characters, data as a byte
  /// count, containers as their size.
  public var description: String {
    switch self {
    case .string(let text):
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "\"\(shown)\""
    case .integer(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .date(let date):
      return "date \(date.timeIntervalSinceReferenceDate) (\(ISO8601DateFormatter().string(from: date)))"
    case .uuid(let uuid): return "UUID \(uuid.uuidString)"
    case .data(let data): return "\(data.count) bytes"
    case .array(let items): return "an array of \(items.count)"
    case .object(let record): return "an object with \(record.count) keys"
    case .null: return "null"
    }
  }
}
