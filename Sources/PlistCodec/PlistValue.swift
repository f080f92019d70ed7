import DeckCore
import Foundation

/// A property-list value as it is stored, dictionary keys in file order.
///
/// Foundation's `PropertyListSerialization` returns unordered dictionaries and cannot tell
/// `<true/>` from the integer 1 reliably, so deckport reads and writes plists itself: every key
/// and value it does not change is written back with the same type, value and order.
package enum PlistValue: Equatable, Sendable {
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

  /// Whether the two are the same as stored: strings scalar by scalar, reals and dates by bit
  /// pattern (``ExactlyComparable``), dictionaries with their keys in the same order.
  package static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a.isExactly(b)
    case (.integer(let a), .integer(let b)): a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
    case (.real(let a), .real(let b)): a.isExactly(b)
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)): a.isExactly(b)
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.uid(let a), .uid(let b)): a == b
    default: false
    }
  }
}

/// A plist dictionary: keys and values in file order.
package struct PlistDictionary: Equatable, Sendable {
  /// One key and its value.
  package typealias Entry = KeyedValue<PlistValue>

  /// The keys and values in file order.
  package var entries: [Entry]

  /// A dictionary of `entries`, in their order.
  package init(_ entries: [Entry] = []) {
    self.entries = entries
  }

  /// The keys in file order.
  package var keys: [String] { entries.map(\.key) }

  /// The value under `key` (compared exactly); setting replaces in place or appends, nil removes.
  package subscript(key: String) -> PlistValue? {
    get { entries[key: key] }
    set { entries[key: key] = newValue }
  }
}
