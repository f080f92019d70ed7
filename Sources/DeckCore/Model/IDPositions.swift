/// Where each id of a list is, for finding a note by the id a card refers to without a copy of
/// the notes in a dictionary (a `[Int64: Note]` of a 1,000,000-note deck took some 180 MB).
///
/// Ids in ascending order (Anki's are timestamps, and decks list their notes by id) are kept as
/// they are and found by halving, as ``IDSet`` keeps them; otherwise a dictionary gives each id's
/// first position.
package struct IDPositions: Sendable {
  /// The ids, when they ascend: an id's position here is its position in the list.
  private let ascending: [Int64]
  /// Each id's first position, when they do not ascend.
  private let firstPositions: [Int64: Int]

  /// The positions of `ids`.
  package init(_ ids: [Int64]) {
    if zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) {
      ascending = ids
      firstPositions = [:]
    } else {
      ascending = []
      var positions: [Int64: Int] = [:]
      positions.reserveCapacity(ids.count)
      for (position, id) in ids.enumerated() where positions[id] == nil { positions[id] = position }
      firstPositions = positions
    }
  }

  /// The first position of `id` in the list, or nil when it holds no such id.
  package func position(of id: Int64) -> Int? {
    var finger = 0
    return position(of: id, finger: &finger)
  }

  /// The first position of `id`, looked for first at `finger` and the place after it, which the
  /// lookup then moves to `id`'s position: ids looked up in order (cards sorted by id refer to
  /// their notes in order) are each found in one step.
  package func position(of id: Int64, finger: inout Int) -> Int? {
    guard !ascending.isEmpty else { return firstPositions[id] }
    guard let found = ascending.positionInAscending(of: id, near: finger) else { return nil }
    finger = found
    return found
  }
}
