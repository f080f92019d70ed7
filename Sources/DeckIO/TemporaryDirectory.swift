import DeckCore
import Foundation

/// A private directory under the system's temporary directory, removed with everything in it
/// when released or on ``remove()``.
///
/// ```swift
/// let scratch = try TemporaryDirectory()
/// let databasePath = scratch.path(for: "collection.sqlite")
/// ```
package final class TemporaryDirectory: @unchecked Sendable {
  /// The directory's URL.
  package let url: URL
  private let lock = NSLock()
  private var removed = false

  /// Creates a new, uniquely named directory (`deckport-<UUID>`, or `<prefix><UUID>`).
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when it cannot be created.
  package init(prefix: String = "deckport-") throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent(prefix + UUID().uuidString, isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw DeckError(
        .writeFailed, at: SourceLocation(file: url.path),
        "cannot create a temporary directory (\(error.localizedDescription))")
    }
    self.url = url
    TemporaryItems.register(url.path)
  }

  deinit {
    remove()
  }

  /// The directory's path.
  package var path: String { url.path }

  /// The path of the entry `name` inside the directory (not created).
  package func path(for name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// Removes the directory and everything in it now; later calls do nothing.
  package func remove() {
    lock.lock()
    defer { lock.unlock() }
    guard !removed else { return }
    removed = true
    try? FileManager.default.removeItem(at: url)
    TemporaryItems.unregister(url.path)
  }
}
