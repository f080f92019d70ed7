import DeckCore
import Foundation

extension AppMigrator {
  /// Copies every record of the Core Data store at the file URL `source` into the one at
  /// `destination`, as ``migrateStore(source:destination:options:)`` does.
  ///
  /// - Throws: as ``migrateStore(source:destination:options:)``, and
  ///   ``DeckError/Kind/invalidRequest`` when either URL is not a file URL.
  public func migrateStore(_ source: URL, to destination: URL, options: AppMigrationOptions = AppMigrationOptions())
    throws -> AppStoreMigrationReport
  {
    try migrateStore(source: FileURL.path(of: source), destination: FileURL.path(of: destination), options: options)
  }

  /// Migrates the store on a task of its own, so the caller's actor is not blocked.
  ///
  /// - Throws: as ``migrateStore(_:to:options:)``, and `CancellationError` when the calling task
  ///   is cancelled, up to the moment the new store is put in place; the destination is then
  ///   left as it was.
  public func migrateStore(_ source: URL, to destination: URL, options: AppMigrationOptions = AppMigrationOptions())
    async throws -> AppStoreMigrationReport
  {
    let sourcePath = try FileURL.path(of: source)
    let destinationPath = try FileURL.path(of: destination)
    return try await FileURL.detached { [self] in
      try migrateStore(source: sourcePath, destination: destinationPath, options: options)
    }
  }
}
