/// A set of 64-bit ids, for the checks a reader makes for every row it maps (is this id taken
/// already, does the one it refers to exist), several times as fast as `Set<Int64>` on a large
/// deck, where a lookup in a table of megabytes mostly waits for memory.
///
/// Ids that come in ascending order (Anki's are timestamps, and decks list their notes and cards
/// by id) are kept as a sorted array: each is appended, and a lookup starts where the last one
/// ended, as cards refer to their notes in order. The first id out of order moves them all into
/// a hash table: open addressing (linear probing, at most three quarters full, as `Set` is), the
/// slot coming from the id mixed with a seed that is random for each set (MurmurHash3's 64-bit
/// finaliser), so that no file can choose its ids to make them collide.
package struct IDSet: Sendable {
  /// The ids in ascending order, while every id added was larger than those before it.
  private var ascending: [Int64] = []
  private var isAscending = true
  /// Where the last lookup in `ascending` ended.
  private var finger = 0
  /// The hash table, once an id came out of order (see ``HashedIDs``).
  private var hashed = HashedIDs(minimumCapacity: 0)
  /// How many ids the set holds.
  package var count: Int { isAscending ? ascending.count : hashed.count }

  /// An empty set with room for `minimumCapacity` ids before it grows.
  package init(minimumCapacity: Int = 0) {
    ascending.reserveCapacity(minimumCapacity)
  }

  /// A set of `ids`. An array, not any sequence: a generic initialiser called from another
  /// module is not specialised, and went through a lazily mapped sequence one witness call and
  /// one copy of the mapped value (a note, a card) at a time, half of what the Anki writer's
  /// checks took on a large deck.
  package init(_ ids: [Int64]) {
    self.init(minimumCapacity: ids.count)
    for id in ids { insert(id) }
  }

  /// Whether the set holds `id` (mutating: a lookup in ascending ids moves where the next starts).
  package mutating func contains(_ id: Int64) -> Bool {
    guard isAscending else { return hashed.contains(id) }
    if let found = place(of: id) {
      finger = found
      return true
    }
    return false
  }

  /// Adds `id`; true when the set did not hold it already.
  @discardableResult
  package mutating func insert(_ id: Int64) -> Bool {
    guard isAscending else { return hashed.insert(id) }
    if ascending.last.map({ $0 < id }) ?? true {
      ascending.append(id)
      return true
    }
    if place(of: id) != nil { return false }
    // Out of order: from here on, a hash table.
    hashed = HashedIDs(minimumCapacity: max(ascending.capacity, ascending.count + 1))
    for held in ascending { _ = hashed.insert(held) }
    ascending = []
    isAscending = false
    return hashed.insert(id)
  }

  /// Makes room for `capacity` ids in all before the set grows again, keeping those it holds.
  package mutating func reserveCapacity(_ capacity: Int) {
    if isAscending { ascending.reserveCapacity(capacity) } else { hashed.reserveCapacity(capacity) }
  }

  /// Where `id` is in `ascending`.
  private func place(of id: Int64) -> Int? { ascending.positionInAscending(of: id, near: finger) }
}

extension [Int64] {
  /// The position of `id` in this array of ascending ids: looked for at `finger` (where the last
  /// lookup ended) and the next place, then by halving.
  package func positionInAscending(of id: Int64, near finger: Int) -> Int? {
    withUnsafeBufferPointer { ids in
      if finger >= 0 && finger < ids.count && ids[finger] == id { return finger }
      if finger >= 0 && finger + 1 < ids.count && ids[finger + 1] == id { return finger + 1 }
      var low = 0
      var high = ids.count
      while low < high {
        let middle = low + (high - low) / 2
        if ids[middle] < id { low = middle + 1 } else { high = middle }
      }
      return low < ids.count && ids[low] == id ? low : nil
    }
  }
}

/// The hash table of an ``IDSet`` whose ids came out of order (see there).
private struct HashedIDs: Sendable {
  /// The value marking a free slot; the id itself is kept apart (``holdsMarker``).
  private static let free = Int64.min
  private var slots: [Int64]
  private var holdsMarker = false
  /// How far the mixed id is shifted right to give a slot (64 less the slots' power of two).
  private var shift: UInt64
  private let seed = UInt64.random(in: .min ... .max)
  private(set) var count = 0

  init(minimumCapacity: Int) {
    let slotCount = Self.slotCount(for: minimumCapacity)
    slots = minimumCapacity == 0 ? [] : Array(repeating: Self.free, count: slotCount)
    shift = UInt64(64 - slotCount.trailingZeroBitCount)
  }

  func contains(_ id: Int64) -> Bool {
    if id == Self.free { return holdsMarker }
    guard !slots.isEmpty else { return false }
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Self.slot(of: id, seed: seed, shift: shift)
      while true {
        let found = slots[slot]
        if found == id { return true }
        if found == Self.free { return false }
        slot = (slot &+ 1) & mask
      }
    }
  }

  mutating func insert(_ id: Int64) -> Bool {
    if id == Self.free {
      defer { holdsMarker = true }
      if !holdsMarker { count += 1 }
      return !holdsMarker
    }
    if slots.isEmpty || (count + 1) * 4 > slots.count * 3 { rehash(into: max(16, slots.count * 2)) }
    let (shift, seed) = (shift, seed)
    let inserted = slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Self.slot(of: id, seed: seed, shift: shift)
      while true {
        let found = slots[slot]
        if found == id { return false }
        if found == Self.free {
          slots[slot] = id
          return true
        }
        slot = (slot &+ 1) & mask
      }
    }
    if inserted { count += 1 }
    return inserted
  }

  mutating func reserveCapacity(_ capacity: Int) {
    let slotCount = Self.slotCount(for: capacity)
    if slotCount > slots.count { rehash(into: slotCount) }
  }

  /// `slotCount` slots (a power of two), every id placed again.
  private mutating func rehash(into slotCount: Int) {
    let old = slots
    slots = Array(repeating: Self.free, count: slotCount)
    shift = UInt64(64 - slotCount.trailingZeroBitCount)
    let holdsMarker = holdsMarker
    count = 0
    for id in old where id != Self.free { _ = insert(id) }
    if holdsMarker { count += 1 }
  }

  /// The first slot to try for `id`: the top bits of the id mixed with `seed`.
  private static func slot(of id: Int64, seed: UInt64, shift: UInt64) -> Int {
    var mixed = UInt64(bitPattern: id) ^ seed
    mixed ^= mixed >> 33
    mixed &*= 0xFF51_AFD7_ED55_8CCD
    mixed ^= mixed >> 33
    mixed &*= 0xC4CE_B9FE_1A85_EC53
    mixed ^= mixed >> 33
    return Int(truncatingIfNeeded: mixed >> shift)
  }

  /// The power of two of at least 16 slots that keeps `capacity` ids at most three quarters full.
  private static func slotCount(for capacity: Int) -> Int {
    var count = 16
    while count / 4 * 3 < capacity && count < 1 << 40 { count *= 2 }
    return count
  }
}
