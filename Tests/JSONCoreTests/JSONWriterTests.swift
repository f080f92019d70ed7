import Foundation
import Testing

@testable import JSONCore

@Suite("JSON writer: layouts, escapes, numbers")
struct JSONWriterTests {
  private let sample = JSONValue.object([
    ("b", .integer(1)), ("a", .array([.double(2), .bool(true), .null])), ("e", .object([])), ("f", .array([])),
  ])

  @Test("compact text keeps member order")
  func compact() {
    #expect(JSONWriter.text(of: sample) == #"{"b":1,"a":[2.0,true,null],"e":{},"f":[]}"#)
  }

  @Test("indented text: one member a line, empty containers inline")
  func indented() {
    let expected = "{\n  \"b\": 1,\n  \"a\": [\n    2.0,\n    true,\n    null\n  ],\n  \"e\": {},\n  \"f\": []\n}"
    #expect(JSONWriter.text(of: sample, layout: .indented(spaces: 2)) == expected)
    let four = JSONWriter.text(of: .object([("k", .array([.integer(1)]))]), layout: .indented(spaces: 4))
    #expect(four == "{\n    \"k\": [\n        1\n    ]\n}")
  }

  @Test("strings: quotes, backslashes and control characters escaped; slashes on request")
  func escapes() {
    let text = "a/b \"q\" \\ \n\t\r\u{08}\u{0C}\u{01}\u{1F} é 🃏"
    #expect(JSONWriter.quoted(text) == #""a/b \"q\" \\ \n\t\r\b\f\u0001\u001f é 🃏""#)
    #expect(JSONWriter.quoted(text, escapingSlashes: true) == #""a\/b \"q\" \\ \n\t\r\b\f\u0001\u001f é 🃏""#)
  }

  @Test("what the writer writes, the parser reads back the same (and so does JSONSerialization)")
  func roundTrip() throws {
    let value = JSONValue.object([
      ("text", .string("a\u{0}\u{7F}\u{2028}🃏\"\\/")), ("big", .number("123456789012345678901234567890")),
      ("min", .integer(.min)), ("tiny", .double(.leastNonzeroMagnitude)), ("neg", .double(-0.0)),
      ("huge", .double(1e300)),
    ])
    let bytes = JSONWriter.bytes(of: value)
    #expect(try JSONParser.parse(bytes) == value)
    let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    #expect(parsed?["text"] as? String == "a\u{0}\u{7F}\u{2028}🃏\"\\/")
  }

  @Test("long strings: every escape at every place around the vector scan's blocks, as the byte-by-byte path writes it")
  func longStrings() throws {
    let pieces = ["a", "é", "🃏", "\"", "\\", "/", "\n", "\u{01}", "\u{1F}", "\u{7F}", " "]
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200] {
      for _ in 0..<20 {
        let text = (0..<length).map { _ in
          Bool.random(using: &generator) ? "x" : pieces.randomElement(using: &generator)!
        }
        .joined()
        let written = JSONWriter.quoted(text)
        // The byte-by-byte path (taken for escaped slashes) with its `\/` undone gives the same text.
        #expect(written == JSONWriter.quoted(text, escapingSlashes: true).replacingOccurrences(of: "\\/", with: "/"))
        let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed)
        #expect(parsed as? String == text)
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 })
      }
    }
  }

  @Test("integers: every digit count, both signs, the extremes", arguments: [Int64.min, .max, 0, -1, 1, 9, 10, -10])
  func integers(seed: Int64) {
    var numbers = [seed]
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      numbers += [power - 1, power, -power, -(power - 1)]
    }
    for number in numbers {
      #expect(JSONWriter.text(of: .integer(number)) == String(number))
    }
  }

  @Test(
    "doubles in their shortest form, always with a fraction or exponent",
    arguments: [
      (1.0, "1.0"), (2.5, "2.5"), (1e-5, "1e-05"), (1e16, "1e+16"), (0.1, "0.1"), (-0.0, "-0.0"),
      (Double.nan, "null"), (Double.infinity, "null"),
    ])
  func doubles(number: Double, text: String) {
    #expect(JSONWriter.text(of: number) == text)
  }

  @Test("Foundation objects: keys sorted by code point, numbers by stored type")
  func foundation() throws {
    let object: [String: Any] = ["b": NSNumber(value: 1.0), "a": NSNumber(value: true), "é": [NSNull(), "x", 3]]
    let value = try #require(JSONValue(foundation: object))
    #expect(JSONWriter.text(of: value) == #"{"a":true,"b":1.0,"é":[null,"x",3]}"#)
    let asSerialization = try #require(JSONValue(foundation: object, wholeDoublesAsIntegers: true))
    #expect(JSONWriter.text(of: asSerialization) == #"{"a":true,"b":1,"é":[null,"x",3]}"#)
    #expect(JSONValue(foundation: Double.nan) == nil)
    let back = try JSONParser.parse(Array(#"{"a":[1,2.5,true,null,"s"]}"#.utf8)).foundationObject
    #expect(
      JSONValue(foundation: back)
        == .object([("a", .array([.integer(1), .double(2.5), .bool(true), .null, .string("s")]))]))
  }
}
