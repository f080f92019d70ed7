import Foundation
import Testing

@testable import DeckAnki

/// The text of option groups read from a collection comes from the JSON core now; it must be
/// the bytes `JSONSerialization` wrote before (key order, escapes, numbers).
@Suite("Schema-11 JSON text: the bytes JSONSerialization writes")
struct FoundationJSONTests {
  @Test("key order, escaped slashes, whole doubles, nested objects and arrays")
  func sameAsSerialization() throws {
    let object: [String: Any] = [
      "reviewLimit": 1, "revToday": [0, 1], "B": 0.5, "a": "x/y\u{1F}é", "x10": true, "x9": NSNull(),
      "new": ["perDay": 20.0, "delays": [1.0, 10.0], "Zeta": 1e-5], "É": 1e20,
    ]
    let expected = String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    #expect(FoundationJSON.text(of: object) == expected)
  }
}
