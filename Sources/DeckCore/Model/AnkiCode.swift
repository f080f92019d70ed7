/// A number Anki stores in a column whose values it defines and names: a card's type
/// (``CardType``) and queue (``CardQueue``), a review's kind (``ReviewKind``), a deletion
/// record's kind (``DeletionKind``). Any other value a collection holds is kept as it is, so a
/// deck converts without losing it, and is shown as its number.
///
/// ```swift
/// CardQueue.buriedByUser.description   // "buried by user"
/// CardQueue(rawValue: 7).description   // "7"
/// CardQueue.names[-1]                  // "suspended"
/// ```
public protocol AnkiCode: RawRepresentable, CustomStringConvertible where RawValue == Int {
  /// The name of each value Anki defines, by stored value.
  static var names: [Int: String] { get }
}

extension AnkiCode {
  /// The value's name (`new`, `buried by user`, …), or the stored number when Anki defines none.
  public var description: String { Self.names[rawValue] ?? String(rawValue) }
}
