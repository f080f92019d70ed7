/// How ``ZipWriter`` stores a member.
package enum ZipCompression: Sendable, Hashable {
  /// Stored as is (method 0), as Anki stores its already zstd-compressed members.
  case stored
  /// Deflate (method 8) at `level`, 1 (fastest) to 9 (smallest); values outside are clamped.
  case deflate(level: Int)
}
