import DeckCore
import Foundation

/// Media bytes kept in a file on disk (a CrowdAnki `media/` folder, a json-dir `media/` folder),
/// read only when a writer asks for them.
package struct FileMediaSource: MediaSource {
  /// The file's path.
  package let path: String

  /// Creates a source over the file at `path`.
  package init(path: String) { self.path = path }

  /// Opens the file for reading from its first byte.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` naming the file when it cannot be opened.
  package func openReader() throws -> any MediaByteReader {
    Reader(source: try FileByteSource(path: path, location: SourceLocation(file: path)))
  }

  private final class Reader: MediaByteReader {
    var source: FileByteSource
    init(source: FileByteSource) { self.source = source }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try source.read(into: buffer) }
  }
}
