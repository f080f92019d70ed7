import DeckCore
import Foundation

extension AtomicOutput {
  /// Calls `write` with a temporary folder beside `destination`, then renames that folder to
  /// `destination`, so a folder output is either complete or absent.
  ///
  /// An empty folder at `destination` is replaced. A non-empty folder (or a file) is replaced
  /// only when `replacing` is true: it is first moved aside, the new folder is moved in, and
  /// only then is the old one deleted, so a failure at any step leaves the old output in place.
  ///
  /// - Parameters:
  ///   - destination: the final path of the folder.
  ///   - replacing: whether an existing, non-empty output may be replaced (`--force`).
  ///   - write: fills the folder at the path it is given (the folder exists and is empty).
  /// - Throws: ``DeckError`` of kind `.invalidRequest` when the destination holds something and
  ///   may not be replaced, `.writeFailed` when the parent folder is not writable or a rename
  ///   fails, `CancellationError` when the work is no longer wanted (``Cancellation``) before
  ///   the renames, and whatever `write` throws.
  package static func writeFolder<T>(
    to destination: String, replacing: Bool, _ write: (_ temporaryPath: String) throws -> T
  ) throws -> T {
    let location = SourceLocation(file: destination)
    let existing = ExistingItem(at: destination)
    if let existing, existing != .emptyFolder, !replacing {
      throw DeckError(
        .invalidRequest, at: location,
        existing == .folder
          ? "is a folder that is not empty; pass \(setting: .replaceExisting) to replace it"
          : "already exists; pass \(setting: .replaceExisting) to replace it")
    }
    let exists = existing != nil
    let manager = FileManager.default
    let scratch = try scratchPath(beside: URL(fileURLWithPath: destination).standardizedFileURL, location: location)
    let temporaryPath = scratch + ".tmp"
    let asidePath = scratch + ".old"
    do {
      try manager.createDirectory(atPath: temporaryPath, withIntermediateDirectories: false)
    } catch {
      throw DeckError(
        .writeFailed, at: location, "cannot create a temporary folder beside it (\(error.localizedDescription))")
    }
    return try removing(temporaryPath) {
      let result = try write(temporaryPath)
      try Cancellation.check()
      try TemporaryItems.committing {
        try moveIntoPlace(
          temporaryPath, destination: destination, asidePath: exists ? asidePath : nil, location: location)
        TemporaryItems.notePlaced(destination)
      }
      return result
    }
  }

  /// Renames the finished folder at `temporaryPath` to `destination`, an existing output first
  /// moved to `asidePath` and deleted once the new folder is in place (put back on failure).
  private static func moveIntoPlace(
    _ temporaryPath: String, destination: String, asidePath: String?, location: SourceLocation
  ) throws {
    if let asidePath {
      guard rename(destination, asidePath) == 0 else {
        throw DeckError(
          .writeFailed, at: location, "cannot move the old output aside (\(String(cString: strerror(errno))))")
      }
    }
    guard rename(temporaryPath, destination) == 0 else {
      let reason = String(cString: strerror(errno))
      if let asidePath { _ = rename(asidePath, destination) }
      throw DeckError(.writeFailed, at: location, "cannot move the finished folder into place (\(reason))")
    }
    if let asidePath { try? FileManager.default.removeItem(atPath: asidePath) }
  }
}
