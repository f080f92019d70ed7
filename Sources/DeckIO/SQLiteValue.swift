import Foundation

/// The storage class of an SQLite value.
package enum SQLiteValueType: Sendable, Hashable {
  /// A 64-bit signed integer.
  case integer
  /// A 64-bit IEEE float.
  case real
  /// UTF-8 text.
  case text
  /// Raw bytes.
  case blob
  /// SQL NULL.
  case null
}

/// One SQLite value with its storage class.
package enum SQLiteValue: Sendable, Hashable {
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A 64-bit IEEE float.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Raw bytes.
  case blob(Data)
  /// SQL NULL.
  case null

  /// The storage class of this value.
  package var type: SQLiteValueType {
    switch self {
    case .integer: .integer
    case .real: .real
    case .text: .text
    case .blob: .blob
    case .null: .null
    }
  }
}
