import JSONCore
import Testing

@Suite("JSONValue.isEquivalent: the same meaning to a reader that looks members up by key")
struct JSONValueEquivalenceTests {
  private func value(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test(
    "equivalent",
    arguments: [
      (#"{"a":1,"b":[true,null]}"#, #"{"b":[true,null],"a":1}"#),
      ("1", "1.0"), ("[1,2]", "[1.0,2]"), (#"{"a":{"y":2,"x":1}}"#, #"{"a":{"x":1.0,"y":2}}"#),
      // Of a key given twice the last value counts.
      (#"{"a":1,"a":2}"#, #"{"a":2}"#),
      ("18446744073709551616", "18446744073709551616"),
    ])
  func equivalent(pair: (String, String)) throws {
    #expect(try value(pair.0).isEquivalent(to: value(pair.1)))
    #expect(try value(pair.1).isEquivalent(to: value(pair.0)))
  }

  @Test("number text (as a writer keeps a float's shortest text) against parsed numbers")
  func numberText() throws {
    #expect(JSONValue.number("0.9").isEquivalent(to: try value("0.9")))
    #expect(try value("0.90").isEquivalent(to: .number("0.9")))
    #expect(JSONValue.number("2").isEquivalent(to: .integer(2)))
    #expect(JSONValue.number("2.0").isEquivalent(to: .integer(2)))
    #expect(!JSONValue.number("0.9").isEquivalent(to: .double(0.8999999761581421)))
    #expect(!JSONValue.number("1e400").isEquivalent(to: .double(.infinity)))
    #expect(JSONValue.number("1e400").isEquivalent(to: .number("1e400")))
    #expect(JSONValue.number("10.0").isEquivalent(to: .number("10")))
    #expect(JSONValue.array([.number("1.0")]).isEquivalent(to: .array([.number("1")])))
    #expect(!JSONValue.number("10.5").isEquivalent(to: .number("10")))
    #expect(!JSONValue.number("1e400").isEquivalent(to: .number("2e400")))
  }

  @Test(
    "not equivalent",
    arguments: [
      ("[1,2]", "[2,1]"), (#"{"a":1}"#, #"{"a":1,"b":null}"#), ("1", "1.5"), ("1", "true"), (#""1""#, "1"),
      ("0", "null"), (#"{"a":[1]}"#, #"{"a":[1,1]}"#), ("9007199254740993", "9007199254740992.0"),
    ])
  func notEquivalent(pair: (String, String)) throws {
    #expect(try !value(pair.0).isEquivalent(to: value(pair.1)))
    #expect(try !value(pair.1).isEquivalent(to: value(pair.0)))
  }
}
