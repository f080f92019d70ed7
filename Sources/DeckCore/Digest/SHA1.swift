import Crypto
import Foundation

/// SHA-1, the digest Anki stores for every media file, computed by swift-crypto's
/// `Insecure.SHA1`.
///
/// A hasher takes bytes in pieces, so a file is hashed as it is read, never whole in memory:
///
/// ```swift
/// var hasher = SHA1()
/// hasher.update(chunk)
/// let hex = SHA1.hex(hasher.finalize())   // "a9993e36…"
/// ```
///
/// It is a value: a copy goes on independently of the original (`Insecure.SHA1` copies its
/// state before it changes a shared one). SHA-1 is used here only to name and check file
/// contents, as Anki does, never for security.
package struct SHA1: Sendable {
  private var hasher = Insecure.SHA1()

  /// Creates a hasher with nothing hashed yet.
  package init() {}

  /// Hashes `bytes` after everything hashed before.
  ///
  /// - Parameter bytes: The next bytes; an empty buffer (even one without a base address)
  ///   changes nothing.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    hasher.update(bufferPointer: bytes)
  }

  /// Hashes `data` after everything hashed before.
  ///
  /// - Parameter data: The next bytes.
  package mutating func update(_ data: Data) {
    hasher.update(data: data)
  }

  /// Finishes the hash.
  ///
  /// - Returns: The 20-byte digest of everything hashed. Call it once; the hasher is spent after.
  package mutating func finalize() -> [UInt8] {
    hasher.finalize().withUnsafeBytes { Array($0) }
  }

  /// The SHA-1 digest of `data` in one call.
  ///
  /// ```swift
  /// SHA1.hex(SHA1.digest(Data("abc".utf8)))   // "a9993e364706816aba3e25717850c26c9cd0d89d"
  /// ```
  ///
  /// - Parameter data: The bytes to hash.
  /// - Returns: The 20-byte digest.
  package static func digest(_ data: Data) -> [UInt8] {
    Insecure.SHA1.hash(data: data).withUnsafeBytes { Array($0) }
  }

  /// The SHA-1 digest of `text`'s UTF-8, hashed where the string keeps it (no copy into a
  /// `Data` first: Anki's field checksum hashes the sort field of every note).
  ///
  /// - Parameter text: The text to hash.
  /// - Returns: The 20-byte digest, the same as `digest(Data(text.utf8))`.
  package static func digest(utf8 text: String) -> [UInt8] {
    var text = text
    var hasher = SHA1()
    text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
    return hasher.finalize()
  }

  /// A digest (or any bytes) as lowercase hexadecimal digits, two a byte.
  ///
  /// - Parameter digest: The bytes, such as the 20 of a SHA-1 digest.
  /// - Returns: The digits, 40 for a SHA-1 digest: `SHA1.hex([0x00, 0xAB])` is `"00ab"`.
  package static func hex(_ digest: [UInt8]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(digest.count * 2)
    for byte in digest {
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
