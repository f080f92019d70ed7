import Testing

@testable import DeckCore

/// The readers' id set must answer as `Set<Int64>` does, for any ids, whatever their order.
@Suite("The readers' set of ids")
struct IDSetTests {
  /// Inserts `values` in order into an `IDSet` and a `Set<Int64>`, expecting the same answers,
  /// then looks up each value and as many random ones.
  static func expectSameAsSet(_ values: [Int64], reserved: Int, _ comment: Comment) {
    var generator = SystemRandomNumberGenerator()
    var ids = IDSet(minimumCapacity: reserved)
    var reference = Set<Int64>()
    var disagreements = 0
    for value in values {
      if ids.insert(value) != reference.insert(value).inserted { disagreements += 1 }
      if ids.count != reference.count { disagreements += 1 }
    }
    ids.reserveCapacity(ids.count * 3)
    #expect(ids.count == reference.count, comment)
    for value in values where !ids.contains(value) { disagreements += 1 }
    for _ in 0..<3_000 {
      let probe = Int64.random(in: .min ... .max, using: &generator)
      if ids.contains(probe) != reference.contains(probe) { disagreements += 1 }
      let near = (values.randomElement(using: &generator) ?? 0) &+ Int64.random(in: -2...2, using: &generator)
      if ids.contains(near) != reference.contains(near) { disagreements += 1 }
    }
    var built = IDSet(values)
    #expect(built.count == reference.count, comment)
    for value in values where !built.contains(value) { disagreements += 1 }
    #expect(disagreements == 0, comment)
  }

  /// Timestamps in order (as Anki's ids are), with repeats.
  static let ascending: [Int64] = {
    var ids: [Int64] = []
    for step in Int64(0)..<5_000 {
      let id: Int64 = 1_795_000_000_000 + step * 3
      ids += [id, id]
    }
    return ids
  }()

  @Test("ids in ascending order, with repeats: the same as Set<Int64>", arguments: [0, 5_000])
  func ascendingIDs(reserved: Int) {
    Self.expectSameAsSet(Self.ascending, reserved: reserved, "ascending")
    Self.expectSameAsSet([.min, -1, 0, 1, .max], reserved: reserved, "the extremes in order")
  }

  @Test("ids out of order, from the first or after many in order: the same as Set<Int64>", arguments: [0, 5_000])
  func unorderedIDs(reserved: Int) {
    var generator = SystemRandomNumberGenerator()
    var values: [Int64] = (0..<3_000).map { _ in Int64.random(in: .min ... .max, using: &generator) }
    values += [0, -1, 1, .max, .min, .min + 1] + (0..<64).map { Int64(bitPattern: UInt64(1) << UInt64($0)) }
    values += values.prefix(500)
    Self.expectSameAsSet(values.shuffled(using: &generator), reserved: reserved, "random")
    Self.expectSameAsSet(
      Self.ascending + [5, 1_795_000_000_003, .min] + values, reserved: reserved, "ordered, then not")
  }

  @Test("the free-slot marker is an id like any other, in order or not")
  func marker() {
    for ordered in [true, false] {
      var ids = IDSet()
      if !ordered {
        ids.insert(5)
        ids.insert(3)
      }
      let before = ids.contains(.min)
      let first = ids.insert(.min)
      let second = ids.insert(.min)
      #expect(!before && first && !second)
      for value in Int64(100)..<200 { ids.insert(ordered ? value : 300 - value) }
      let after = ids.contains(.min)
      #expect(after && ids.count == (ordered ? 101 : 103))
    }
  }
}
