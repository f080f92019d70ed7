import DeckCore
import Foundation

extension BatchConverter {
  /// Converts every file URL of `inputs` into the folder URL `folder`, as
  /// ``convert(inputs:into:options:onWarning:onFinish:)`` does.
  ///
  /// ```swift
  /// let items = try BatchConverter().convert(decks, into: backups, options: ConversionOptions(to: .json))
  /// ```
  ///
  /// - Throws: as ``convert(inputs:into:options:onWarning:onFinish:)``, and
  ///   ``DeckError/Kind/invalidRequest`` when a URL is not a file URL.
  public func convert(
    _ inputs: [URL], into folder: URL, options: ConversionOptions,
    onWarning: @escaping @Sendable (Int, Diagnostic) -> Void = { _, _ in },
    onFinish: @escaping @Sendable (BatchConversionItem) -> Void = { _ in }
  ) throws -> [BatchConversionItem] {
    try convert(
      inputs: inputs.map(FileURL.path(of:)), into: FileURL.path(of: folder), options: options, onWarning: onWarning,
      onFinish: onFinish)
  }

  /// Converts on a task of its own, so the caller's actor is not blocked; `onWarning` and
  /// `onFinish` are called from the conversions' threads.
  ///
  /// - Throws: as ``convert(_:into:options:onWarning:onFinish:)``, and `CancellationError` when
  ///   the calling task is cancelled: the files finished before stay, those under way are
  ///   removed, and no other is started.
  public func convert(
    _ inputs: [URL], into folder: URL, options: ConversionOptions,
    onWarning: @escaping @Sendable (Int, Diagnostic) -> Void = { _, _ in },
    onFinish: @escaping @Sendable (BatchConversionItem) -> Void = { _ in }
  ) async throws -> [BatchConversionItem] {
    let inputPaths = try inputs.map(FileURL.path(of:))
    let folderPath = try FileURL.path(of: folder)
    return try await FileURL.detached { [self] in
      try convert(inputs: inputPaths, into: folderPath, options: options, onWarning: onWarning, onFinish: onFinish)
    }
  }
}
