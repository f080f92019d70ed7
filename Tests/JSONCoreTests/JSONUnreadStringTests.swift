import Testing

@testable import JSONCore

/// A document held in memory that stays put while values refer to it.
private final class HeldText: JSONSource, @unchecked Sendable {
  private let storage: UnsafeMutableRawBufferPointer
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(storage) }

  init(_ text: String) {
    let utf8 = Array(text.utf8)
    storage = .allocate(byteCount: utf8.count, alignment: 1)
    storage.copyBytes(from: utf8)
  }

  init(bytes: [UInt8]) {
    storage = .allocate(byteCount: bytes.count, alignment: 1)
    storage.copyBytes(from: bytes)
  }

  deinit { storage.deallocate() }
}

@Suite("JSON parser: long strings left in their source")
struct JSONUnreadStringTests {
  private func leaving(_ text: String, from minimum: Int = 8) throws -> JSONValue {
    try JSONParser.parse(source: HeldText(text), leavingStringsFrom: minimum)
  }

  @Test("long string values are left unread and mean what the decoded ones mean; keys and short strings are decoded")
  func sameValues() throws {
    let text =
      #"{"a key longer than eight":"short","b":"a long value\n\u00e9\ud83c\udccf \/ \"q\"","c":["12345678","1234567"]}"#
    let left = try leaving(text)
    let decoded = try JSONParser.parse(Array(text.utf8))
    #expect(left == decoded)
    #expect(left.members?.map(\.key) == ["a key longer than eight", "b", "c"])
    guard case .unreadString(let unread)? = left["b"] else {
      Issue.record("not left: \(String(describing: left["b"]))")
      return
    }
    #expect(unread.text == "a long value\né🃏 / \"q\"")
    #expect(String(decoding: unread.rawText, as: UTF8.self) == #"a long value\n\u00e9\ud83c\udccf \/ \"q\""#)
    #expect(left["a key longer than eight"] == .string("short"))
    guard case .array(let items)? = left["c"] else {
      Issue.record("no array")
      return
    }
    // The text between the quotes decides: eight bytes are left, seven decoded.
    if case .unreadString = items[0] {} else { Issue.record("eight bytes not left: \(items[0])") }
    #expect(items[1] == .string("1234567"))
    #expect(JSONWriter.text(of: left) == JSONWriter.text(of: decoded))
  }

  @Test(
    "a bad long string is refused where and as a decoded one is",
    arguments: [
      "[\"0123456789\u{01}\"]", #"["0123456789\x"]"#, #"["0123456789\ud800 x"]"#, #"["0123456789\udc00"]"#,
      #"["0123456789"#, #"["0123456789\u12"]"#,
    ])
  func sameErrors(text: String) throws {
    let expected = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    let actual = #expect(throws: JSONSyntaxError.self) { try leaving(text) }
    #expect(actual?.message == expected?.message)
    #expect(actual?.line == expected?.line && actual?.column == expected?.column)
  }

  @Test("bytes that are not UTF-8 in a long string are refused at their place")
  func notUTF8() throws {
    let bytes = Array(#"["0123456789"#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8)
    let expected = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
    let actual = #expect(throws: JSONSyntaxError.self) {
      try JSONParser.parse(source: HeldText(bytes: bytes), leavingStringsFrom: 4)
    }
    #expect(actual?.message == expected?.message && actual?.column == expected?.column)
  }
}
