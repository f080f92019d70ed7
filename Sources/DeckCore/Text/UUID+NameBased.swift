import Foundation

extension UUID {
  /// A version-5-style UUID from the SHA-1 of `name`: the same name always gives the same UUID.
  /// deckport derives record identities this way (a note's GUID, a record's content).
  package init(nameBasedOn name: Data) {
    var digest = Array(SHA1.digest(name).prefix(16))
    digest[6] = (digest[6] & 0x0F) | 0x50
    digest[8] = (digest[8] & 0x3F) | 0x80
    self.init(bytes: Data(digest))
  }

  /// The UUID whose 16 bytes (`uuid_t` order, as Core Data stores them) are `bytes`.
  package init(bytes: Data) {
    var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &raw) { buffer in
      for (index, byte) in bytes.prefix(16).enumerated() { buffer[index] = byte }
    }
    self.init(uuid: raw)
  }

  /// The 16 bytes in `uuid_t` order.
  package var bytes: Data {
    withUnsafeBytes(of: uuid) { Data($0) }
  }
}
