import Foundation

/// Where a member's headers and stored bytes are in the bytes of a zip archive, found by their
/// signatures and the member's name, so tests can damage exactly the field they mean to.
public struct ZipHeaders: Sendable, Equatable {
  /// The offset of the member's local file header (`PK\x03\x04`).
  public var local: Int
  /// The offset of its central directory entry (`PK\x01\x02`), or nil when none names it.
  public var central: Int?
  /// Where its stored (possibly compressed) bytes start, after the local header's name and
  /// extra field.
  public var dataStart: Int

  /// The headers of member `name` in `archive`, or nil when no local header names it.
  public init?(of name: String, in archive: some Collection<UInt8>) {
    let bytes = Array(archive)
    let nameBytes = Array(name.utf8)
    func header(_ signature: [UInt8], nameAt: Int) -> Int? {
      guard bytes.count >= nameAt + nameBytes.count else { return nil }
      return (0...(bytes.count - nameAt - nameBytes.count)).first { offset in
        bytes[offset..<offset + 4].elementsEqual(signature)
          && bytes[offset + nameAt..<offset + nameAt + nameBytes.count].elementsEqual(nameBytes)
      }
    }
    guard let local = header([0x50, 0x4B, 0x03, 0x04], nameAt: 30) else { return nil }
    func uint16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    self.local = local
    self.central = header([0x50, 0x4B, 0x01, 0x02], nameAt: 46)
    self.dataStart = local + 30 + uint16(local + 26) + uint16(local + 28)
  }
}
