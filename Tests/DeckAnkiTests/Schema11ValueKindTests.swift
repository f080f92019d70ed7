import DeckTestSupport
import JSONCore
import Testing

@testable import DeckAnki

/// deckport's table of what Anki reads in each member of a schema-11 deck, note type, field,
/// template and option group (`Schema11ValueKinds`), against what the real backend did with
/// every case of `fixtures/schema11/value_type_cases.json`
/// (`fixtures/schema11/make_value_type_cases.py`): one member set to one value, the package
/// imported or refused.
@Suite("Schema-11 JSON values: what the real Anki backend reads")
struct Schema11ValueKindTests {
  /// One case of the fixture.
  struct Case: Decodable, Sendable {
    /// `optionGroup`, `deck`, `filteredDeck`, `noteType`, `field` or `template`.
    let owner: String
    /// The member set: `maxTaken`, `new.ints[0]`, `terms[0][1]`.
    let member: String
    /// The member's JSON text.
    let value: String
    /// Whether the backend imported the package.
    let read: Bool
    /// Of a member of an option group's `new`, `rev` or `lapse` settings: whether Anki kept the
    /// object's other settings, and the member's JSON as Anki held it.
    let othersKept: Bool?
    let held: String?
  }

  /// The cases of one member.
  struct Member: Sendable, CustomTestStringConvertible {
    let owner: String
    let path: String
    let cases: [Case]
    var testDescription: String { "\(owner) \(path)" }
  }

  static let cases: [Case] = BackendCases.load("schema11/value_type_cases.json")

  /// Members deckport writes from its model's own checked values, never from input JSON: a
  /// deck's kind (`dyn`) and its option group (`conf`, which must name a group the package holds).
  static let writtenFromTheModel: Set<String> = ["deck dyn", "deck conf", "filteredDeck dyn"]

  static let members: [Member] = {
    var order: [String] = []
    var grouped: [String: [Case]] = [:]
    for testCase in cases {
      let key = "\(testCase.owner) \(testCase.member)"
      if grouped[key] == nil { order.append(key) }
      grouped[key, default: []].append(testCase)
    }
    return order.filter { !writtenFromTheModel.contains($0) }.compactMap { key in
      guard let first = grouped[key]?.first else { return nil }
      return Member(owner: first.owner, path: first.member, cases: grouped[key] ?? [])
    }
  }()

  static func owner(_ name: String) -> Schema11Properties.Owner? {
    switch name {
    case "optionGroup": .optionGroup
    case "deck": .normalDeck
    case "filteredDeck": .filteredDeck
    case "noteType": .noteType
    case "field": .field
    case "template": .template
    default: nil
    }
  }

  /// Whether Anki reads the member at `path` leniently, so that whatever it holds the package
  /// imports (but for a number beyond a double): a member of an option group's `new`, `rev` or
  /// `lapse` settings, or one the table says Anki reads as its fallback (a deck's own limits).
  static func isLenient(_ path: String, of owner: Schema11Properties.Owner) -> Bool {
    if owner == .optionGroup && path.contains(".") { return true }
    let key = String(path.prefix { $0 != "[" })
    return key == path && Schema11ValueKinds.member(key, of: owner).map { $0.unread != .refusesPackage } ?? false
  }

  /// The kind deckport gives the member at `path` (`usn`, `fsrsWeights[0]`, `new.perDay`).
  static func kind(of path: String, in owner: Schema11Properties.Owner) -> Schema11ValueKinds.Kind {
    if owner == .filteredDeck, path == "terms[0][1]" { return Schema11ValueKinds.searchLimit }
    if owner == .filteredDeck, path == "terms[0][2]" { return Schema11ValueKinds.searchOrder }
    let key = String(path.prefix { $0 != "[" })
    guard let member = Schema11ValueKinds.member(key, of: owner) else { return .anything }
    if key == path { return member.kind }
    if case .list(let element, _) = member.kind { return element }
    Issue.record("\(path): an element of a member whose kind is not a list")
    return .anything
  }

