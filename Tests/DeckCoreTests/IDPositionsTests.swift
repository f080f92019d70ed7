import Testing

@testable import DeckCore

/// Where ids stand in a list, as the first index of each would say.
@Suite("Positions of ids in a list")
struct IDPositionsTests {
  static func expectFirstIndex(_ ids: [Int64], probes: [Int64], _ comment: Comment) {
    let positions = IDPositions(ids)
    for probe in Set(ids + probes) {
      #expect(positions.position(of: probe) == ids.firstIndex(of: probe), "\(comment): id \(probe)")
    }
  }

  @Test("ascending ids (Anki's timestamps) are found where they stand, absent ones are not")
  func ascending() {
    let ids = (0..<2_000).map { 1_795_000_000_000 + Int64($0) * 7 }
    Self.expectFirstIndex(ids, probes: [0, -1, .min, .max, 1_795_000_000_001, ids[0] - 7, ids[1_999] + 7], "ascending")
  }

  @Test("ids out of order, repeated, negative or at the ends of Int64 give their first position")
  func unordered() {
    Self.expectFirstIndex([5, 3, 9, 3, .min, .max, -4, 5, 0], probes: [1, 2, 4, -5], "unordered")
    Self.expectFirstIndex([7, 7, 8], probes: [6, 9], "repeated at the start (not strictly ascending)")
    Self.expectFirstIndex([], probes: [0, 1], "empty")
    Self.expectFirstIndex([42], probes: [41, 43], "one id")
  }
}

extension IDPositionsTests {
  @Test("a lookup from a finger finds the same position wherever the finger was, and moves it there")
  func finger() {
    let ids = (0..<500).map { Int64($0) * 3 }
    let positions = IDPositions(ids)
    for start in [-3, 0, 17, 250, 499, 500, 10_000] {
      for probe in [Int64(0), 3, 51, 750, 1_497, 1, -3, 1_500] {
        var finger = start
        let found = positions.position(of: probe, finger: &finger)
        #expect(found == ids.firstIndex(of: probe), "id \(probe) from \(start)")
        #expect(finger == (found ?? start), "finger after id \(probe) from \(start)")
      }
    }
  }
}
