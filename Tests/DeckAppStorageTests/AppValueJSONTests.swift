import Foundation
import JSONCore
import Testing

@testable import DeckAppStorage

@Suite("JSON text: order, numbers, escapes, tags")
struct AppValueJSONTests {
  @Test("key order is kept, integers stay integers and doubles doubles")
  func orderAndNumbers() throws {
    let text = #"{"z":1,"a":1.0,"m":[true,false,null,-0,1e3,"\u00e9\ud83c\udccf"],"n":{"b":2,"a":3}}"#
    let value = try AppValue(json: Data(text.utf8))
    guard case .object(let record) = value else {
      Issue.record("not an object")
      return
    }
    #expect(record.keys == ["z", "a", "m", "n"])
    #expect(record["z"] == .integer(1))
    #expect(record["a"] == .double(1.0))
    #expect(record["m"] == .array([.bool(true), .bool(false), .null, .integer(0), .double(1000), .string("é🃏")]))
    #expect(record["n"] == .object(AppRecord([("b", .integer(2)), ("a", .integer(3))])))
    let written = String(decoding: try value.jsonData(), as: UTF8.self)
    #expect(written == #"{"z":1,"a":1.0,"m":[true,false,null,0,1000.0,"é🃏"],"n":{"b":2,"a":3}}"#)
    #expect(try AppValue(json: Data(written.utf8)) == value)
  }

  @Test("strings are escaped as JSONEncoder escapes them, and JSONEncoder's output parses")
  func escapes() throws {
    let text = "a/b \"q\" \\ \n\t\r\u{08}\u{0C}\u{01} é 🃏"
    let written = String(decoding: try AppValue.string(text).jsonData(), as: UTF8.self)
    #expect(written == #""a\/b \"q\" \\ \n\t\r\b\f\u0001 é 🃏""#)
    #expect(try AppValue(json: Data(written.utf8)) == .string(text))
    let encoded = try JSONEncoder().encode([text])
    #expect(try AppValue(json: encoded) == .array([.string(text)]))
    #expect(try JSONDecoder().decode(String.self, from: Data(written.utf8)) == text)
  }

  @Test("deckport's output decodes with JSONDecoder into the app's Codable type")
  func decodableByApps() throws {
    struct Card: Codable, Equatable {
      var id: UUID
      var prompt: String
      var answer: String
      var created: Date
      var image: Data?
    }
    let records = AppRecords(
      name: "Cards",
      records: [
        AppRecord([
          ("id", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())),
          ("prompt", .string("Zwölf?")),
          ("answer", .string("12")), ("created", .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5))),
          ("image", .data(Data([1, 2, 3]))),
        ])
      ])
    let data = try AppValue.array(records.records.map(AppValue.object)).jsonData(dates: records.jsonDates)
    let cards = try JSONDecoder().decode([Card].self, from: data)
    #expect(
      cards == [
        Card(
          id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(), prompt: "Zwölf?", answer: "12",
          created: Date(timeIntervalSinceReferenceDate: 700_000_000.5), image: Data([1, 2, 3]))
      ])
  }

  @Test("tagged JSON keeps every type, including objects that look like tags")
  func tagged() throws {
    let value = AppValue.array([
      .date(Date(timeIntervalSinceReferenceDate: 700_000_000.123456)), .uuid(UUID()), .data(Data([0, 255])),
      .double(.nan), .double(-.infinity), .double(2), .integer(2),
      .object(AppRecord([("$date", .string("not a date"))])), .object(AppRecord([("$a", .integer(1)), ("b", .null)])),
    ])
    let text = try value.jsonData(tagged: true)
    #expect(try AppValue(taggedJSON: text) == value)
  }

  @Test("a $-key object that is no tag names its JSON path")
  func unknownTag() {
    #expect {
      try AppValue(taggedJSON: Data(#"[{"a":{"$date":"soon"}}]"#.utf8))
    } throws: { error in
      String(describing: error) == "at [0].a: $date is not a tag deckport knows with this value"
    }
  }

  @Test("app JSON refuses a key twice and integers beyond 64 bits, at their line and column")
  func strictErrors() {
    // The grammar's own errors are the JSON core's (JSONCoreTests); these two are app JSON's.
    let expected = [
      "{\"a\":1,\n\"a\":2}": "2:1: the key \"a\" occurs twice in this object",
      "[\n 99999999999999999999]": "2:2: the integer 99999999999999999999 does not fit in 64 bits",
    ]
    for (text, message) in expected {
      #expect(throws: JSONSyntaxError.self) { try AppValue(json: Data(text.utf8)) }
      do {
        _ = try AppValue(json: Data(text.utf8))
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test("JSON cannot hold NaN: the writer names the path")
  func nonFinite() {
    #expect {
      try AppValue.array([.object(AppRecord([("score", .double(.nan))]))]).jsonData()
    } throws: { error in
      (error as? AppValue.JSONUnrepresentable)?.path == "[0].score"
    }
  }
}
