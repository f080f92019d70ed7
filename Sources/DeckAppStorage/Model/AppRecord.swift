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
///
/// A record of many keys keeps an index of them, so reading or setting a key costs the same in
/// a record of five keys and in one of twenty thousand.
public struct AppRecord: Sendable, Hashable, RandomAccessCollection {
  /// One key and its value; two are equal when their keys are exactly the same (code point by
  /// code point) and their values equal.
  public typealias Field = KeyedValue<AppValue>

  private var storage: [Field]
  private var positions: ExactKeyPositions?

  /// The fields in stored order.
  public var fields: [Field] {
    get { storage }
    set {
      storage = newValue
      positions = ExactKeyPositions(storage)
    }
    _modify {
      defer { positions = ExactKeyPositions(storage) }
      yield &storage
    }
  }

  /// Creates a record from fields in order.
  public init(fields: [Field] = []) {
    storage = fields
    positions = ExactKeyPositions(fields)
  }

  /// Creates a record from key–value pairs in order.
  public init(_ pairs: [(String, AppValue)]) {
    self.init(fields: pairs.map { Field(key: $0.0, value: $0.1) })
  }

  public var startIndex: Int { storage.startIndex }
  public var endIndex: Int { storage.endIndex }
  public subscript(position: Int) -> Field { storage[position] }

  /// The keys in order.
  public var keys: [String] { storage.map(\.key) }

  /// The value under `key` (compared code point by code point), or nil when the key is absent.
  /// Setting a value replaces it in place, or appends the key when absent; setting nil removes it.
  public subscript(key: String) -> AppValue? {
    get { index(of: key).map { storage[$0].value } }
    set {
      switch (index(of: key), newValue) {
      case (let index?, let value?):
        storage[index].value = value
      case (let index?, nil):
        storage.remove(at: index)
        positions = ExactKeyPositions(storage)
      case (nil, let value?):
        append(Field(key: key, value: value))
      case (nil, nil):
        break
      }
    }
  }

  /// Appends `field` at the end. A key already present stays found at its first position.
  public mutating func append(_ field: Field) {
    storage.append(field)
    if positions == nil {
      positions = ExactKeyPositions(storage)
    } else if positions?.position(of: field.key) == nil {
      positions?.recordAppended(field.key, at: storage.count - 1)
    }
  }

  /// The position of `key`, compared code point by code point.
  public func index(of key: String) -> Int? {
    storage.firstIndex(ofKey: key, positions: positions)
  }

  /// Whether both hold the same keys (exactly) with equal values, in the same order.
  public static func == (lhs: AppRecord, rhs: AppRecord) -> Bool { lhs.storage == rhs.storage }

  /// Feeds the keys and values in order.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
