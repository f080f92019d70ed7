import DeckCore

/// One record of an app (a Flashzilla `Card`, a row of a Core Data entity), or a nested object:
/// its keys with their values, in their stored order.
///
/// ```swift
/// var card = AppRecord([("prompt", .string("Capital of France?")), ("answer", .string("Paris"))])
/// card["answer"]          // .string("Paris")
/// card["hint"] = .null    // appended at the end
/// ```
///
/// Equality compares keys, values and order.
public struct AppRecord: Sendable, Hashable, RandomAccessCollection {
  /// One key and its value; two are equal when their keys are exactly the same (code point by
  /// code point) and their values equal.
  public typealias Field = KeyedValue<AppValue>

  /// The fields in stored order.
  public var fields: [Field]

  /// Creates a record from fields in order.
  public init(fields: [Field] = []) {
    self.fields = fields
  }

  /// Creates a record from key–value pairs in order.
  public init(_ pairs: [(String, AppValue)]) {
    self.fields = pairs.map { Field(key: $0.0, value: $0.1) }
  }

  public var startIndex: Int { fields.startIndex }
  public var endIndex: Int { fields.endIndex }
  public subscript(position: Int) -> Field { fields[position] }

  /// The keys in order.
  public var keys: [String] { fields.map(\.key) }

  /// The value under `key` (compared code point by code point), or nil when the key is absent.
  /// Setting a value replaces it in place, or appends the key when absent; setting nil removes it.
  public subscript(key: String) -> AppValue? {
    get { fields[key: key] }
    set { fields[key: key] = newValue }
  }

  /// The position of `key`, compared code point by code point.
  public func index(of key: String) -> Int? {
    fields.firstIndex(ofKey: key)
  }
}
