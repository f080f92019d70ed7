import Testing

@testable import JSONCore

@Suite("JSON parser: order, numbers, escapes, limits, error places")
struct JSONParserTests {
  private func parse(_ text: String, _ options: JSONParser.Options = JSONParser.Options()) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8), options: options)
  }

  @Test("members keep their order, and repeated keys are kept unless refused")
  func order() throws {
    let value = try parse(#"{"z":1,"a":{"b":2,"a":3},"z":4}"#)
    #expect(value.members?.map(\.key) == ["z", "a", "z"])
    #expect(value["z"] == .integer(4))
    #expect(value["a"]?.members?.map(\.key) == ["b", "a"])
  }

  @Test(
    "integers, doubles and number text stay apart; nothing is rounded",
    arguments: [
      ("0", JSONValue.integer(0)),
      ("-0", .integer(0)),
      ("-0.0", .double(-0.0)),
      ("9223372036854775807", .integer(.max)),
      ("-9223372036854775808", .integer(.min)),
      ("9223372036854775808", .number("9223372036854775808")),
      ("-99999999999999999999", .number("-99999999999999999999")),
      ("1.0", .double(1)),
      ("1e3", .double(1000)),
      ("2.5E-3", .double(0.0025)),
      ("1e400", .number("1e400")),
      ("-1e400", .number("-1e400")),
    ])
  func numbers(text: String, expected: JSONValue) throws {
    let value = try parse(text)
    #expect(value == expected)
    if case .double(let number) = expected { #expect(value.double?.sign == number.sign) }
  }

  @Test("number text that is kept is written back as it was")
  func numberTextRoundTrips() throws {
    let text = #"[18446744073709551616,1e400,-0.0,1.5,7]"#
    #expect(JSONWriter.text(of: try parse(text)) == text)
  }

  @Test("-0 read as Anki's Rust backend (serde) reads it: a float, no written integer, kept as its text")
  func negativeZeroAsAnkiReadsIt() throws {
    let value = try parse(#"{"rollover":-0,"sortf":0,"size":-0.0,"list":[-0,-1]}"#, .anki)
    #expect(value["rollover"] == .number("-0") && value["rollover"]?.writtenInteger == nil)
    #expect(value["rollover"]?.int64 == 0 && value["rollover"]?.double?.sign == .minus)
    #expect(value["sortf"]?.writtenInteger == 0 && value["size"] == .double(-0.0))
    #expect(value["list"] == .array([.number("-0"), .integer(-1)]))
    #expect(JSONWriter.text(of: value) == #"{"rollover":-0,"sortf":0,"size":-0.0,"list":[-0,-1]}"#)
    // Read without Anki's options, -0 is the integer 0, as Foundation's JSONDecoder reads it.
    #expect(try parse("-0").writtenInteger == 0)
  }

  @Test("escapes: every one-character escape, \\u, surrogate pairs")
  func escapes() throws {
    let value = try parse(#""\"\\\/\b\f\n\r\t\u00e9\ud83c\udccf\u0000x""#)
    #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\té🃏\u{0}x"))
    #expect(try parse("\"é🃏\"") == .string("é🃏"))
  }

  @Test(
    "errors are placed by line and column (in characters)",
    arguments: [
      ("[1,\n 2,,]", 2, 4, "expected a value (an object, array, string, number, true, false or null)"),
      ("{\"a\" 1}", 1, 6, "expected ':' after the key"),
      ("[\"abc", 1, 2, "this string has no closing quote"),
      ("[01]", 1, 2, "a number cannot have a leading zero"),
      ("[1] x", 1, 5, "unexpected text after the end of the document"),
      ("[\"é\", tru]", 1, 7, "expected a value (an object, array, string, number, true, false or null)"),
      ("[", 1, 2, "the document ends where a value should be"),
      ("{\"a\":1 \"b\"}", 1, 8, "expected ',' or '}' after an object value"),
      ("[1 2]", 1, 4, "expected ',' or ']' after an array element"),
      ("{1:2}", 1, 2, "expected a key in double quotes"),
      ("[-]", 1, 3, "expected a digit"),
      ("[1.]", 1, 4, "expected a digit after '.'"),
      ("[1e+]", 1, 5, "expected a digit in the exponent"),
      ("[\"a\u{1}\"]", 1, 4, "a control character (U+0001) must be escaped inside a string"),
      ("[\"\\x\"]", 1, 3, "unknown escape sequence in a string"),
      ("[\"\\u12G4\"]", 1, 4, "\\u must be followed by four hexadecimal digits"),
      ("[\"\\ud83c\"]", 1, 3, "a high surrogate \\ud83c is not followed by a low surrogate"),
      ("[\"\\ud83c\\u0041\"]", 1, 3, "a high surrogate \\ud83c is not followed by a low surrogate"),
      ("[\"\\udccf\"]", 1, 3, "a lone low surrogate \\udccf"),
    ])
  func errors(text: String, line: Int, column: Int, message: String) {
    #expect {
      try parse(text)
    } throws: { error in
      guard let error = error as? JSONSyntaxError else { return false }
      return error.line == line && error.column == column && error.message == message
    }
  }

  @Test("bytes that are not UTF-8 in a string are an error")
  func notUTF8() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }  // a surrogate
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xF0, 0x9F, 0x22]) }  // cut short
  }

  @Test("refusing repeated keys and numbers beyond 64 bits, when asked")
  func strict() {
    var options = JSONParser.Options()
    options.rejectsDuplicateKeys = true
    options.requiresInt64OrFiniteDouble = true
    let cases: [(String, Int, String)] = [
      ("{\"a\":1,\"a\":2}", 8, "the key \"a\" occurs twice in this object"),
      ("[99999999999999999999]", 2, "the integer 99999999999999999999 does not fit in 64 bits"),
      ("[1e400]", 2, "the number 1e400 is out of range"),
    ]
    for (text, column, message) in cases {
      #expect {
        try parse(text, options)
      } throws: { error in
        (error as? JSONSyntaxError).map { $0.column == column && $0.message == message } ?? false
      }
    }
    // Keys are compared scalar by scalar: "é" precomposed and decomposed are two keys.
    #expect((try? parse("{\"\u{E9}\":1,\"e\u{301}\":2}", options))?.members?.count == 2)
  }

  @Test("nesting deeper than the limit is an error, not a crash")
  func depth() throws {
    let deep = String(repeating: "[", count: 100_000)
    #expect {
      try parse(deep)
    } throws: { error in
      (error as? JSONSyntaxError)?.message == "nested more than 512 levels deep"
    }
    var options = JSONParser.Options()
    options.maximumDepth = 3
    #expect(throws: JSONSyntaxError.self) { try parse("[[[[]]]]", options) }
    #expect(try parse("[[[]]]", options) == .array([.array([.array([])])]))
  }

  @Test("a byte order mark and white space around the value are allowed")
  func surroundings() throws {
    #expect(
      try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(" \n\t[true, false, null]\r\n".utf8))
        == .array([.bool(true), .bool(false), .null]))
  }

  @Test("the excerpt of an error shows what follows, line feeds as \\n")
  func excerpt() {
    #expect {
      try parse("{\n  \"a\": x\n}")
    } throws: { error in
      guard let error = error as? JSONSyntaxError else { return false }
      return error.near == "near 'x\\n}'" && error.line == 2 && error.column == 8
    }
    #expect {
      try parse("[1,")
    } throws: { error in
      (error as? JSONSyntaxError)?.near == "at the end of the file"
    }
  }
}
