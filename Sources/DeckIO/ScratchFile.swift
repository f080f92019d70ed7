import DeckCore
import Foundation

/// A new file in the writer's scratch directory, written front to back in chunks (through a
/// buffered C `FILE`, so a chunk costs no allocation).
package final class ScratchFile {
  /// The file's path.
  package let path: String
  /// Where errors point (the output and member the file is for).
  package let location: SourceLocation
  private let sink: FileSink

  /// Creates (or truncates) the file at `path`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` at `location` when it cannot be created.
  package init(path: String, location: SourceLocation) throws {
    self.path = path
    self.location = location
    do {
      sink = try FileSink(path: path)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot create a temporary file at '\(path)'")
    }
  }

  /// Appends `bytes`.
  package func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard bytes.count > 0 else { return }
    do {
      try sink.write(bytes)
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
    }
  }

  /// Flushes and closes the file.
  package func close() throws {
    do {
      try sink.close()
    } catch let error as DeckError {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.message))")
    }
  }

  /// Calls `body` with successive chunks of the file at `path`, front to back.
  package static func forEachChunk(
    ofFileAt path: String, location: SourceLocation, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let source: FileByteSource
    do {
      source = try FileByteSource(path: path, location: location)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot read back the temporary file '\(path)'")
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do {
        count = try source.read(into: buffer)
      } catch let error as DeckError {
        throw DeckError(.writeFailed, at: location, "cannot read back a temporary file (\(error.message))")
      }
      if count == 0 { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }
}
