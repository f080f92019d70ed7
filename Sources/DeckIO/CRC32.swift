import CDeflate
import CZlib

/// The CRC-32 a zip archive records for each member (zlib's `crc32`: the ISO 3309 polynomial,
/// reflected, starting from 0).
///
/// Taken with libdeflate, whose carry-less-multiply code runs at about 11 GB/s on this machine
/// against zlib's 2.7 GB/s (docs/performance.md, *Digests*). Two CRCs are joined with zlib's
/// `crc32_combine`, which libdeflate does not have.
package enum CRC32 {
  /// `crc` (the CRC-32 of some bytes; 0 for none) extended over `bytes`.
  package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    return libdeflate_crc32(crc, base, bytes.count)
  }

  /// The CRC-32 of `bytes`.
  package static func of(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { update(0, $0) }
  }

  /// The CRC-32 of some bytes followed by `secondCount` more, from the CRC-32 of each part.
  package static func combine(_ first: UInt32, _ second: UInt32, secondCount: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), off_t(secondCount)))
  }
}
