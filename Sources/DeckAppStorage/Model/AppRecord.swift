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
  /// One key and its value.
  public struct Field: Sendable, Hashable {
    /// The key, exactly as stored.
    public var key: String
    /// The value.
    public var value: AppValue

    /// Creates a field.
    public init(key: String, value: AppValue) {
      self.key = key
      self.value = value
    }

    public static func == (lhs: Field, rhs: Field) -> Bool {
      lhs.key.unicodeScalars.elementsEqual(rhs.key.unicodeScalars) && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
      for scalar in key.unicodeScalars { hasher.combine(scalar.value) }
      hasher.combine(value)
    }
  }

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
    get { index(of: key).map { fields[$0].value } }
    set {
      switch (index(of: key), newValue) {
      case (let index?, let value?): fields[index].value = value
      case (let index?, nil): fields.remove(at: index)
      case (nil, let value?): fields.append(Field(key: key, value: value))
      case (nil, nil): break
      }
    }
  }

  /// The position of `key`, compared code point by code point.
  public func index(of key: String) -> Int? {
    fields.firstIndex { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }
  }
}