  @Test(arguments: members)
  func sameAsBackend(_ member: Member) throws {
    let owner = try #require(Self.owner(member.owner))
    let kind = Self.kind(of: member.path, in: owner)
    let lenient = Self.isLenient(member.path, of: owner)
    for testCase in member.cases {
      let value = try JSONParser.parse(Array(testCase.value.utf8), options: .anki)
      let read = lenient ? Schema11ValueKinds.withinDoubles(value) : Schema11ValueKinds.reads(value, as: kind)
      #expect(
        read == testCase.read,
        "\(member.path) = \(testCase.value): the backend \(testCase.read ? "read" : "refused") it")
    }
  }

  /// A member of an option group's `new`, `rev` or `lapse` settings that does not fit its kind:
  /// Anki resets the object's other settings when the table says so, and otherwise reads the
  /// member as the table's fallback.
  @Test(arguments: members.filter { $0.owner == "optionGroup" && $0.path.contains(".") && !$0.path.hasSuffix("extra") })
  func optionGroupSettingsSameAsBackend(_ member: Member) throws {
    let key = String(member.path.prefix { $0 != "[" })
    let listed = try #require(Schema11ValueKinds.member(key, of: .optionGroup), "\(key) is not in the table")
    let kind = Self.kind(of: member.path, in: .optionGroup)
    for testCase in member.cases where testCase.read {
      let value = try JSONParser.parse(Array(testCase.value.utf8), options: .anki)
      let reads = Schema11ValueKinds.reads(value, as: kind)
      let othersKept = try #require(testCase.othersKept as Bool?)
      switch listed.unread {
      case .resetsSettings:
        #expect(
          reads == othersKept,
          "\(member.path) = \(testCase.value): the backend \(othersKept ? "kept" : "reset") the rest")
      case .readAsFallback:
        #expect(othersKept, "\(member.path) = \(testCase.value)")
        if !reads {
          let held = try JSONParser.parse(Array(try #require(testCase.held).utf8))
          #expect(
            held.isEquivalent(to: listed.fallback),
            "\(member.path) = \(testCase.value): the backend held \(testCase.held ?? "")")
        }
      case .refusesPackage:
        Issue.record("\(key): a setting listed as refusing the package")
      }
    }
  }

  /// What the writer puts in place of a value is one the table reads (and so the backend, by the
  /// two tests above), and a value the table reads is written as it is.
  @Test(arguments: members)
  func fittedValuesAreRead(_ member: Member) throws {
    let owner = try #require(Self.owner(member.owner))
    let kind = Self.kind(of: member.path, in: owner)
    let isElement = member.path.contains("[") && !member.path.hasPrefix("terms")
    // A search's limit and order are the model's numbers; the writer only clamps them. An
    // element's fallback is its whole list's, which `fittedNumbers` checks.
    let fallback: JSONValue =
      member.path.hasPrefix("terms") || isElement
      ? .integer(0) : Schema11ValueKinds.member(member.path, of: owner)?.fallback ?? .null
    let fitting = Schema11ValueKinds.Member(kind: kind, fallback: fallback)
    for testCase in member.cases {
      let value = try JSONParser.parse(Array(testCase.value.utf8), options: .anki)
      let fitted = Schema11ValueKinds.fitted(value, as: fitting)
      if Schema11ValueKinds.reads(value, as: kind) {
        #expect(fitted == value, "\(member.path) = \(testCase.value) was changed")
      } else {
        #expect(
          Schema11ValueKinds.reads(fitted, as: kind) || (isElement && fitted == fallback),
          "\(member.path) = \(testCase.value) is written as \(JSONWriter.text(of: fitted))")
      }
    }
  }

  @Test func fittedNumbers() throws {
    let uint16 = Schema11ValueKinds.Member(kind: .integer(Schema11ValueKinds.uint16), fallback: .integer(20))
    #expect(Schema11ValueKinds.fitted(.integer(-5), as: uint16) == .integer(0))
    #expect(Schema11ValueKinds.fitted(.double(2.6), as: uint16) == .integer(3))
    #expect(Schema11ValueKinds.fitted(.number("1e400"), as: uint16) == .integer(65535))
    #expect(Schema11ValueKinds.fitted(.number("-18446744073709551616"), as: uint16) == .integer(0))
    #expect(Schema11ValueKinds.fitted(.string("x"), as: uint16) == .integer(20))
    let answer = Schema11ValueKinds.Member(kind: .code(0...4), fallback: .integer(0))
    #expect(Schema11ValueKinds.fitted(.integer(7), as: answer) == .integer(0))
    #expect(Schema11ValueKinds.fitted(.integer(3), as: answer) == .integer(3))
    let intervals = try #require(Schema11ValueKinds.member("new.ints", of: .optionGroup))
    #expect(Schema11ValueKinds.fitted(.array([.integer(3)]), as: intervals) == intervals.fallback)
    #expect(
      Schema11ValueKinds.fitted(.array([.integer(3), .integer(70_000)]), as: intervals)
        == .array([.integer(3), .integer(65535)]))
    let weights = Schema11ValueKinds.Member(kind: .list(.float32), fallback: .array([]))
    #expect(
      Schema11ValueKinds.fitted(.array([.double(0.5), .double(1e300)]), as: weights)
        == .array([.double(0.5), .double(Double(Float.greatestFiniteMagnitude))]))
    #expect(Schema11ValueKinds.fitted(.array([.string("x")]), as: weights) == .array([]))
    let anything = Schema11ValueKinds.Member(kind: .anything, fallback: .null)
    #expect(
      Schema11ValueKinds.fitted(.array([.number("-1e400"), .string("a")]), as: anything)
        == .array([.double(-Double.greatestFiniteMagnitude), .string("a")]))
  }

  @Test func fixtureIsComplete() {
    #expect(Self.cases.count >= 3000)
    #expect(Set(Self.cases.map(\.owner)) == ["optionGroup", "deck", "filteredDeck", "noteType", "field", "template"])
    // Both answers are there, and the refusal that started this: an answer action of -1.
    #expect(Self.cases.contains { $0.member == "answerAction" && $0.value == "-1" && !$0.read })
    #expect(Self.cases.contains { $0.member == "answerAction" && $0.value == "4" && $0.read })
    #expect(Self.members.count == Set(Self.cases.map { "\($0.owner) \($0.member)" }).count - 3)
  }

  /// Anki's own bounds (measured by `test_a_setting_outside_ankis_bounds_is_written_as_the_nearest_it_keeps`):
  /// a value inside is kept, one outside is brought to the nearest bound, as a whole number for an
  /// integer setting and compared as the 32-bit float Anki holds.
  @Test func boundedSettings() throws {
    func bounded(_ path: String, _ value: JSONValue) throws -> (written: JSONValue, ankiReads: String)? {
      let member = try #require(Schema11ValueKinds.member(path, of: .optionGroup))
      return Schema11ValueKinds.bounded(value, as: member)
    }
    #expect(try bounded("new.perDay", .integer(9999)) == nil)
    #expect(try bounded("new.perDay", .integer(99999))?.written == .integer(9999))
    #expect(try bounded("new.perDay", .integer(99999))?.ankiReads == "20")
    #expect(try bounded("rev.maxIvl", .integer(0))?.written == .integer(1))
    #expect(try bounded("desiredRetention", .double(0.99)) == nil, "0.99 as a 32-bit float is the bound")
    #expect(try bounded("desiredRetention", .number("0.991"))?.written == .double(0.99))
    #expect(try bounded("desiredRetention", .double(0)) == nil, "a retention never set: Anki reads 0 as 0.9")
    #expect(try bounded("sm2Retention", .integer(0)) == nil)
    #expect(try bounded("sm2Retention", .double(0.01))?.written == .double(0.7))
    #expect(try bounded("rev.hardFactor", .double(Double(Float(1.3)))) == nil, "Anki's float of 1.3")
    #expect(try bounded("rev.hardFactor", .double(Double(Float(1.3).nextUp)))?.written == .double(1.3))
    let ints = try bounded("new.ints", .array([.integer(0), .integer(36501), .integer(7)]))
    #expect(ints?.written == .array([.integer(1), .integer(36500), .integer(7)]), "the third is not bounded")
    #expect(ints?.ankiReads == "value 1 as 1, value 2 as 4")
    #expect(try bounded("new.ints", .array([.integer(5), .integer(1), .integer(7)])) == nil)
    #expect(Schema11ValueKinds.member("timer", of: .optionGroup) == nil, "read whatever it holds; not bounded")
    #expect(try bounded("maxTaken", .integer(10000))?.written == .integer(9999))
  }

  /// A deck's own limits (measured by `test_a_deck_limit_anki_cannot_read_is_written_as_what_it_reads`):
  /// a value Anki does not read is written as what Anki reads in its place, not as the nearest
  /// number, and a day's study count that is not a list (which Anki refuses) as a fresh deck's.
  @Test func deckMembers() throws {
    func fitted(_ key: String, _ text: String, of owner: Schema11Properties.Owner = .normalDeck) throws -> String {
      let member = try #require(Schema11ValueKinds.member(key, of: owner), "\(key) is not in the table")
      return JSONWriter.text(
        of: Schema11ValueKinds.fitted(try JSONParser.parse(Array(text.utf8), options: .anki), as: member))
    }
    #expect(try fitted("newLimit", "-1") == "null", "no limit of the deck's own, not 0")
    #expect(try fitted("newLimit", "4294967295") == "4294967295")
    #expect(try fitted("reviewLimit", "4294967296") == "null", "not the largest Anki reads")
    #expect(try fitted("desiredRetention", "0.9") == "null", "not 1 (percent)")
    #expect(try fitted("desiredRetention", "90") == "90")
    #expect(try fitted("extendNew", "-5") == "0")
    #expect(try fitted("extendRev", "2147483648") == "0")
    #expect(try fitted("newLimitToday", #"{"limit":5,"today":3,"other":1}"#) == #"{"limit":5,"today":3,"other":1}"#)
    #expect(try fitted("newLimitToday", "[5,3]") == "[5,3]")
    #expect(try fitted("reviewLimitToday", #"{"limit":5}"#) == "null")
    #expect(try fitted("reviewLimitToday", #"{"limit":-1,"today":3}"#) == "null")
    #expect(try fitted("newToday", "5") == "[0,0]")
    #expect(try fitted("timeToday", "[1.5,2]", of: .filteredDeck) == "[1.5,2]", "elements are read leniently")
    #expect(Schema11ValueKinds.member("newLimit", of: .filteredDeck) == nil, "a filtered deck has no limits")
  }
}
