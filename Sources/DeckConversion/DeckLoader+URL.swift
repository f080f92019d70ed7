import DeckCore
import Foundation

extension DeckLoader {
  /// Reads the deck file or folder at the file URL `url`, as ``load(path:format:options:progress:)`` does,
  /// on the caller's thread. (In an `async` function, Swift picks the `async` version below,
  /// which needs `await`.)
  ///
  /// ```swift
  /// let deck = try DeckLoader().load(Bundle.main.url(forResource: "French", withExtension: "apkg")!)
  /// ```
  ///
  /// - Throws: ``DeckError`` as ``load(path:format:options:progress:)`` does, and
  ///   ``DeckError/Kind/invalidRequest`` when `url` is not a file URL.
  public func load(
    _ url: URL, format: FormatName? = nil, options: FormatOptions = FormatOptions(), progress: ProgressReporter? = nil
  ) throws -> LoadedDeck {
    try load(path: FileURL.path(of: url), format: format, options: options, progress: progress)
  }

  /// Reads the deck at `url` on a task of its own, so the caller's actor (such as the main
  /// actor of an app's interface) is not blocked while a large package is read.
  ///
  /// ```swift
  /// let deck = try await DeckLoader().load(url)
  /// ```
  ///
  /// - Throws: as ``load(_:format:options:progress:)``, and `CancellationError` when the
  ///   calling task is cancelled: before reading began, or while it reads (it stops within
  ///   moments, on every thread it uses, and removes its scratch files).
  public func load(
    _ url: URL, format: FormatName? = nil, options: FormatOptions = FormatOptions(), progress: ProgressReporter? = nil
  ) async throws -> LoadedDeck {
    let path = try FileURL.path(of: url)
    return try await FileURL.detached { [self] in
      try load(path: path, format: format, options: options, progress: progress)
    }
  }
}
