import DeckCore
import Foundation

extension AppMigrator {
  /// Migrates the records at the file URL `source` to `destination`, as
  /// ``migrate(source:destination:options:)`` does.
  ///
  /// - Throws: as ``migrate(source:destination:options:)``, and ``DeckError/Kind/invalidRequest``
  ///   when either URL is not a file URL.
  public func migrate(_ source: URL, to destination: URL, options: AppMigrationOptions = AppMigrationOptions()) throws
    -> AppMigrationReport
  {
    try migrate(source: FileURL.path(of: source), destination: FileURL.path(of: destination), options: options)
  }

  /// Migrates on a task of its own, so the caller's actor is not blocked.
  ///
  /// - Throws: as ``migrate(_:to:options:)``, and `CancellationError` when the calling task is
  ///   cancelled: before the migration began, or while it runs, up to the moment the new store
  ///   is put in place. The destination is then left as it was, with no backup beside it.
  public func migrate(_ source: URL, to destination: URL, options: AppMigrationOptions = AppMigrationOptions())
    async throws
    -> AppMigrationReport
  {
    let sourcePath = try FileURL.path(of: source)
    let destinationPath = try FileURL.path(of: destination)
    return try await FileURL.detached { [self] in
      try migrate(source: sourcePath, destination: destinationPath, options: options)
    }
  }
}
