/// An item found by a key compared exactly (``ExactlyComparable``): a field of an app record or
/// of a record shape, an entry of a plist dictionary. Lists of them keep their stored order.
package protocol ExactlyKeyed {
  /// The key, exactly as stored.
  var key: String { get }
}

/// A key and its value, as an ordered record or dictionary holds them (an app record's field, a
/// plist dictionary's entry).
///
/// Two are equal when their keys hold the same Unicode scalars, not merely canonically
/// equivalent ones, and their values are equal.
public struct KeyedValue<Value>: ExactlyKeyed {
  /// The key, exactly as stored.
  public var key: String
  /// The value.
  public var value: Value

  /// Creates the entry `key`: `value`.
  public init(key: String, value: Value) {
    self.key = key
    self.value = value
  }
}

extension KeyedValue: Sendable where Value: Sendable {}

extension KeyedValue: Equatable where Value: Equatable {
  /// Whether both keys are exactly the same and both values equal.
  public static func == (lhs: KeyedValue, rhs: KeyedValue) -> Bool {
    lhs.key.isExactly(rhs.key) && lhs.value == rhs.value
  }
}

extension KeyedValue: Hashable where Value: Hashable {
  /// Feeds the key's scalars and the value.
  public func hash(into hasher: inout Hasher) {
    key.hashExactly(into: &hasher)
    hasher.combine(value)
  }
}

extension Array where Element: ExactlyKeyed {
  /// The position of the first item whose key is exactly `key`.
  package func firstIndex(ofKey key: String) -> Int? { firstIndex { $0.key.isExactly(key) } }

  /// The first item whose key is exactly `key`.
  package func first(withKey key: String) -> Element? { firstIndex(ofKey: key).map { self[$0] } }

  /// The value under `key` (compared exactly), or nil when no entry has it. Setting a value
  /// replaces it in place, or appends an entry when the key is absent; setting nil removes it.
  package subscript<Value>(key key: String) -> Value? where Element == KeyedValue<Value> {
    get { first(withKey: key)?.value }
    set {
      switch (firstIndex(ofKey: key), newValue) {
      case (let index?, let value?): self[index].value = value
      case (let index?, nil): remove(at: index)
      case (nil, let value?): append(KeyedValue(key: key, value: value))
      case (nil, nil): break
      }
    }
  }
}
