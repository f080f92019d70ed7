/// A set of 64-bit ids, for the checks a reader makes for every row it maps (is this id taken
/// already, does the one it refers to exist), several times as fast as `Set<Int64>` on a large
/// deck: the ids sit in one array with open addressing (linear probing, at most three quarters full, as `Set` is), and
/// the slot comes from the id mixed with a seed that is random for each set (MurmurHash3's
/// 64-bit finaliser), not from the standard library's SipHash. The seed keeps the slots of any
/// set of ids unpredictable, so no file can choose its ids to make them collide.
package struct IDSet: Sendable {
  /// The value marking a free slot; the id itself is kept apart (``holdsMarker``).
  private static let free = Int64.min
  private var slots: [Int64]
  private var holdsMarker = false
  /// How far the mixed id is shifted right to give a slot (64 less the slots' power of two).
  private var shift: UInt64
  private let seed = UInt64.random(in: .min ... .max)
  /// How many ids the set holds.
  package private(set) var count = 0

  /// An empty set with room for `minimumCapacity` ids before it grows.
  package init(minimumCapacity: Int = 0) {
    let slotCount = Self.slotCount(for: minimumCapacity)
    slots = Array(repeating: Self.free, count: slotCount)
    shift = UInt64(64 - slotCount.trailingZeroBitCount)
  }

  /// Whether the set holds `id`.
  package func contains(_ id: Int64) -> Bool {
    if id == Self.free { return holdsMarker }
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = self.slot(of: id)
      while true {
        let found = slots[slot]
        if found == id { return true }
        if found == Self.free { return false }
        slot = (slot &+ 1) & mask
      }
    }
  }

  /// Adds `id`; true when the set did not hold it already.
  @discardableResult
  package mutating func insert(_ id: Int64) -> Bool {
    if id == Self.free {
      defer { holdsMarker = true }
      if !holdsMarker { count += 1 }
      return !holdsMarker
    }
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let shift = shift
    let seed = seed
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

  /// Makes room for `capacity` ids in all before the set grows again, keeping those it holds.
  package mutating func reserveCapacity(_ capacity: Int) {
    let slotCount = Self.slotCount(for: capacity)
    if slotCount > slots.count { rehash(into: slotCount) }
  }

  /// Twice the slots.
  private mutating func grow() { rehash(into: slots.count * 2) }

  /// `slotCount` slots (a power of two), every id placed again.
  private mutating func rehash(into slotCount: Int) {
    let old = slots
    slots = Array(repeating: Self.free, count: slotCount)
    shift = UInt64(64 - slotCount.trailingZeroBitCount)
    let holdsMarker = holdsMarker
    count = 0
    for id in old where id != Self.free { insert(id) }
    if holdsMarker { count += 1 }
  }

  private func slot(of id: Int64) -> Int { Self.slot(of: id, seed: seed, shift: shift) }

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
