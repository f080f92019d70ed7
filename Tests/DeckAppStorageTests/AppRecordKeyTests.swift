import DeckTestSupport
import Testing

@testable import DeckAppStorage

/// A record finds its keys the same way whether it is short (searched in order) or long enough to
/// keep an index: checked against a plain list searched scalar by scalar, through a long random
/// run of reads, replacements, removals and appends.
@Suite("App records: keys found the same in short and long records")
struct AppRecordKeyTests {
  /// The reference: pairs searched in order, keys compared as arrays of scalars.
  private struct PlainRecord {
    var pairs: [(key: String, value: AppValue)] = []

    func position(of key: String) -> Int? {
      pairs.firstIndex { Array($0.key.unicodeScalars) == Array(key.unicodeScalars) }
    }

    mutating func set(_ key: String, _ value: AppValue?) {
      switch (position(of: key), value) {
      case (let index?, let value?): pairs[index].value = value
      case (let index?, nil): pairs.remove(at: index)
      case (nil, let value?): pairs.append((key, value))
      case (nil, nil): break
      }
    }
  }

  /// Keys that Swift's `==` would confuse: `é` precomposed and decomposed, `Å` as a letter and
  /// as the Ångström sign.
  private static let lookalikes = ["caf\u{E9}", "cafe\u{301}", "\u{C5}", "\u{212B}", "A\u{30A}"]

  private static func key(_ number: Int, _ generator: inout SplitMix64) -> String {
    if number % 7 == 0 { return lookalikes[Int(generator.next() % UInt64(lookalikes.count))] }
    return "k\(number)"
  }

  @Test("a random run of edits agrees with a plain list", arguments: [3, 15, 16, 40, 400])
  func randomEdits(keyRange: Int) {
    var generator = SplitMix64(seed: UInt64(keyRange))  // fixed, so that a failure repeats
    var record = AppRecord()
    var plain = PlainRecord()
    for step in 0..<4_000 {
      let key = Self.key(Int(generator.next() % UInt64(keyRange * 2)), &generator)
      switch generator.next() % 10 {
      case 0:
        record[key] = nil
        plain.set(key, nil)
      case 1:
        // Appended even when present: the first stays the one found.
        record.append(.init(key: key, value: .integer(Int64(step))))
        plain.pairs.append((key, .integer(Int64(step))))
      case 2:
        if !plain.pairs.isEmpty {
          let index = Int(generator.next() % UInt64(plain.pairs.count))
          record.fields.remove(at: index)
          plain.pairs.remove(at: index)
        }
      default:
        record[key] = .integer(Int64(step))
        plain.set(key, .integer(Int64(step)))
      }
      let probe = Self.key(Int(generator.next() % UInt64(keyRange * 2)), &generator)
      #expect(record.index(of: probe) == plain.position(of: probe), "step \(step), key \(probe)")
      #expect(record[probe] == plain.position(of: probe).map { plain.pairs[$0].value }, "step \(step)")
    }
    #expect(record.keys == plain.pairs.map(\.key))
    #expect(record.fields.map(\.value) == plain.pairs.map(\.value))
  }

  @Test("a long record tells precomposed and decomposed keys apart")
  func lookalikeKeysInALongRecord() {
    var pairs = (0..<30).map { ("k\($0)", AppValue.integer(Int64($0))) }
    pairs.append(("caf\u{E9}", .string("precomposed")))
    pairs.append(("cafe\u{301}", .string("decomposed")))
    let record = AppRecord(pairs)
    #expect(record["caf\u{E9}"] == .string("precomposed"))
    #expect(record["cafe\u{301}"] == .string("decomposed"))
    #expect(record.index(of: "cafe\u{301}") == 31)
    #expect(record["caf"] == nil)
  }

  @Test("equality and hashing see the fields only, however the record was built")
  func equalityIgnoresHowItWasBuilt() {
    let pairs = (0..<20).map { ("k\($0)", AppValue.integer(Int64($0))) }
    var built = AppRecord()
    for (key, value) in pairs { built[key] = value }
    let whole = AppRecord(pairs)
    #expect(built == whole)
    #expect(Set([built, whole]).count == 1)
    var shortened = whole
    shortened.fields.removeLast(10)
    #expect(shortened == AppRecord(Array(pairs.prefix(10))))
  }

  @Test("a shape of many keys finds each, lookalikes apart, and infers them apart")
  func longShape() {
    var fields = (0..<40).map { AppRecordShape.Field(key: "k\($0)", type: .integer) }
    fields.append(.init(key: "caf\u{E9}", type: .string))
    fields.append(.init(key: "cafe\u{301}", type: .date))
    let shape = AppRecordShape(fields: fields)
    #expect(shape.index(of: "k39") == 39)
    #expect(shape.field("cafe\u{301}")?.type == .date)
    #expect(shape.field("caf\u{E9}")?.type == .string)
    #expect(shape.field("k40") == nil)

    let records = [
      AppRecord([("front", .string("a")), ("caf\u{E9}", .string("one"))]),
      AppRecord([("front", .string("b")), ("cafe\u{301}", .integer(2))]),
    ]
    let inferred = AppRecordShape.inferred(from: records)
    #expect(
      inferred.keys.map { Array($0.unicodeScalars) }
        == ["front", "caf\u{E9}", "cafe\u{301}"].map { Array($0.unicodeScalars) })
    #expect(inferred.fields.map(\.type) == [.string, .string, .integer])
  }

  @Test("shapes whose keys differ only in Unicode composition are not equal")
  func shapesCompareKeysExactly() {
    let composed = AppRecordShape(fields: [.init(key: "caf\u{E9}", type: .string)])
    let decomposed = AppRecordShape(fields: [.init(key: "cafe\u{301}", type: .string)])
    #expect(composed != decomposed)
    #expect(Set([composed, decomposed]).count == 2)
    #expect(composed == AppRecordShape(fields: [.init(key: "caf\u{E9}", type: .string)]))
  }
}
