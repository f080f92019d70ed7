import JSONCore

/// What Anki's importer reads in each member of a schema-11 deck, note type, field, template or
/// option group, and the nearest value it reads to one it would refuse.
///
/// Anki decodes these objects into narrow Rust types (a `u16` font size, an `i32` sync number, a
/// `u8` answer action, `f32` settings); a member outside its type makes the import of the whole
/// package fail (`decoding deck config: invalid value: integer 2147483648, expected i32`), and
/// a number beyond a double's range (`1e400`) anywhere in the JSON text fails its parse. The
/// kinds were measured with the real backend: `fixtures/schema11/make_value_type_cases.py`
/// records, for 103 members and 35 values from every integer width's edges to strings
/// and objects, whether Anki 26.9.3 reads the package (`value_type_cases.json`, which
/// `Schema11ValueKindTests` checks this table against).
///
/// An option group's `new`, `rev` and `lapse` settings are read leniently, each as a whole: one
/// member of its own type that does not fit (a `maxIvl` of -1) makes Anki reset every setting of
/// that object to its default, silently, and one it reads leniently (`perDay`, `order`) is read
/// as a default of its own. The same record has the backend open each such collection and says
/// which (`othersKept`, `held`).
///
/// A member not listed is read whatever it holds: Anki keeps a member it does not know as it
/// is, and reads a member it decodes leniently (`lrnToday`, `timer`) as its default when the
/// value does not fit.
enum Schema11ValueKinds {
  /// What Anki reads in one member.
  enum Kind: Equatable, Sendable {
    /// A whole number in the range (a 64-bit JSON integer; `2.0` and `"2"` are refused).
    case integer(ClosedRange<Int64>)
    /// A whole number in the range, or `null`.
    case integerOrNull(ClosedRange<Int64>)
    /// A whole number in the range, or a string of one (`"7"`).
    case integerOrText(ClosedRange<Int64>)
    /// One of the numbers an enumeration of Anki's defines.
    case code(ClosedRange<Int64>)
    /// Any number a 32-bit float holds (up to about 3.4·10³⁸ either way).
    case float32
    /// `true` or `false`.
    case boolean
    /// `true`, `false`, `0` or `1` (or `-0`, `1.0`: a number that is 0 or 1).
    case booleanOrBit
    /// An array of at least `atLeast` values of the kind.
    indirect case list(Kind, atLeast: Int = 0)
    /// A deck's limit for one day (`newLimitToday`): `null`, or an object whose `limit` and
    /// `today` are whole numbers in the range (other members are ignored), or a list of just
    /// those two.
    case dayLimitOrNull(ClosedRange<Int64>)
    /// Anything but a number beyond a double's range.
    case anything

    /// What the kind is, for messages: "a 32-bit integer".
    var description: String {
      switch self {
      case .integer(let range), .integerOrText(let range): Self.describe(range)
      case .integerOrNull(let range): "\(Self.describe(range)) or null"
      case .code(let range): "one of \(range.map(String.init).joined(separator: ", "))"
      case .float32: "a number a 32-bit float holds"
      case .boolean: "true or false"
      case .booleanOrBit: "true, false, 0 or 1"
      case .list(let element, let count) where count > 0: "a list of \(count) or more \(element.plural)"
      case .list(let element, _): "a list of \(element.plural)"
      case .dayLimitOrNull(let range):
        "null, or an object whose 'limit' and 'today' are each \(Self.describe(range))"
      case .anything: "any value but a number beyond a double's range"
      }
    }

    private var plural: String {
      switch self {
      case .float32: "numbers a 32-bit float holds"
      case .integer(let range): "whole numbers from \(range.lowerBound) to \(range.upperBound)"
      case .anything: "values"
      default: "values of \(description)"
      }
    }

    private static func describe(_ range: ClosedRange<Int64>) -> String {
      switch (range.lowerBound, range.upperBound) {
      case (0, Int64(UInt16.max)): "a whole number from 0 to 65535"
      case (0, Int64(UInt32.max)): "a whole number from 0 to 4294967295"
      case (Int64(Int32.min), Int64(Int32.max)): "a whole number from -2147483648 to 2147483647"
      case (Int64.min, Int64.max): "a 64-bit whole number"
      default: "a whole number from \(range.lowerBound) to \(range.upperBound)"
      }
    }
  }

