import DeckCore

/// A forward-only stream of bytes: a file, a zip member, a decompressor, memory.
///
/// Readers pull chunks of any size; a source fills as much of the buffer as it has ready and
/// returns 0 only at the end. Conforming types may be classes, whose `read` is not mutating.
package protocol ByteSource {
  /// Fills the start of `buffer` with the next bytes and returns how many; 0 means the end.
  ///
  /// - Throws: ``DeckError`` naming the source when its bytes cannot be read or decoded.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension DataByteSource: ByteSource {}
