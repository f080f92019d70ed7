import CSQLite
import DeckCore

/// The `unicase` collation of Anki's schema-18 tables: order by code point of the names folded
/// as Anki folds them (``FullCaseFolding``: `Straße` is `STRASSE`, and sorts before
/// `Strasse X`), so that an index deckport builds is in the order Anki's own collation reads it.
/// As in Anki, names differing only in case compare equal, so the unique indexes on deck and
/// note type names refuse "French" beside "french".
enum UnicaseCollation {
  /// The collation's name as the schema uses it.
  static let name = "unicase"

  /// Compares two UTF-8 strings: negative, zero or positive as `a` sorts before, with or
  /// after `b`.
  static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32 {
    if let ascii = compareASCII(a, b) { return ascii }
    let left = FullCaseFolding.key(String(decoding: a, as: UTF8.self)).unicodeScalars
    let right = FullCaseFolding.key(String(decoding: b, as: UTF8.self)).unicodeScalars
    var leftScalars = left.makeIterator()
    var rightScalars = right.makeIterator()
    while true {
      switch (leftScalars.next(), rightScalars.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let l?, let r?):
        if l.value != r.value { return l.value < r.value ? -1 : 1 }
      }
    }
  }

  /// The comparison for two all-ASCII strings, without allocating; nil when either has a
  /// non-ASCII byte.
  private static func compareASCII(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32? {
    let common = min(a.count, b.count)
    var index = 0
    while index < common {
      let l = a[index]
      let r = b[index]
      if l >= 0x80 || r >= 0x80 { return nil }
      if l != r {
        let lowerL = l >= 0x41 && l <= 0x5A ? l + 0x20 : l
        let lowerR = r >= 0x41 && r <= 0x5A ? r + 0x20 : r
        if lowerL != lowerR {
          // The rest must still be ASCII for this answer to hold.
          guard isASCII(a, from: index), isASCII(b, from: index) else { return nil }
          return lowerL < lowerR ? -1 : 1
        }
      }
      index += 1
    }
    guard isASCII(a, from: common), isASCII(b, from: common) else { return nil }
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    return 0
  }

  private static func isASCII(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
    var index = start
    while index < bytes.count {
      if bytes[index] >= 0x80 { return false }
      index += 1
    }
    return true
  }

  /// Registers the collation on `connection`; returns SQLite's result code.
  static func register(on connection: OpaquePointer) -> Int32 {
    sqlite3_create_collation_v2(
      connection, name, SQLITE_UTF8, nil,
      { _, leftCount, left, rightCount, right in
        UnicaseCollation.compare(
          UnsafeRawBufferPointer(start: left, count: left == nil ? 0 : Int(max(leftCount, 0))),
          UnsafeRawBufferPointer(start: right, count: right == nil ? 0 : Int(max(rightCount, 0))))
      }, nil)
  }
}
