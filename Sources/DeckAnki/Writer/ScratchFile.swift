import DeckCore
import Foundation

/// A new file in the writer's scratch directory, written front to back in chunks.
final class ScratchFile {
  /// The file's path.
  let path: String
  /// Where errors point (the output and member the file is for).
  let location: SourceLocation
  private let handle: FileHandle

  /// Creates (or truncates) the file at `path`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` at `location` when it cannot be created.
  init(path: String, location: SourceLocation) throws {
    self.path = path
    self.location = location
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw DeckError(.writeFailed, at: location, "cannot create a temporary file at '\(path)'")
    }
    self.handle = handle
  }

  deinit {
    try? handle.close()
  }

  /// Appends `bytes`.
  func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard bytes.count > 0 else { return }
    do {
      try handle.write(contentsOf: Data(bytes))
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.localizedDescription))")
    }
  }

  /// Flushes and closes the file.
  func close() throws {
    do {
      try handle.close()
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot write a temporary file (\(error.localizedDescription))")
    }
  }

  /// Calls `body` with successive chunks of the file at `path`, front to back.
  static func forEachChunk(
    ofFileAt path: String, location: SourceLocation, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw DeckError(.writeFailed, at: location, "cannot read back the temporary file '\(path)'")
    }
    defer { try? handle.close() }
    while true {
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 16)
      } catch {
        throw DeckError(.writeFailed, at: location, "cannot read back a temporary file (\(error.localizedDescription))")
      }
      guard let chunk, !chunk.isEmpty else { return }
      try chunk.withUnsafeBytes { try body($0) }
    }
  }
}
