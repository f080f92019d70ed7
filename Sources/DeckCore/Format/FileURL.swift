import Foundation

/// The bridge from the `URL`-based entry points an app calls to the paths the formats work on.
package enum FileURL {
  /// The path of `url`, which must be a file URL (deckport reads and writes local files only).
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` naming the URL when it is not a file URL.
  package static func path(of url: URL) throws -> String {
    guard url.isFileURL else {
      throw DeckError(
        .invalidRequest, at: SourceLocation(file: url.absoluteString),
        "is not a file URL: deckport reads and writes local files and folders")
    }
    return url.path(percentEncoded: false)
  }

  /// Runs `work` on a task of its own, so that a caller on the main actor is never blocked
  /// by reading or writing. A cancelled caller gets `CancellationError`: before work starts,
  /// or from the work's next check (``Cancellation``), on every thread it uses, once it has
  /// removed what it was writing.
  package static func detached<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result
  {
    try Task.checkCancellation()
    let scope = Cancellation.Scope()
    let task = Task.detached(priority: Task.currentPriority) {
      try Cancellation.$scope.withValue(scope) { try work() }
    }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      scope.cancel()
      task.cancel()
    }
  }
}
