import Testing

@testable import DeckCore

/// The readers' id set must answer as `Set<Int64>` does, for any ids, whatever their order.
@Suite("The readers' set of ids")
struct IDSetTests {
  @Test(
    "inserts and lookups agree with Set<Int64>, growing from empty and from a reserved size", arguments: [0, 5_000])
  func sameAsSet(reserved: Int) {
    var generator = SystemRandomNumberGenerator()
    var ids = IDSet(minimumCapacity: reserved)
    var reference = Set<Int64>()
    // Timestamps in order (as Anki's ids are), random values, the extremes, the free-slot marker,
    // and ids that differ only in their high bits.
    var values: [Int64] = (0..<3_000).map { 1_795_000_000_000 + Int64($0) }
    values += (0..<3_000).map { _ in Int64.random(in: .min ... .max, using: &generator) }
    values += [0, -1, 1, .max, .min, .min + 1] + (0..<64).map { Int64(bitPattern: UInt64(1) << UInt64($0)) }
    values += values.prefix(500)  // repeated
    for value in values.shuffled(using: &generator) {
      let inserted = ids.insert(value)
      #expect(inserted == reference.insert(value).inserted, "insert \(value)")
      #expect(ids.count == reference.count)
    }
    ids.reserveCapacity(ids.count * 3)
    #expect(ids.count == reference.count)
    for value in values { #expect(ids.contains(value)) }
    for _ in 0..<3_000 {
      let probe = Int64.random(in: .min ... .max, using: &generator)
      #expect(ids.contains(probe) == reference.contains(probe), "\(probe)")
    }
  }

  @Test("the free-slot marker is an id like any other")
  func marker() {
    var ids = IDSet()
    #expect(!ids.contains(.min))
    let first = ids.insert(.min)
    let second = ids.insert(.min)
    #expect(first && !second)
    #expect(ids.contains(.min) && ids.count == 1)
    for value in Int64(0)..<100 { ids.insert(value) }
    #expect(ids.contains(.min) && ids.count == 101)
  }
}
