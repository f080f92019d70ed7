/// Writes one zstd frame whose blocks are stored, not compressed (RFC 8878 "raw" blocks): for
/// bytes that compression does not shrink, such as JPEG pictures and MP3 sounds, where even
/// zstd's fastest level costs about a second of processor time per gigabyte to save a percent
/// or two. Any zstd decoder reads the frame; the frame adds 6 bytes, and 3 per 128 KiB.
///
/// ```swift
/// var frame = ZstdStoredFrame()
/// try frame.write(chunk) { output.append(contentsOf: $0) }
/// try frame.finish { output.append(contentsOf: $0) }
/// ```
///
/// After ``finish(into:)`` the next ``write(_:into:)`` starts a new frame.
package struct ZstdStoredFrame {
  /// The largest block zstd allows (and the window the frame declares).
  static let blockBytes = 128 << 10
  /// The magic number, then a frame header descriptor that declares neither the content size
  /// nor a checksum nor a dictionary, then the window descriptor: 2^(10 + 7) bytes, one block.
  private static let header: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 7 << 3]
  private var started = false

  /// A frame not yet started.
  package init() {}

  /// Hands `bytes` to `sink` as stored blocks, after the frame's header if this is its start.
  package mutating func write(
    _ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try startIfNeeded(sink)
    var rest = bytes
    while !rest.isEmpty {
      let count = min(rest.count, Self.blockBytes)
      try Self.writeBlockHeader(size: count, isLast: false, into: sink)
      try sink(UnsafeRawBufferPointer(rebasing: rest[rest.startIndex..<(rest.startIndex + count)]))
      rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + count)...])
    }
  }

  /// Ends the frame with an empty last block (the whole frame, when nothing was written).
  package mutating func finish(into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    try startIfNeeded(sink)
    try Self.writeBlockHeader(size: 0, isLast: true, into: sink)
    started = false
  }

  private mutating func startIfNeeded(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard !started else { return }
    started = true
    try Self.header.withUnsafeBytes(sink)
  }

  /// Hands `sink` a block header: three bytes, little-endian, holding the last-block flag (bit
  /// 0), the block type (bits 1–2, 0 for stored) and the size (bits 3–23).
  private static func writeBlockHeader(
    size: Int, isLast: Bool, into sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let value = UInt32(size) << 3 | (isLast ? 1 : 0)
    try withUnsafeBytes(of: value.littleEndian) { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<3])) }
  }
}
