import DeckCore

extension SHA1 {
  /// The SHA-1 digest and the byte count of everything `source` yields, read in 64 KiB chunks.
  ///
  /// - Throws: the source's own errors.
  package static func digest(of source: inout some ByteSource) throws -> (digest: [UInt8], size: Int64) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    var hasher = SHA1()
    var size: Int64 = 0
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { break }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      size += Int64(count)
    }
    return (hasher.finalize(), size)
  }
}
