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
  private var pending = [UInt8](repeating: 0, count: 64)
  private var pendingCount = 0
  /// The number of bytes hashed so far.
  private var length: UInt64 = 0

  /// Creates a hasher with nothing hashed yet.
  public init() {}

  /// Hashes `bytes` after everything hashed before.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var base = bytes.baseAddress, bytes.count > 0 else { return }
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
  private static func compress(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
    var a0 = state.h0, b0 = state.h1, c0 = state.h2, d0 = state.h3, e0 = state.h4
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
      for block in 0..<count {
        let start = blocks + block * 64
        for t in 0..<16 {
          w[t] = UInt32(bigEndian: start.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
        }
        for t in 16..<80 {
          let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
          w[t] = (x << 1) | (x >> 31)
        }
        var a = a0, b = b0, c = c0, d = d0, e = e0
        for t in 0..<80 {
          let f: UInt32
          let k: UInt32
          switch t {
          case 0..<20:
            f = (b & c) | (~b & d)
            k = 0x5A82_7999
          case 20..<40:
            f = b ^ c ^ d
            k = 0x6ED9_EBA1
          case 40..<60:
            f = (b & c) | (b & d) | (c & d)
            k = 0x8F1B_BCDC
          default:
            f = b ^ c ^ d
            k = 0xCA62_C1D6
          }
          let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[t]
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
        a0 = a0 &+ a
        b0 = b0 &+ b
        c0 = c0 &+ c
        d0 = d0 &+ d
        e0 = e0 &+ e
      }
    }
    state = State(h0: a0, h1: b0, h2: c0, h3: d0, h4: e0)
  }
}
