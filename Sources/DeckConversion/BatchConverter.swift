import DeckCore
import Foundation

/// One file of a batch conversion: where it went and how it ended.
public struct BatchConversionItem: Sendable {
  /// The input file, as given.
  public var input: String
  /// The output file in the batch's folder, or nil when none could be named for the input.
  public var output: String?
  /// What the conversion did, or the error that stopped it (nothing was written at `output` then).
  public var result: Result<ConversionReport, DeckError>
  /// The warnings of this file, reading and writing (also for a failed file, up to its failure).
  public var warnings: [Diagnostic]

  /// Whether the file was converted.
  public var succeeded: Bool {
    if case .success = result { return true }
    return false
  }
}

/// Converts many deck files into one folder, each under its own name with the output format's
/// extension, several at once.
///
/// ```swift
/// let items = try BatchConverter(jobs: 4).convert(
///   inputs: ["French.apkg", "German.apkg"], into: "backup", options: ConversionOptions(to: .json))
/// ```
///
/// Each file is one ``DeckConverter`` conversion (written under a temporary name and renamed
/// when complete), so a failure leaves nothing for that file and does not stop the others. Two
/// inputs never write one output: when two would (`French.apkg` and `French.colpkg` into
/// `French.json`), the later one fails without being read.
public struct BatchConverter: Sendable {
  /// How many conversions run at once.
  public var jobs: Int

  /// The formats the converter knows.
  public var registry: FormatRegistry

