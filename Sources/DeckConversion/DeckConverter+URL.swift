import DeckCore
import Foundation

extension DeckConverter {
  /// Reads the deck at the file URL `input` and writes it to the file URL `output`, as
  /// ``convert(input:output:options:onWarning:)`` does.
  ///
  /// ```swift
  /// let report = try DeckConverter().convert(inputURL, to: backupURL, options: ConversionOptions(to: .json))
  /// ```
  ///
  /// - Throws: ``DeckError`` as ``convert(input:output:options:onWarning:)`` does, and
  ///   ``DeckError/Kind/invalidRequest`` when either URL is not a file URL.
  public func convert(
    _ input: URL, to output: URL, options: ConversionOptions = ConversionOptions(),
    onWarning: (Diagnostic) -> Void = { _ in }
  ) throws -> ConversionReport {
    try convert(
      input: FileURL.path(of: input), output: FileURL.path(of: output), options: options, onWarning: onWarning)
  }

  /// Converts on a task of its own, so the caller's actor is not blocked while the decks are
  /// read and written; `onWarning` is called from that task.
  ///
  /// - Throws: as ``convert(_:to:options:onWarning:)``, and `CancellationError` when the
  ///   calling task is cancelled: before the conversion began, or while it runs. It then stops
  ///   within moments, on every thread it uses; the output is not put in place, nothing half
  ///   written stays beside it, and an existing output is left as it was.
  public func convert(
    _ input: URL, to output: URL, options: ConversionOptions = ConversionOptions(),
    onWarning: @escaping @Sendable (Diagnostic) -> Void = { _ in }
  ) async throws -> ConversionReport {
    let inputPath = try FileURL.path(of: input)
    let outputPath = try FileURL.path(of: output)
    return try await FileURL.detached { [self] in
      try convert(input: inputPath, output: outputPath, options: options, onWarning: onWarning)
    }
  }

  /// The format `name` means for writing, or the one the file URL `output`'s name (or, for an
  /// existing file, its content) shows, as the version that takes a path tells it.
  ///
  /// ```swift
  /// let format = try DeckConverter().outputFormat(named: nil, for: backupURL)
  /// print(format.name, format.description.cannotHold)
  /// ```
  ///
  /// - Throws: as the version that takes a path does (``DeckError/Kind/unknownFormat`` when
  ///   neither `name` nor the output tells the format, ``DeckError/Kind/invalidRequest`` for a
  ///   name no format writes), and ``DeckError/Kind/invalidRequest`` when `output` is not a file
  ///   URL.
  public func outputFormat(named name: FormatName?, for output: URL) throws -> any DeckFormat {
    try outputFormat(named: name, for: FileURL.path(of: output))
  }

  /// Writes `deck` to the file URL `output`, as the version that takes a path does.
  ///
  /// - Throws: as that method does, and ``DeckError/Kind/invalidRequest`` when `output` is not a
  ///   file URL.
  public func write(
    _ deck: LoadedDeck, to output: URL, options: ConversionOptions = ConversionOptions(),
    onWarning: (Diagnostic) -> Void = { _ in }
  ) throws -> ConversionReport {
    try write(deck, to: FileURL.path(of: output), options: options, onWarning: onWarning)
  }

  /// Writes on a task of its own, so the caller's actor is not blocked while the deck is
  /// written; `onWarning` is called from that task.
  ///
  /// - Throws: as the version that is not `async`, and `CancellationError` when the
  ///   calling task is cancelled: the output is then not put in place, nothing half written stays
  ///   beside it, and an existing output is left as it was.
  public func write(
    _ deck: LoadedDeck, to output: URL, options: ConversionOptions = ConversionOptions(),
    onWarning: @escaping @Sendable (Diagnostic) -> Void = { _ in }
  ) async throws -> ConversionReport {
    let outputPath = try FileURL.path(of: output)
    return try await FileURL.detached { [self] in
      try write(deck, to: outputPath, options: options, onWarning: onWarning)
    }
  }
}