  /// One member's kind, the value written in place of one Anki would not read (the value a new
  /// object has, as Anki and deckport's writer make it, or the one Anki reads instead), and what
  /// Anki does with such a value.
  struct Member: Sendable {
    var kind: Kind
    var fallback: JSONValue
    var unread: Unread = .refusesPackage
    /// Anki's own bounds on the setting, within what it reads.
    var bounds: Bounds? = nil
    /// Whether a value Anki does not read is written as the nearest one it reads (a number
    /// brought into range), or else as the fallback, what Anki reads in its place: for a deck's
    /// own limits the nearest number means something else (a new-card limit of -1 is no limit
    /// of the deck's own, as Anki reads it, where 0 would stop new cards).
    var fitsNearest = true
    /// What the member's number means, when its kind does not say (a deck's desired retention
    /// is a percentage).
    var meaning: String? = nil
  }

  /// The numbers Anki keeps in a setting it reads (its deck options screen's limits): it reads
  /// one outside as its default for the setting, silently, each setting on its own (a new-card
  /// limit of 10000 becomes 20, and the group's other new-card settings stay). Measured with the
  /// real backend on a restored collection of either schema, the first and last value kept and
  /// the next outside (`Tests/anki/test_json_values_anki_refuses.py`).
  enum Bounds: Sendable {
    /// The number kept, and the one read in place of any other.
    case value(ClosedRange<Double>, ankiDefault: Double)
    /// The bounds of a list's first elements, one by one; later elements are not bounded.
    case elements([(range: ClosedRange<Double>, ankiDefault: Double)])

