import JSONCore

/// An `Encoder` that turns `Encodable` values into a ``JSONValue`` whose objects keep keys in
/// encoding order (the declaration order of synthesized conformances). Optional values that are
/// nil are left out, as `JSONEncoder` does.
struct OrderedJSONEncoder {
  func encode(_ value: some Encodable) throws -> JSONValue {
    let encoder = TreeEncoder(codingPath: [])
    try value.encode(to: encoder)
    return encoder.storage.tree
  }
}

/// Holds the value being built at one position, shared by the containers made for it.
private final class TreeStorage {
  enum Value {
    case empty
    case tree(JSONValue)
    case object([(key: String, value: TreeStorage)])
    case array([TreeStorage])
  }

  var value: Value = .empty

  var tree: JSONValue {
    switch value {
    case .empty: .null
    case .tree(let tree): tree
    case .object(let entries): .object(entries.map { ($0.key, $0.value.tree) })
    case .array(let items): .array(items.map(\.tree))
    }
  }

  func appendEntry(_ key: String) -> TreeStorage {
    let child = TreeStorage()
    if case .object(var entries) = value {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        entries[index].value = child
      } else {
        entries.append((key, child))
      }
      value = .object(entries)
    } else {
      value = .object([(key, child)])
    }
    return child
  }

  func appendItem() -> TreeStorage {
    let child = TreeStorage()
    if case .array(var items) = value {
      items.append(child)
      value = .array(items)
    } else {
      value = .array([child])
    }
    return child
  }
}

private final class TreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  let storage: TreeStorage
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(codingPath: [any CodingKey], storage: TreeStorage = TreeStorage()) {
    self.codingPath = codingPath
    self.storage = storage
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = storage.value {} else { storage.value = .object([]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = storage.value {} else { storage.value = .array([]) }
    return UnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

  /// Encodes `value` into `storage`, using the tree form of primitives directly.
  static func encode(_ value: some Encodable, into storage: TreeStorage, path: [any CodingKey]) throws {
    if let primitive = primitiveTree(value) {
      storage.value = .tree(primitive)
    } else {
      try value.encode(to: TreeEncoder(codingPath: path, storage: storage))
    }
  }

  static func primitiveTree(_ value: Any) -> JSONValue? {
    switch value {
    case let text as String: .string(text)
    case let flag as Bool: .bool(flag)
    case let number as Int: .integer(Int64(number))
    case let number as Int64: .integer(number)
    case let number as Int32: .integer(Int64(number))
    case let number as UInt32: .integer(Int64(number))
    case let number as UInt64: number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(String(number))
    case let number as Double: number.isFinite ? .double(number) : .number(number.description)
    case let number as Float: .number(number.description)
    default: nil
    }
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws {
      encoder.storage.appendEntry(key.stringValue).value = .tree(.null)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try TreeEncoder.encode(value, into: encoder.storage.appendEntry(key.stringValue), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      TreeEncoder(codingPath: codingPath + [key], storage: encoder.storage.appendEntry(key.stringValue))
        .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      TreeEncoder(codingPath: codingPath + [key], storage: encoder.storage.appendEntry(key.stringValue))
        .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      TreeEncoder(codingPath: codingPath, storage: encoder.storage.appendEntry("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      TreeEncoder(codingPath: codingPath + [key], storage: encoder.storage.appendEntry(key.stringValue))
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
      if case .array(let items) = encoder.storage.value { return items.count }
      return 0
    }

    mutating func encodeNil() throws { encoder.storage.appendItem().value = .tree(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
      let index = count
      try TreeEncoder.encode(value, into: encoder.storage.appendItem(), path: codingPath + [PathKey(intValue: index)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      TreeEncoder(codingPath: codingPath + [PathKey(intValue: count)], storage: encoder.storage.appendItem())
        .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      TreeEncoder(codingPath: codingPath + [PathKey(intValue: count)], storage: encoder.storage.appendItem())
        .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      TreeEncoder(codingPath: codingPath, storage: encoder.storage.appendItem())
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storage.value = .tree(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
      try TreeEncoder.encode(value, into: encoder.storage, path: codingPath)
    }
  }
}
