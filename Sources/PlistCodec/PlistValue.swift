import Foundation

/// A property-list value as it is stored, dictionary keys in file order.
///
/// Foundation's `PropertyListSerialization` returns unordered dictionaries and cannot tell
/// `<true/>` from the integer 1 reliably, so deckport reads and writes plists itself: every key
/// and value it does not change is written back with the same type, value and order.
package enum PlistValue: Hashable, Sendable {
  /// A string.
  case string(String)
  /// A signed integer.
  case integer(Int64)
  /// An integer above `Int64.max` (binary plists store these in 16 bytes).
  case unsignedInteger(UInt64)
  /// A floating-point number.
  case real(Double)
  /// `<true/>` or `<false/>`.
  case bool(Bool)
  /// Seconds since 2001-01-01T00:00:00Z.
  case date(Double)
  /// Bytes.
  case data(Data)
  /// An ordered list of values.
  case array([PlistValue])
  /// Keys and values in file order.
  case dictionary(PlistDictionary)
  /// An NSKeyedArchiver object reference (binary marker 0x8n).
  case uid(UInt64)

  /// The name of the value's type for messages: "a string", "data", "an array".
  package var typeDescription: String {
    switch self {
    case .string: "a string"
    case .integer, .unsignedInteger: "an integer"
    case .real: "a real number"
    case .bool: "a boolean"
    case .date: "a date"
    case .data: "data"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .uid: "an archiver UID"
    }
  }

  package static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.integer(let a), .integer(let b)): a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
    case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)): a.bitPattern == b.bitPattern
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.uid(let a), .uid(let b)): a == b
    default: false
    }
  }

  package func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let text):
      hasher.combine(0)
      for scalar in text.unicodeScalars { hasher.combine(scalar.value) }
    case .integer(let number):
      hasher.combine(1)
      hasher.combine(number)
    case .unsignedInteger(let number):
      hasher.combine(2)
      hasher.combine(number)
    case .real(let number):
      hasher.combine(3)
      hasher.combine(number.bitPattern)
    case .bool(let flag):
      hasher.combine(4)
      hasher.combine(flag)
    case .date(let seconds):
      hasher.combine(5)
      hasher.combine(seconds.bitPattern)
    case .data(let data):
      hasher.combine(6)
      hasher.combine(data)
    case .array(let items):
      hasher.combine(7)
      hasher.combine(items)
    case .dictionary(let dictionary):
      hasher.combine(8)
      hasher.combine(dictionary)
    case .uid(let number):
      hasher.combine(9)
      hasher.combine(number)
    }
  }
}

/// A plist dictionary: keys and values in file order.
package struct PlistDictionary: Hashable, Sendable {
  /// One key and its value.
  package struct Entry: Hashable, Sendable {
    /// The key.
    package var key: String
    /// The value under the key.
    package var value: PlistValue

    /// The entry `key`: `value`.
    package init(key: String, value: PlistValue) {
      self.key = key
      self.value = value
    }

    package static func == (lhs: Entry, rhs: Entry) -> Bool {
      lhs.key.unicodeScalars.elementsEqual(rhs.key.unicodeScalars) && lhs.value == rhs.value
    }

    package func hash(into hasher: inout Hasher) {
      for scalar in key.unicodeScalars { hasher.combine(scalar.value) }
      hasher.combine(value)
    }
  }

  /// The keys and values in file order.
  package var entries: [Entry]

  /// A dictionary of `entries`, in their order.
  package init(_ entries: [Entry] = []) {
    self.entries = entries
  }

  /// The keys in file order.
  package var keys: [String] { entries.map(\.key) }

  /// The value under `key`; setting replaces in place or appends, nil removes.
  package subscript(key: String) -> PlistValue? {
    get { entries.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value }
    set {
      let index = entries.firstIndex { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }
      switch (index, newValue) {
      case (let index?, let value?): entries[index].value = value
      case (let index?, nil): entries.remove(at: index)
      case (nil, let value?): entries.append(Entry(key: key, value: value))
      case (nil, nil): break
      }
    }
  }
}