    /// The bounds in words: "from 0 to 9999", "each of the first two from 1 to 36500".
    var description: String {
      switch self {
      case .value(let range, _): Self.describe(range)
      case .elements(let bounds):
        bounds.enumerated().map { "value \($0.offset + 1) \(Self.describe($0.element.range))" }
          .joined(separator: ", ")
      }
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
      func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
      }
      return "from \(text(range.lowerBound)) to \(text(range.upperBound))"
    }
  }

  /// What Anki does with a value it does not read as its member.
  enum Unread: Equatable, Sendable {
    /// The import of the whole package fails.
    case refusesPackage
    /// Every setting of the option group's object (`new`) is reset to its default; the words
    /// name them ("new-card settings").
    case resetsSettings(String)
    /// The member is read as the fallback.
    case readAsFallback
  }

  static let int32 = Int64(Int32.min)...Int64(Int32.max)
  static let uint32 = Int64(0)...Int64(UInt32.max)
  static let uint16 = Int64(0)...Int64(UInt16.max)
  /// A template's browser font size (`bsize`): Anki reads one outside as 0, silently (measured:
  /// 255 kept, 256 and -1 read as 0, from a package of either schema).
  static let browserFontSize = Int64(0)...Int64(UInt8.max)

  /// The members of a deck that Anki reads strictly (both kinds of deck). A day's study count
  /// (`newToday`, `[day, count]`) that is not a list makes Anki refuse the package; its elements
  /// Anki reads leniently (measured: `[1.5, 2]` is read as `[0, 2]`), and as they count only
  /// for the day they name, they are not checked.
  private static let deckMembers: [String: Member] = {
    var members: [String: Member] = [
      "usn": Member(kind: .integer(int32), fallback: .integer(0)),
      "collapsed": Member(kind: .boolean, fallback: .bool(true)),
      "browserCollapsed": Member(kind: .boolean, fallback: .bool(true)),
      "md": Member(kind: .boolean, fallback: .bool(false)),
    ]
    for key in ["newToday", "revToday", "lrnToday", "timeToday"] {
      members[key] = Member(kind: .list(.anything), fallback: .array([.integer(0), .integer(0)]))
    }
    return members
  }()

  /// The members of a normal deck: its own limits, which Anki reads leniently, as no limit of
  /// the deck's own (`null`) or as 0 when the value does not fit (measured on restored
  /// collections of both schemas and on imported deck packages: a new-card limit of -1, 1.5,
  /// `"5"` or 4294967296 is read as `null`, an `extendNew` of -1 as 0).
  private static let normalDeckMembers: [String: Member] = {
    var members = deckMembers
    let unset = Member(kind: .integerOrNull(uint32), fallback: .null, unread: .readAsFallback, fitsNearest: false)
    members["newLimit"] = unset
    members["reviewLimit"] = unset
    var retention = unset
    retention.meaning = "a deck's desired retention is a whole percentage, 90 for 0.9"
    members["desiredRetention"] = retention
    for key in ["newLimitToday", "reviewLimitToday"] {
      members[key] = Member(
        kind: .dayLimitOrNull(uint32), fallback: .null, unread: .readAsFallback, fitsNearest: false)
    }
    for key in ["extendNew", "extendRev"] {
      members[key] = Member(
        kind: .integer(0...Int64(Int32.max)), fallback: .integer(0), unread: .readAsFallback, fitsNearest: false)
    }
    return members
  }()

  private static let filteredDeckMembers: [String: Member] = deckMembers.merging([
    "resched": Member(kind: .booleanOrBit, fallback: .bool(true)),
    "separate": Member(kind: .boolean, fallback: .bool(true)),
    "previewDelay": Member(kind: .integer(uint32), fallback: .integer(0)),
    "previewAgainSecs": Member(kind: .integer(uint32), fallback: .integer(60)),
    "previewHardSecs": Member(kind: .integer(uint32), fallback: .integer(600)),
    "previewGoodSecs": Member(kind: .integer(uint32), fallback: .integer(0)),
  ]) { first, _ in first }

  private static let noteTypeMembers: [String: Member] = [
    "usn": Member(kind: .integer(int32), fallback: .integer(0)),
    "type": Member(kind: .code(0...1), fallback: .integer(0)),
    "sortf": Member(kind: .integer(uint16), fallback: .integer(0)),
    "originalStockKind": Member(kind: .integer(int32), fallback: .integer(0)),
    "originalId": Member(kind: .integerOrNull(Int64.min...Int64.max), fallback: .null),
  ]

  private static let fieldMembers: [String: Member] = [
    "ord": Member(kind: .integerOrNull(uint16), fallback: .null),
    "sticky": Member(kind: .booleanOrBit, fallback: .bool(false)),
    "rtl": Member(kind: .booleanOrBit, fallback: .bool(false)),
    "size": Member(kind: .integer(uint16), fallback: .integer(20)),
  ]

  private static let templateMembers: [String: Member] = [
    "ord": Member(kind: .integerOrNull(uint16), fallback: .null)
  ]

  /// The top-level members of an option group (its `new`, `rev` and `lapse` settings Anki reads
  /// leniently, each as a whole).
  private static let optionGroupMembers: [String: Member] = {
    var members: [String: Member] = [:]
    members["usn"] = Member(kind: .integer(int32), fallback: .integer(0))
    members["maxTaken"] = Member(
      kind: .integer(int32), fallback: .integer(60), bounds: .value(1...9999, ankiDefault: 60))
    for key in ["newMix", "interdayLearningMix", "reviewOrder", "newSortOrder", "newGatherPriority"] {
      members[key] = Member(kind: .integer(int32), fallback: .integer(0))
    }
    members["newPerDayMinimum"] = Member(
      kind: .integer(uint32), fallback: .integer(0), bounds: .value(0...9999, ankiDefault: 0))
    members["autoplay"] = Member(kind: .boolean, fallback: .bool(true))
    members["replayq"] = Member(kind: .boolean, fallback: .bool(true))
    members["waitForAudio"] = Member(kind: .boolean, fallback: .bool(true))
    for key in ["buryInterdayLearning", "stopTimerOnAnswer"] {
      members[key] = Member(kind: .boolean, fallback: .bool(false))
    }
    for key in ["fsrsWeights", "fsrsParams5", "fsrsParams6"] {
      members[key] = Member(kind: .list(.float32), fallback: .array([]))
    }
    members["easyDaysPercentages"] = Member(
      kind: .list(.float32), fallback: .array(Array(repeating: .double(1), count: 7)))
    members["desiredRetention"] = Member(
      kind: .float32, fallback: .double(0.9), bounds: .value(0.7...0.99, ankiDefault: 0.9))
    members["sm2Retention"] = Member(
      kind: .float32, fallback: .double(0.9), bounds: .value(0.7...0.97, ankiDefault: 0.9))
    members["secondsToShowQuestion"] = Member(kind: .float32, fallback: .double(0))
    members["secondsToShowAnswer"] = Member(kind: .float32, fallback: .double(0))
    members["questionAction"] = Member(kind: .code(0...1), fallback: .integer(0))
    members["answerAction"] = Member(kind: .code(0...4), fallback: .integer(0))
    return members
  }()

  /// The members of an option group's `new`, `rev` and `lapse` settings, as `new.perDay`.
  private static let optionGroupSettingMembers: [String: Member] = {
    let newCards = Unread.resetsSettings("new-card settings")
    let reviews = Unread.resetsSettings("review settings")
    let lapses = Unread.resetsSettings("lapse settings")
    let noFloats: JSONValue = .array([])
    return [
      "new.bury": Member(kind: .boolean, fallback: .bool(false), unread: newCards),
      "new.initialFactor": Member(
        kind: .integer(uint16), fallback: .integer(2500), unread: newCards,
        bounds: .value(1310...5000, ankiDefault: 2500)),
      "new.delays": Member(kind: .list(.float32), fallback: noFloats, unread: .readAsFallback),
      "new.ints": Member(
        kind: .list(.integer(uint16), atLeast: 2), fallback: .array([.integer(1), .integer(4), .integer(0)]),
        unread: .readAsFallback,
        bounds: .elements([(1...36500, ankiDefault: 1), (1...36500, ankiDefault: 4)])),
      "new.order": Member(kind: .code(0...1), fallback: .integer(1), unread: .readAsFallback),
      "new.perDay": Member(
        kind: .integer(uint32), fallback: .integer(0), unread: .readAsFallback,
        bounds: .value(0...9999, ankiDefault: 20)),
      "rev.bury": Member(kind: .boolean, fallback: .bool(false), unread: reviews),
      "rev.ease4": Member(
        kind: .float32, fallback: .double(1.3), unread: reviews, bounds: .value(1...5, ankiDefault: 1.3)),
      "rev.ivlFct": Member(
        kind: .float32, fallback: .double(1), unread: reviews, bounds: .value(0.5...2, ankiDefault: 1)),
      "rev.maxIvl": Member(
        kind: .integer(uint32), fallback: .integer(36500), unread: reviews,
        bounds: .value(1...36500, ankiDefault: 36500)),
      "rev.hardFactor": Member(
        kind: .float32, fallback: .double(1.2), unread: reviews, bounds: .value(0.5...1.3, ankiDefault: 1.2)),
      "rev.perDay": Member(
        kind: .integer(uint32), fallback: .integer(0), unread: .readAsFallback,
        bounds: .value(0...9999, ankiDefault: 200)),
      "lapse.leechFails": Member(
        kind: .integer(uint32), fallback: .integer(8), unread: lapses, bounds: .value(1...9999, ankiDefault: 8)),
      "lapse.minInt": Member(
        kind: .integer(uint32), fallback: .integer(1), unread: lapses, bounds: .value(1...36500, ankiDefault: 1)),
      "lapse.mult": Member(
        kind: .float32, fallback: .double(0), unread: lapses, bounds: .value(0...1, ankiDefault: 0)),
      "lapse.delays": Member(kind: .list(.float32), fallback: noFloats, unread: .readAsFallback),
      "lapse.leechAction": Member(kind: .code(0...1), fallback: .integer(1), unread: .readAsFallback),
    ]
  }()

  /// The option-group objects whose members ``optionGroupSettingMembers`` lists.
  static let optionGroupSettingObjects: Set<String> = ["new", "rev", "lapse"]

  /// The kind and fallback of `key` in an object of `owner` (of an option group, a member of its
  /// settings as `new.perDay`); nil when Anki reads whatever the member holds (but a number
  /// beyond a double's range).
  static func member(_ key: String, of owner: Schema11Properties.Owner) -> Member? {
    switch owner {
    case .normalDeck: normalDeckMembers[key]
    case .filteredDeck: filteredDeckMembers[key]
    case .noteType: noteTypeMembers[key]
    case .field: fieldMembers[key]
    case .template: templateMembers[key]
    case .optionGroup: key.contains(".") ? optionGroupSettingMembers[key] : optionGroupMembers[key]
    }
  }

  /// The kind of a filtered deck's search limit (`terms[i][1]`) and order (`terms[i][2]`).
  static let searchLimit = Kind.integerOrText(int32)
  static let searchOrder = Kind.integer(int32)

  // MARK: - Reading

  /// Whether Anki reads `value` as a member of `kind`.
  static func reads(_ value: JSONValue, as kind: Kind) -> Bool {
    guard withinDoubles(value) else { return false }
    switch (kind, value) {
    case (.integer(let range), .integer(let number)), (.integerOrNull(let range), .integer(let number)),
      (.integerOrText(let range), .integer(let number)), (.code(let range), .integer(let number)):
      return range.contains(number)
    case (.integerOrNull, .null), (.dayLimitOrNull, .null): return true
    case (.dayLimitOrNull(let range), .object(let members)):
      // Of a key given twice, the last value, as Anki reads it.
      func number(_ key: String) -> Int64? {
        guard case .integer(let number)? = members.last(where: { $0.key == key })?.value else { return nil }
        return number
      }
      return [number("limit"), number("today")].allSatisfy { $0.map(range.contains) ?? false }
    case (.dayLimitOrNull(let range), .array(let elements)):
      return elements.count == 2
        && elements.allSatisfy { element in
          guard case .integer(let number) = element else { return false }
          return range.contains(number)
        }
    case (.integerOrText(let range), _):
      return value.string.flatMap { Int64($0) }.map(range.contains) ?? false
    case (.float32, _): return value.double.map { Float($0).isFinite } ?? false
    case (.boolean, .bool), (.booleanOrBit, .bool): return true
    // serde_aux's `deserialize_bool_from_anything`: a float too (`-0` is serde's float -0.0).
    case (.booleanOrBit, _): return value.double.map { $0 == 0 || $0 == 1 } ?? false
    case (.list(let element, let count), .array(let elements)):
      return elements.count >= count && elements.allSatisfy { reads($0, as: element) }
    case (.anything, _): return true
    default: return false
    }
  }

  /// Whether every number in `value` is within a double's range, as Anki's JSON parser needs.
  static func withinDoubles(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let text): Double(text)?.isFinite ?? false
    case .double(let number): number.isFinite
    case .array(let elements): elements.allSatisfy(withinDoubles)
    case .object(let members): members.allSatisfy { withinDoubles($0.value) }
    default: true
    }
  }

  // MARK: - Fitting

  /// `value` if Anki reads it as `member`, else the nearest value Anki reads: a number brought
  /// into the member's range (rounded to a whole number for an integer), every number beyond a
  /// double's range brought to the largest double, and anything else the member's fallback.
  static func fitted(_ value: JSONValue, as member: Member) -> JSONValue {
    guard !reads(value, as: member.kind) else { return value }
    guard member.fitsNearest else { return member.fallback }
    return fitted(value, as: member.kind) ?? member.fallback
  }

  /// `value` (which Anki reads as `member`) with each number outside the member's ``Bounds``
  /// brought to the nearest one inside (a whole number for an integer member), and what Anki
  /// would read in its place, in words ("20"; for a list "value 1 as 1, value 2 as 4"); nil when
  /// Anki keeps it as it is.
  ///
  /// A fractional setting (a 32-bit float: `desiredRetention`, `sm2Retention`, `rev.ease4`, …)
  /// that is 0 is left as it is: 0 is what Anki's own schema-18 option groups hold for a setting
  /// never set (a protobuf float's default; a real collection's retentions are), and Anki reads it
  /// as its default, so the group means to Anki what its source meant (the nearest bound, 0.7 for
  /// a desired retention, would change what Anki uses from its default 0.9). Whole-number
  /// settings at 0 (`new.initialFactor`, `rev.maxIvl`) are still brought to the nearest bound.
  static func bounded(_ value: JSONValue, as member: Member) -> (written: JSONValue, ankiReads: String)? {
    let whole: Bool
    switch member.kind {
    case .integer, .integerOrNull, .integerOrText, .list(.integer, _): whole = true
    default: whole = false
    }
    /// `number` inside `range`, compared as the 32-bit float Anki holds; nil when it is inside.
    func inside(_ number: Double, _ range: ClosedRange<Double>) -> JSONValue? {
      let held = Float(number)
      guard held < Float(range.lowerBound) || held > Float(range.upperBound) else { return nil }
      let nearest = held < Float(range.lowerBound) ? range.lowerBound : range.upperBound
      return whole ? .integer(Int64(nearest)) : .double(nearest)
    }
    func number(_ value: Double) -> String { JSONWriter.text(of: whole ? .integer(Int64(value)) : .double(value)) }
    switch member.bounds {
    case nil: return nil
    case .value(let range, let ankiDefault):
      guard let held = value.double, !(held == 0 && member.kind == .float32), let written = inside(held, range) else {
        return nil
      }
      return (written, number(ankiDefault))
    case .elements(let bounds):
      guard var written = value.elements else { return nil }
      var read: [String] = []
      for (index, bound) in zip(written.indices, bounds) {
        guard let held = written[index].double, let nearest = inside(held, bound.range) else { continue }
        written[index] = nearest
        read.append("value \(index + 1) as \(number(bound.ankiDefault))")
      }
      return read.isEmpty ? nil : (.array(written), read.joined(separator: ", "))
    }
  }

  /// `value` fitted to `kind`, or nil when only the fallback fits.
  private static func fitted(_ value: JSONValue, as kind: Kind) -> JSONValue? {
    if reads(value, as: kind) { return value }
    switch kind {
    case .integer(let range), .integerOrNull(let range), .integerOrText(let range):
      guard let number = value.double, !number.isNaN else { return nil }
      return .integer(clamp(number.rounded(), to: range))
    case .float32:
      guard let number = value.double, !number.isNaN else { return nil }
      return .double(
        Double(min(max(number, -Double(Float.greatestFiniteMagnitude)), Double(Float.greatestFiniteMagnitude))))
    case .list(let element, let count):
      guard let elements = value.elements, elements.count >= count else { return nil }
      var result: [JSONValue] = []
      for item in elements {
        guard let fitted = fitted(item, as: element) else { return nil }
        result.append(fitted)
      }
      return .array(result)
    case .anything: return withinDoublesFitted(value)
    case .code, .boolean, .booleanOrBit, .dayLimitOrNull: return nil
    }
  }

  /// `value` with every number beyond a double's range brought to the largest double of its sign.
  static func withinDoublesFitted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let text):
      guard let number = Double(text), !number.isFinite else { return value }
      return .double(number < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude)
    case .double(let number) where !number.isFinite:
      return number.isNaN ? .null : .double(number < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
    case .array(let elements): return .array(elements.map(withinDoublesFitted))
    case .object(let members): return .object(members.map { ($0.key, withinDoublesFitted($0.value)) })
    default: return value
    }
  }

  /// `number` (whole) inside `range`; ±infinity to the range's ends.
  static func clamp(_ number: Double, to range: ClosedRange<Int64>) -> Int64 {
    if number <= Double(range.lowerBound) { return range.lowerBound }
    // Double(Int64.max) rounds up to 2^63, which Int64 cannot hold: compare before converting.
    if number >= Double(range.upperBound) { return range.upperBound }
    return Int64(number)
  }
}
