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
  ///   - commit: what must happen together with the rename (placing files that belong beside
  ///     the output), run just before it; a process told to stop waits for the two
  ///     (``TemporaryItems/committing(_:)``).
  /// - Throws: ``DeckError`` of kind `.invalidRequest` when the destination exists and may not
  ///   be replaced, `.writeFailed` when the folder is not writable or the rename fails,
  ///   `CancellationError` when the work is no longer wanted (``Cancellation``) before the
  ///   rename, and whatever `write` and `commit` throw.
  package static func write<T>(
    to destination: String, replacing: Bool, _ write: (_ temporaryPath: String) throws -> T,
    commit: (_ temporaryPath: String) throws -> Void = { _ in }
  ) throws -> T {
    let location = SourceLocation(file: destination)
    switch ExistingItem(at: destination) {
    case .folder?, .emptyFolder?: throw DeckError(.invalidRequest, at: location, "is a directory; name an output file")
    case .file? where !replacing:
      throw DeckError(.invalidRequest, at: location, "already exists; pass \(setting: .replaceExisting) to replace it")
    case .file?, nil: break
    }
    let temporaryPath = try scratchPath(beside: URL(fileURLWithPath: destination), location: location) + ".tmp"
    return try removing(temporaryPath) {
      let result = try write(temporaryPath)
      try Cancellation.check()
      try TemporaryItems.committing {
        try keepPermissions(of: destination, on: temporaryPath, location: location)
        try commit(temporaryPath)
        guard rename(temporaryPath, destination) == 0 else {
          let reason = String(cString: strerror(errno))
          throw DeckError(.writeFailed, at: location, "cannot move the finished file into place (\(reason))")
        }
        TemporaryItems.notePlaced(destination)
      }
      return result
    }
  }

  /// Gives the file at `temporaryPath` the permissions of the file it replaces at `destination`,
  /// if there is one, so that replacing a private file (0600: an app's records, a user's
  /// collection) does not open it to others, as a new file's default permissions would.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when the permissions cannot be set (the file is
  ///   then not put in place).
  static func keepPermissions(of destination: String, on temporaryPath: String, location: SourceLocation) throws {
    var existing = stat()
    guard stat(destination, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFREG else { return }
    // Read, write and execute for each class; never the set-user-ID or set-group-ID bits.
    guard chmod(temporaryPath, existing.st_mode & 0o777) == 0 else {
      let reason = String(cString: strerror(errno))
      throw DeckError(
        .writeFailed, at: location, "cannot give the new file the permissions of the one it replaces (\(reason))")
    }
  }

  /// What stands at an output's path.
  enum ExistingItem {
    /// A file (or anything else that is not a folder).
    case file
    /// A folder with nothing in it.
    case emptyFolder
    /// A folder that holds something, or whose content cannot be listed.
    case folder

    /// The item at `path`, or nil when there is none.
    init?(at path: String) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
      guard isDirectory.boolValue else {
        self = .file
        return
      }
      let isEmpty = (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false
      self = isEmpty ? .emptyFolder : .folder
    }
  }

  /// The result of `body`; when it throws, the temporary file or folder at `temporaryPath` is
  /// removed first. The path is registered with ``TemporaryItems`` meanwhile.
  static func removing<T>(_ temporaryPath: String, ifThrows body: () throws -> T) throws -> T {
    TemporaryItems.register(temporaryPath)
    defer { TemporaryItems.unregister(temporaryPath) }
    do {
      return try body()
    } catch {
      try? FileManager.default.removeItem(atPath: temporaryPath)
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
