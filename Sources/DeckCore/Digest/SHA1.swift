import Foundation

/// SHA-1 (FIPS 180-4), the digest Anki stores for every media file.
///
/// ```swift
/// var hasher = SHA1()
/// hasher.update(chunk)
/// let hex = SHA1.hex(hasher.finalize())
/// ```
///
/// Whole 64-byte blocks are hashed straight from the caller's buffer; only a trailing partial
/// block is copied. Not for security: SHA-1 is used here only to identify file contents.
///
/// When the process has the system's SHA-1 (OpenSSL's `libcrypto`, which libzip links, or
/// CommonCrypto), that does the hashing, with the processor's SHA instructions where there
/// are any (see `SystemSHA1Context`); the portable code below is the fallback.
public struct SHA1: Sendable {
  /// The five chaining words.
  private struct State: Sendable {
    var h0: UInt32 = 0x6745_2301
    var h1: UInt32 = 0xEFCD_AB89
    var h2: UInt32 = 0x98BA_DCFE
    var h3: UInt32 = 0x1032_5476
    var h4: UInt32 = 0xC3D2_E1F0
  }

  private var state = State()
  /// The bytes of an incomplete block, waiting for more input; its first `pendingCount` count.
  /// Allocated on first use by the portable code.
  private var pending: [UInt8] = []
  private var pendingCount = 0
  /// The number of bytes hashed so far.
  private var length: UInt64 = 0
  /// The system's SHA-1 context, when there is one; copied before a shared one is changed, so
  /// copies of a hasher stay independent as for any value.
  private var system: SystemSHA1Context?

  /// Creates a hasher with nothing hashed yet.
  public init() {
    system = SystemSHA1Context()
  }

  /// A hasher that always uses the portable code (for tests).
  init(portable: Void) {}

  /// Hashes `bytes` after everything hashed before.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    if system != nil {
      if !isKnownUniquelyReferenced(&system) { system = system?.copy() }
      system?.update(bytes)
      return
    }
    guard var base = bytes.baseAddress, bytes.count > 0 else { return }
    if pending.isEmpty { pending = [UInt8](repeating: 0, count: 64) }
    var remaining = bytes.count
    length &+= UInt64(remaining)
    if pendingCount > 0 {
      let take = min(64 - pendingCount, remaining)
      let offset = pendingCount
      pending.withUnsafeMutableBytes { buffer in
        UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + take)])
          .copyMemory(from: UnsafeRawBufferPointer(start: base, count: take))
      }
      pendingCount += take
      base += take
      remaining -= take
      guard pendingCount == 64 else { return }
      pending.withUnsafeBytes { buffer in
        if let block = buffer.baseAddress { Self.compress(&state, blocks: block, count: 1) }
      }
      pendingCount = 0
    }
    let blocks = remaining / 64
    if blocks > 0 {
      Self.compress(&state, blocks: base, count: blocks)
      base += blocks * 64
      remaining -= blocks * 64
    }
    if remaining > 0 {
      let count = remaining
      pending.withUnsafeMutableBytes { buffer in
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
          .copyMemory(from: UnsafeRawBufferPointer(start: base, count: count))
      }
      pendingCount = remaining
    }
  }

  /// Hashes `data` after everything hashed before.
  public mutating func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  /// Finishes the hash and returns the 20-byte digest. Call it once; the hasher is spent after.
  public mutating func finalize() -> [UInt8] {
    if system != nil {
      if !isKnownUniquelyReferenced(&system) { system = system?.copy() }
      return system?.finalize() ?? []
    }
    let bitLength = length &* 8
    var padding = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 - pendingCount : 128 - pendingCount)
    padding[0] = 0x80
    for index in 0..<8 {
      padding[padding.count - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))
    }
    padding.withUnsafeBytes { update($0) }
    var digest = [UInt8]()
    digest.reserveCapacity(20)
    for word in [state.h0, state.h1, state.h2, state.h3, state.h4] {
      digest.append(UInt8(truncatingIfNeeded: word >> 24))
      digest.append(UInt8(truncatingIfNeeded: word >> 16))
      digest.append(UInt8(truncatingIfNeeded: word >> 8))
      digest.append(UInt8(truncatingIfNeeded: word))
    }
    return digest
  }

  /// The SHA-1 digest (20 bytes) of `data`.
  public static func digest(_ data: Data) -> [UInt8] {
    var hasher = SHA1()
    hasher.update(data)
    return hasher.finalize()
  }

  /// `digest` as lowercase hexadecimal digits (40 for a SHA-1 digest).
  public static func hex(_ digest: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(digest.count * 2)
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Runs the compression function over `count` consecutive 64-byte blocks at `blocks`.
  ///
  /// The 80 rounds are written as four loops of twenty, each with its own round function, over
  /// a 16-word rolling message schedule, so no round branches on its number: about 12
  /// instructions a byte instead of 45 with one loop and a switch.
  @inline(__always)
  private static func schedule(_ w: UnsafeMutableBufferPointer<UInt32>, _ t: Int) -> UInt32 {
    let x = w[(t &+ 13) & 15] ^ w[(t &+ 8) & 15] ^ w[(t &+ 2) & 15] ^ w[t & 15]
    let word = (x << 1) | (x >> 31)
    w[t & 15] = word
    return word
  }

  private static func compress(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
    var h0 = state.h0, h1 = state.h1, h2 = state.h2, h3 = state.h3, h4 = state.h4
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
      for block in 0..<count {
        let start = blocks + block * 64
        for t in 0..<16 {
          w[t] = UInt32(bigEndian: start.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
        }
        var a = h0, b = h1, c = h2, d = h3, e = h4
        for t in 0..<16 {
          let temp = ((a << 5) | (a >> 27)) &+ (d ^ (b & (c ^ d))) &+ e &+ 0x5A82_7999 &+ w[t]
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
        for t in 16..<20 {
          let temp = ((a << 5) | (a >> 27)) &+ (d ^ (b & (c ^ d))) &+ e &+ 0x5A82_7999 &+ schedule(w, t)
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
        for t in 20..<40 {
          let temp = ((a << 5) | (a >> 27)) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ schedule(w, t)
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
        for t in 40..<60 {
          let temp = ((a << 5) | (a >> 27)) &+ ((b & c) | (d & (b | c))) &+ e &+ 0x8F1B_BCDC &+ schedule(w, t)
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
        for t in 60..<80 {
          let temp = ((a << 5) | (a >> 27)) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ schedule(w, t)
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }

        h0 = h0 &+ a
        h1 = h1 &+ b
        h2 = h2 &+ c
        h3 = h3 &+ d
        h4 = h4 &+ e
      }
    }
    state = State(h0: h0, h1: h1, h2: h2, h3: h3, h4: h4)
  }
}
