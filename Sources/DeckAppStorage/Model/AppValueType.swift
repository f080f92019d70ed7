/// The type of a record field, as the record shape and the SQLite metadata name it.
///
/// The raw values are the names stored in deckport's SQLite schema (`deckport_fields.type`).
public enum AppValueType: String, Sendable, Hashable, CaseIterable {
  /// Text.
  case string
  /// A whole number.
  case integer
  /// A floating-point number.
  case double
  /// `true` or `false`.
  case bool
  /// A moment.
  case date
  /// A UUID.
  case uuid
  /// Bytes.
  case data
  /// An ordered list of values.
  case array
  /// A nested object.
  case object
  /// Values of more than one type, or only nulls.
  case any

  /// The type of a field that holds values of `self` in some records and `other` in others
  /// (nulls are ignored by the caller).
  func merged(with other: AppValueType) -> AppValueType {
    self == other ? self : .any
  }
}
