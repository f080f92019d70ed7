/// BLAKE3 in its default hash mode (no key, no key derivation), with a 32-byte digest: what
/// Anki's `hint` filter hashes the field text and the field name with to make the DOM id of the
/// hidden hint.
///
/// Written from the public BLAKE3 specification (O'Connor, Aumasson, Neves, Wilcox-O'Hearn,
/// 2020): the input is cut into 1024-byte chunks, each chunk into 64-byte blocks compressed one
/// after another, and the chunks' chaining values are merged pairwise into a binary tree whose
/// root gives the digest. Only the chaining values of the tree's incomplete subtrees are kept
/// (a stack, at most 54 deep), so any length is hashed in constant memory.
///
/// ```swift
/// var hasher = BLAKE3()
/// hasher.update(Array("abc".utf8))
/// let digest = hasher.finalize()   // 32 bytes: 6437b3ac38465133…
/// ```
///
/// It is a value: a copy goes on independently of the original.
package struct BLAKE3: Sendable {
  /// The length of a chunk, the tree's leaf, in bytes.
  static let chunkLength = 1024
  /// The length of a block, what one compression takes, in bytes.
  static let blockLength = 64

  /// The initial chaining value: the first 32 bits of the fractional parts of the square roots
  /// of the first eight primes (SHA-256's initial hash value).
  static let initialVector: [UInt32] = [
    0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
  ]

  /// The message word each of the seven rounds reads at each of its sixteen positions: round
  /// `r` uses the specification's permutation applied `r` times.
  static let messageSchedule: [[Int]] = {
    let permutation = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]
    var rounds: [[Int]] = [Array(0..<16)]
    for _ in 1..<7 {
      let previous = rounds[rounds.count - 1]
      rounds.append(permutation.map { previous[$0] })
    }
    return rounds
  }()

  /// The domain flags of a compression.
  struct Flags: OptionSet, Sendable {
    let rawValue: UInt32
    /// The first block of a chunk.
    static let chunkStart = Flags(rawValue: 1 << 0)
    /// The last block of a chunk.
    static let chunkEnd = Flags(rawValue: 1 << 1)
    /// A parent node: the block is two children's chaining values.
    static let parent = Flags(rawValue: 1 << 2)
    /// The root node, whose output is the digest.
    static let root = Flags(rawValue: 1 << 3)
  }

  /// The chaining values of the complete subtrees not yet merged into a parent, the oldest
  /// (largest) first.
  private var subtreeChainingValues: [[UInt32]] = []
  /// The chaining value the current chunk's next block is compressed with.
  private var chunkChainingValue = BLAKE3.initialVector
  /// How many chunks came before the current one.
  private var chunkCounter: UInt64 = 0
  /// How many blocks of the current chunk are compressed.
  private var blocksCompressed = 0
  /// The bytes of the current chunk not yet compressed: at most one block.
  private var pendingBlock: [UInt8] = []

  /// Creates a hasher with nothing hashed yet.
  package init() {
    pendingBlock.reserveCapacity(BLAKE3.blockLength)
  }

  /// The digest of `bytes` in one call.
  package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var hasher = BLAKE3()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Hashes `bytes` after everything hashed before.
  ///
  /// - Parameter bytes: The next bytes; any number, in any pieces: the digest depends only on
  ///   the whole sequence.
  package mutating func update(_ bytes: some Collection<UInt8>) {
    let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      absorb(buffer)
    }
    if handled == nil {
      Array(bytes).withUnsafeBufferPointer { absorb($0) }
    }
  }

  /// Finishes the hash: the 32-byte digest of everything hashed. The hasher is left as it was,
  /// so more bytes may follow and give the digest of the longer input.
  package func finalize() -> [UInt8] {
    var node = chunkOutput()
    for left in subtreeChainingValues.reversed() {
      node = BLAKE3.parentOutput(left: left, right: node.outputChainingValue())
    }
    let words = BLAKE3.compress(
      chainingValue: node.inputChainingValue, block: node.block, counter: node.counter,
      blockLength: node.blockLength, flags: node.flags.union(.root))
    var digest: [UInt8] = []
    digest.reserveCapacity(32)
    for word in words.prefix(8) {
      for shift in stride(from: 0, to: 32, by: 8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }
    return digest
  }

  /// Feeds contiguous bytes to the chunk in progress, closing each full chunk only when more
  /// bytes follow it (the last chunk, even a full one, is finished by ``finalize()``).
  private mutating func absorb(_ buffer: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < buffer.count {
      if blocksCompressed * BLAKE3.blockLength + pendingBlock.count == BLAKE3.chunkLength {
        let chainingValue = chunkOutput().outputChainingValue()
        chunkCounter += 1
        pushChunk(chainingValue, chunkCount: chunkCounter)
        chunkChainingValue = BLAKE3.initialVector
        blocksCompressed = 0
        pendingBlock.removeAll(keepingCapacity: true)
      }
      if pendingBlock.count == BLAKE3.blockLength {
        let flags: Flags = blocksCompressed == 0 ? .chunkStart : []
        chunkChainingValue = Array(
          BLAKE3.compress(
            chainingValue: chunkChainingValue, block: BLAKE3.words(of: pendingBlock), counter: chunkCounter,
            blockLength: UInt32(BLAKE3.blockLength), flags: flags
          ).prefix(8))
        blocksCompressed += 1
        pendingBlock.removeAll(keepingCapacity: true)
      }
      let take = min(BLAKE3.blockLength - pendingBlock.count, buffer.count - index)
      pendingBlock.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<index + take]))
      index += take
    }
  }

  /// Adds a finished chunk's chaining value to the tree, merging complete subtrees: after
  /// `chunkCount` chunks, as many merges as `chunkCount` has trailing zero bits.
  private mutating func pushChunk(_ chainingValue: [UInt32], chunkCount: UInt64) {
    var merged = chainingValue
    var count = chunkCount
    while count & 1 == 0, let left = subtreeChainingValues.popLast() {
      merged = BLAKE3.parentOutput(left: left, right: merged).outputChainingValue()
      count >>= 1
    }
    subtreeChainingValues.append(merged)
  }

  /// The last compression of the current chunk, not yet done: its pending block, padded with
  /// zeros, flagged as the chunk's end (and start, if it is the first).
  private func chunkOutput() -> Node {
    var flags: Flags = .chunkEnd
    if blocksCompressed == 0 { flags.insert(.chunkStart) }
    return Node(
      inputChainingValue: chunkChainingValue, block: BLAKE3.words(of: pendingBlock), counter: chunkCounter,
      blockLength: UInt32(pendingBlock.count), flags: flags)
  }

  /// A parent node: its block is its children's chaining values, its counter zero.
  private static func parentOutput(left: [UInt32], right: [UInt32]) -> Node {
    Node(
      inputChainingValue: initialVector, block: left + right, counter: 0, blockLength: UInt32(blockLength),
      flags: .parent)
  }

  /// A compression not yet done, kept so that the root can be compressed with the root flag.
  struct Node {
    /// The input chaining value.
    var inputChainingValue: [UInt32]
    /// The sixteen message words.
    var block: [UInt32]
    /// The chunk counter (zero for parents).
    var counter: UInt64
    /// How many bytes of the block are input.
    var blockLength: UInt32
    /// The domain flags, without the root flag.
    var flags: Flags

    /// The chaining value this node passes to its parent.
    func outputChainingValue() -> [UInt32] {
      Array(
        BLAKE3.compress(
          chainingValue: inputChainingValue, block: block, counter: counter, blockLength: blockLength, flags: flags
        ).prefix(8))
    }
  }

  /// Up to 64 bytes as sixteen little-endian words, zero-padded.
  static func words(of bytes: [UInt8]) -> [UInt32] {
    var words = [UInt32](repeating: 0, count: 16)
    for (index, byte) in bytes.prefix(blockLength).enumerated() {
      words[index >> 2] |= UInt32(byte) << UInt32((index & 3) * 8)
    }
    return words
  }

  /// The compression function: seven rounds of the quarter-round `G` over the columns, then
  /// the diagonals, of the 4×4 state, whose first eight output words are the new chaining value
  /// (the last eight, the extended output, are returned too).
  static func compress(
    chainingValue: [UInt32], block: [UInt32], counter: UInt64, blockLength: UInt32, flags: Flags
  ) -> [UInt32] {
    var state: [UInt32] =
      chainingValue + [
        initialVector[0], initialVector[1], initialVector[2], initialVector[3],
        UInt32(truncatingIfNeeded: counter), UInt32(truncatingIfNeeded: counter >> 32), blockLength, flags.rawValue,
      ]
    state.withUnsafeMutableBufferPointer { v in
      for schedule in messageSchedule {
        func mix(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: Int, _ y: Int) {
          v[a] = v[a] &+ v[b] &+ block[schedule[x]]
          v[d] = rotateRight(v[d] ^ v[a], 16)
          v[c] = v[c] &+ v[d]
          v[b] = rotateRight(v[b] ^ v[c], 12)
          v[a] = v[a] &+ v[b] &+ block[schedule[y]]
          v[d] = rotateRight(v[d] ^ v[a], 8)
          v[c] = v[c] &+ v[d]
          v[b] = rotateRight(v[b] ^ v[c], 7)
        }
        mix(0, 4, 8, 12, 0, 1)
        mix(1, 5, 9, 13, 2, 3)
        mix(2, 6, 10, 14, 4, 5)
        mix(3, 7, 11, 15, 6, 7)
        mix(0, 5, 10, 15, 8, 9)
        mix(1, 6, 11, 12, 10, 11)
        mix(2, 7, 8, 13, 12, 13)
        mix(3, 4, 9, 14, 14, 15)
      }
      for index in 0..<8 {
        v[index] ^= v[index + 8]
        v[index + 8] ^= chainingValue[index]
      }
    }
    return state
  }

  /// `word` rotated right by `count` bits.
  @inline(__always)
  static func rotateRight(_ word: UInt32, _ count: UInt32) -> UInt32 {
    (word >> count) | (word << (32 - count))
  }
}