  /// Creates a converter running up to `jobs` conversions at once (at least one), of every
  /// format in `registry` (by default, every format deckport has).
  public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, registry: FormatRegistry = .standard) {
    self.jobs = max(1, jobs)
    self.registry = registry
  }

  /// The path `input` is written to in `folder` as `format`: its name without its extension,
  /// then the format's extension (a folder format such as `crowdanki` gets the name alone:
  /// `French.apkg` becomes `French/`, and an input folder keeps its whole name); nil for a
  /// format written only into an existing file.
  public static func outputPath(for input: String, in folder: String, format: FormatDescription) -> String? {
    let inputURL = URL(fileURLWithPath: input).standardizedFileURL
    if format.isFolder {
      var isDirectory: ObjCBool = false
      let isFolder = FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) && isDirectory.boolValue
      let base = isFolder ? inputURL.lastPathComponent : inputURL.deletingPathExtension().lastPathComponent
      return URL(fileURLWithPath: folder).appendingPathComponent(base).path
    }
    guard let fileExtension = format.newFileExtension else { return nil }
    let base = inputURL.deletingPathExtension().lastPathComponent
    return URL(fileURLWithPath: folder).appendingPathComponent("\(base).\(fileExtension)").path
  }

  /// Whether `format` can be written as new outputs in a folder (a file format, or a folder format).
  static func makesNewOutputs(_ format: FormatDescription) -> Bool { format.newFileExtension != nil || format.isFolder }

  /// Converts every file of `inputs` into `folder` (created when missing, except for a dry
  /// run) as `options.to`.
  ///
  /// - Parameters:
  ///   - onWarning: called with each file's index and each warning as soon as it is known, from
  ///     the conversion's thread.
  ///   - onFinish: called with each file's item when its conversion ends, from its thread.
  /// - Returns: one item per input, in the order of `inputs`.
  /// - Throws: ``DeckError`` only when the batch cannot start: no output format, a format
  ///   that cannot be written as a new file, or `folder` is a file or cannot be created;
  ///   `CancellationError` when the calling task was cancelled or the process was told to stop:
  ///   the files finished before stay (each was reported to `onFinish`), those under way are
  ///   removed, and no other is started.
  public func convert(
    inputs: [String], into folder: String, options: ConversionOptions,
    onWarning: @escaping @Sendable (Int, Diagnostic) -> Void = { _, _ in },
    onFinish: @escaping @Sendable (BatchConversionItem) -> Void = { _ in }
  ) throws -> [BatchConversionItem] {
    let location = SourceLocation(file: folder)
    guard let name = options.to else {
      throw DeckError(.invalidRequest, at: location, "a batch conversion needs its output format named")
    }
    let format = try DeckConverter(registry: registry).outputFormat(named: name, for: folder).description
    guard Self.makesNewOutputs(format) else {
      throw DeckError(
        .invalidRequest, at: location,
        "\(name.rawValue) is written into a store an app created, one at a time, not into a folder of new files")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw DeckError(.invalidRequest, at: location, "is a file, not a folder") }
    } else if !options.dryRun {
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw DeckError(.writeFailed, at: location, "cannot create the folder (\(error.localizedDescription))")
      }
    }

    let plan = Self.plan(inputs: inputs, folder: folder, format: format)
    let results = BatchResults(count: inputs.count)
    let progress = options.progress
    progress?.start(.convertingFiles, total: Int64(inputs.count))
    let scope = Cancellation.scope
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(inputs.count, 1))) { _ in
      Cancellation.$scope.withValue(scope) {
        while !Cancellation.isRequested, let index = results.claimNext() {
          guard let item = self.convertOne(plan[index], index: index, options: options, onWarning: onWarning) else {
            return
          }
          results.store(item, at: index)
          progress?.advance(.convertingFiles)
          onFinish(item)
        }
      }
    }
    progress?.finish(.convertingFiles)
    try Cancellation.check()
    return results.items
  }

  /// What each input is to do: its output path, or the error that stops it before reading.
  private struct PlannedFile: Sendable {
    var input: String
    var output: String?
    var refusal: DeckError?
  }

  private static func plan(inputs: [String], folder: String, format: FormatDescription) -> [PlannedFile] {
    var firstInputForOutput: [String: String] = [:]
    return inputs.map { input in
      guard let output = outputPath(for: input, in: folder, format: format) else {
        return PlannedFile(input: input, output: nil, refusal: nil)
      }
      let key = URL(fileURLWithPath: output).standardizedFileURL.path
      if let earlier = firstInputForOutput[key] {
        return PlannedFile(
          input: input, output: output,
          refusal: DeckError(
            .invalidRequest, at: SourceLocation(file: input),
            "would be written to \(output), as \(earlier) is; rename one of them (nothing was written for this file)"))
      }
      firstInputForOutput[key] = input
      return PlannedFile(input: input, output: output, refusal: nil)
    }
  }

  /// How converting `file` ended; nil when it was cancelled (nothing was written).
  private func convertOne(
    _ file: PlannedFile, index: Int, options: ConversionOptions,
    onWarning: @escaping @Sendable (Int, Diagnostic) -> Void
  ) -> BatchConversionItem? {
    var warnings: [Diagnostic] = []
    guard let output = file.output, file.refusal == nil else {
      let error = file.refusal ?? DeckError(.invalidRequest, at: SourceLocation(file: file.input), "no output name")
      return BatchConversionItem(input: file.input, output: file.output, result: .failure(error), warnings: [])
    }
    do {
      let report = try DeckConverter(registry: registry).convert(input: file.input, output: output, options: options) {
        warning in
        warnings.append(warning)
        onWarning(index, warning)
      }
      return BatchConversionItem(input: file.input, output: output, result: .success(report), warnings: warnings)
    } catch let error as DeckError {
      return BatchConversionItem(input: file.input, output: output, result: .failure(error), warnings: warnings)
    } catch is CancellationError {
      return nil
    } catch {
      let wrapped = DeckError(.writeFailed, at: SourceLocation(file: output), "\(error)")
      return BatchConversionItem(input: file.input, output: output, result: .failure(wrapped), warnings: warnings)
    }
  }
}

/// The shared state of a batch's workers: which file is next, and the finished items.
private final class BatchResults: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var stored: [BatchConversionItem?]

  init(count: Int) {
    stored = Array(repeating: nil, count: count)
  }

  /// The index of the next file no worker has taken, or nil when every file is taken.
  func claimNext() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard next < stored.count else { return nil }
    next += 1
    return next - 1
  }

  func store(_ item: BatchConversionItem, at index: Int) {
    lock.lock()
    stored[index] = item
    lock.unlock()
  }

  /// The finished items, in input order.
  var items: [BatchConversionItem] {
    lock.lock()
    defer { lock.unlock() }
    return stored.compactMap { $0 }
  }
}
