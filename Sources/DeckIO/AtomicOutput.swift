import DeckCore
import Foundation

/// Writes an output file so that it is either complete or absent: the content goes to a
/// temporary file beside the destination, which is renamed over the destination only when the
/// writing succeeded. On any failure the temporary file is removed and an existing destination
/// is left untouched.
package enum AtomicOutput {
  /// Calls `write` with a temporary path in the destination's folder, then renames that file to
  /// `destination`.
  ///
  /// - Parameters:
  ///   - destination: the final path.
  ///   - replacing: whether an existing file at `destination` may be replaced.
  ///   - write: writes the complete output to the path it is given.
  /// - Throws: ``DeckError`` of kind `.invalidRequest` when the destination exists and may not
  ///   be replaced, `.writeFailed` when the folder is not writable or the rename fails, and
  ///   whatever `write` throws.
  package static func write<T>(
    to destination: String, replacing: Bool, _ write: (_ temporaryPath: String) throws -> T
  ) throws -> T {
    let location = SourceLocation(file: destination)
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: destination, isDirectory: &isDirectory) {
      if isDirectory.boolValue {
        throw DeckError(.invalidRequest, at: location, "is a directory; name an output file")
      }
      if !replacing {
        throw DeckError(
          .invalidRequest, at: location, "already exists; pass \(setting: .replaceExisting) to replace it")
      }
    }
    let temporaryPath = try scratchPath(beside: URL(fileURLWithPath: destination), location: location) + ".tmp"
    do {
      let result = try write(temporaryPath)
      guard rename(temporaryPath, destination) == 0 else {
        let reason = String(cString: strerror(errno))
        throw DeckError(.writeFailed, at: location, "cannot move the finished file into place (\(reason))")
      }
      return result
    } catch {
      try? manager.removeItem(atPath: temporaryPath)
      throw error
    }
  }

  /// A new hidden path beside `destinationURL`, `.<name>.deckport-<UUID>`, to which a temporary
  /// item's suffix is added, once the destination's folder was found writable.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` at `location` when the folder is not writable.
  static func scratchPath(beside destinationURL: URL, location: SourceLocation) throws -> String {
    let folder = destinationURL.deletingLastPathComponent()
    guard FileManager.default.isWritableFile(atPath: folder.path) else {
      throw DeckError(.writeFailed, at: location, "cannot write into the folder '\(folder.path)'")
    }
    return folder.appendingPathComponent(".\(destinationURL.lastPathComponent).deckport-\(UUID().uuidString)").path
  }
}
