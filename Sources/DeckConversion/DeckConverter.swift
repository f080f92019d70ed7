import DeckAppStorage
import DeckCore
import DeckIO
import Foundation

/// How a conversion runs.
public struct ConversionOptions: Sendable {
  /// The input format (a name `--from` takes), or nil to tell it from the input's name or content.
  public var from: FormatName?
  /// The output format, or nil to tell it from the output's name.
  public var to: FormatName?
  /// Whether an existing output may be replaced.
  public var replacing: Bool
  /// Whether any warning fails the conversion: nothing is written then, and the
  /// ``DeckError/Kind/notFaithful`` error thrown carries the warnings (``DeckError/diagnostics``).
  public var strict: Bool
  /// For outputs changed in place (app storage): keep a copy of an existing output beside it.
  public var backup: Bool
  /// Each format's options: how CSV is read and written, where app storage keeps its records
  /// and how they are matched, how much an Anki package may unpack to, what to do with
  /// duplicate GUIDs.
  public var formats: FormatOptions
  /// Where the readers and writers report how far they have come (phases and counts), or nil.
  public var progress: ProgressReporter?
  /// Write into a scratch location only: everything is read and written (so every warning is
  /// known, and for app storage the result verified), and nothing is left at the output.
  public var dryRun: Bool
  /// What of the input to keep, as the choices of Anki's export dialog: only some decks, and
  /// whether scheduling, option groups and media travel. By default, everything.
  public var choices: ExportChoices

  /// Creates options.
  public init(
    from: FormatName? = nil, to: FormatName? = nil, replacing: Bool = false, strict: Bool = false,
    backup: Bool = false, formats: FormatOptions = FormatOptions(), progress: ProgressReporter? = nil,
    dryRun: Bool = false, choices: ExportChoices = ExportChoices()
  ) {
    self.from = from
    self.to = to
    self.replacing = replacing
    self.strict = strict
    self.backup = backup
    self.formats = formats
    self.progress = progress
    self.dryRun = dryRun
    self.choices = choices
  }

  /// What an output written in place does when it exists.
  var existingOutput: ExistingFilePolicy { backup ? .backup : (replacing ? .replace : .refuse) }
}

/// What a conversion did.
public struct ConversionReport: Sendable {
  /// The exact input format, such as `apkg-legacy-2`.
  public var inputFormat: String
  /// The output format written.
  public var outputFormat: FormatName
  /// Everything that could not be kept or had to change, reading and writing.
  public var warnings: [Diagnostic]
  /// What was written (a deck package leaves out unused media and note types, with warnings).
  public var summary: DeckSummary
  /// For app storage outputs: what the storage writer did (or, for a dry run, would do).
  public var appWrite: AppWriteReport?
  /// Whether this was a dry run: the output was written in a scratch location and discarded.
  public var dryRun = false
  /// For deck outputs: the size in bytes of the file written (or, for a dry run, that would be).
  public var bytes: Int64?
  /// With ``ExportChoices/onlyDecks``: the decks kept, and how much of the input they hold.
  public var selection: DeckSelection?
  /// Whether the output existed before (a real run replaces it only when told to).
  public var outputExisted = false
}

/// Converts a deck file from one format to another through the shared model.
///
/// ```swift
/// let report = try DeckConverter().convert(input: "French.apkg", output: "French.json")
/// ```
///
/// The output is written under a temporary name beside the destination and renamed only when
/// complete, so a failed conversion leaves nothing behind and an existing file untouched. The
/// input is only read.
public struct DeckConverter: Sendable {
  /// The formats the converter knows.
  public var registry: FormatRegistry

  /// A converter of every format in `registry` (by default, every format deckport has).
  public init(registry: FormatRegistry = .standard) {
    self.registry = registry
  }

  /// Reads `input` and writes it to `output`.
  ///
  /// - Parameter onWarning: called with each warning as soon as it is known, so a caller can
  ///   show it even when `strict` then fails the conversion.
  /// - Throws: ``DeckError`` when the input cannot be read, the output format cannot be told,
  ///   the output exists (without `replacing`) or is the input, with `strict` when there were
  ///   warnings (``DeckError/Kind/notFaithful``, carrying them as its ``DeckError/diagnostics``),
  ///   or when writing fails.
  public func convert(
    input: String, output: String, options: ConversionOptions = ConversionOptions(),
    onWarning: (Diagnostic) -> Void = { _ in }
  ) throws -> ConversionReport {
    let outputLocation = SourceLocation(file: output)
    let format = try outputFormat(named: options.to, for: output)
    if SameFile.check(input, output) {
      throw DeckError(.invalidRequest, at: outputLocation, "is the input file; deckport never changes its input")
    }
    // Media the input declares a SHA-1 or size for are checked by the writer as it reads them,
    // and the rest before anything is kept: each file's bytes are read and hashed once.
    var readContext = FormatReadContext(options: options.formats, progress: options.progress)
    readContext.defersMediaChecks = true
    let deck = try DeckLoader(registry: registry).load(path: input, format: options.from, context: readContext)
    let report = try write(
      deck, as: format, to: output, options: options, warningsAt: SourceLocation(file: input), onWarning: onWarning)
    // The deck read is freed on another thread (with the one written): the caller need not wait.
    BackgroundRelease.release(consume deck)
    return report
  }

  /// Writes `deck` to `output`: a deck an app made (``DeckBuilder``), or one it loaded
  /// (``DeckLoader``) and changed. The output is put in place as ``convert(input:output:options:onWarning:)``
  /// puts it: whole, or not at all.
  ///
  /// ```swift
  /// let report = try DeckConverter().write(builder.build(), to: "Spanish.apkg")
  /// ```
  ///
  /// `options.from` is not used; `options.to`, or else the output's name, says the format. The
  /// deck's own ``LoadedDeck/warnings`` are reported first (and, with `strict`, fail the write
  /// before anything is written).
  ///
  /// - Throws: ``DeckError`` when the output format cannot be told, the output exists (without
  ///   `replacing`), with `strict` when there were warnings (``DeckError/Kind/notFaithful``,
  ///   carrying them as its ``DeckError/diagnostics``), or when writing fails.
  public func write(
    _ deck: LoadedDeck, to output: String, options: ConversionOptions = ConversionOptions(),
    onWarning: (Diagnostic) -> Void = { _ in }
  ) throws -> ConversionReport {
    let format = try outputFormat(named: options.to, for: output)
    return try write(
      deck, as: format, to: output, options: options, warningsAt: SourceLocation(file: output), onWarning: onWarning)
  }

  /// Reports `deck`'s warnings (failing at `warningsLocation` with `strict`), then writes it to
  /// `output` in `format`.
  private func write(
    _ whole: LoadedDeck, as format: any DeckFormat, to output: String, options: ConversionOptions,
    warningsAt warningsLocation: SourceLocation, onWarning: (Diagnostic) -> Void
  ) throws -> ConversionReport {
    let outputLocation = SourceLocation(file: output)
    var deck = whole
    var selection: DeckSelection?
    if !options.choices.keepsEverything {
      (deck.collection, selection) = try options.choices.applied(
        to: whole.collection, spelling: AnkiNameSpelling(formatName: whole.formatName), at: warningsLocation)
    }
    var warnings = deck.warnings
    warnings.forEach(onWarning)
    try failIfStrict(options, warnings, at: warningsLocation)

    if format.description.changesInPlace {
      var report = try writeInPlace(
        deck, format: format, output: output, options: options, warnings: warnings, onWarning: onWarning)
      report.selection = selection
      return report
    }
    let outputExisted = FileManager.default.fileExists(atPath: output)
    var context = FormatWriteContext(destination: output, options: options.formats, progress: options.progress)
    let summaryAhead = SummaryAhead(formatName: format.name.rawValue)
    context.announceWritten = { summaryAhead.start($0) }
    func write(_ temporaryPath: String) throws -> LoadedDeck {
      let result = try Self.write(deck, as: format, to: temporaryPath, context: context)
      try deck.collection.checkPendingMedia()
      result.warnings.forEach(onWarning)
      warnings += result.warnings
      try failIfStrict(options, result.warnings, at: outputLocation)
      return LoadedDeck(collection: result.written, formatName: format.name.rawValue, warnings: warnings)
    }
    let written: LoadedDeck
    let bytes: Int64?
    if options.dryRun {
      let scratch = try TemporaryDirectory(prefix: "deckport-dry-run-")
      defer { scratch.remove() }
      let scratchPath = scratch.path(for: "output")
      if format.description.isFolder {
        try FileManager.default.createDirectory(atPath: scratchPath, withIntermediateDirectories: false)
      }
      written = try write(scratchPath)
      bytes = Self.fileSize(scratchPath)
    } else if format.description.isFolder {
      written = try AtomicOutput.writeFolder(to: output, replacing: options.replacing, write)
      bytes = nil
    } else {
      written = try AtomicOutput.write(to: output, replacing: options.replacing, write)
      bytes = Self.fileSize(output)
    }
    var report = ConversionReport(
      inputFormat: deck.formatName, outputFormat: format.name, warnings: warnings,
      summary: summaryAhead.summary(of: written),
      dryRun: options.dryRun, bytes: bytes, outputExisted: outputExisted)
    report.selection = selection
    // The deck written is freed on another thread: the caller need not wait for it.
    BackgroundRelease.release(consume written)
    return report
  }

  /// The format `name` means for writing, or the one `output`'s name (or, for an existing file,
  /// its content) shows.
  ///
  /// - Throws: ``DeckError/Kind/unknownFormat`` when neither tells, ``DeckError/Kind/invalidRequest``
  ///   for a name no format writes.
  public func outputFormat(named name: FormatName?, for output: String) throws -> any DeckFormat {
    let location = SourceLocation(file: output)
    if let name {
      guard let format = registry.writer(named: name) else {
        throw DeckError(.invalidRequest, at: location, "deckport does not write \(name.rawValue)")
      }
      return format
    }
    guard let format = registry.detectOutput(path: output) else {
      throw DeckError(.unknownFormat, at: location, "cannot tell the output format from the name")
    }
    return format
  }

  /// Writes `deck` with `format`; the result's warnings end with what the format loses that
  /// only the converter can tell (``ModificationTimeLoss``).
  private static func write(
    _ deck: LoadedDeck, as format: any DeckFormat, to path: String, context: FormatWriteContext
  ) throws -> DeckWriteResult {
    var result = try format.write(deck.collection, to: path, context: context)
    let location = SourceLocation(file: context.destination)
    if let lost = ModificationTimeLoss.warning(writing: deck, as: format.description, at: location) {
      result.warnings.append(lost)
    }
    return result
  }

  /// The size of the file at `path`, or nil when it cannot be told.
  private static func fileSize(_ path: String) -> Int64? {
    FileManager.default.fileSize(atPath: path).map { Int64(clamping: $0) }
  }

  /// Writes a deck into a format changed in place (app storage), which keeps its own
  /// all-or-nothing write, backup and read-back verification. With `strict`, the write is first
  /// done as a dry run, so that a warning fails the conversion before anything is changed.
  private func writeInPlace(
    _ deck: LoadedDeck, format: any DeckFormat, output: String, options: ConversionOptions,
    warnings readWarnings: [Diagnostic], onWarning: (Diagnostic) -> Void
  ) throws -> ConversionReport {
    let context = FormatWriteContext(
      destination: output, options: options.formats, progress: options.progress, existingOutput: options.existingOutput,
      dryRun: options.dryRun)
    // Written in place: nothing is changed before every media file has been checked.
    try deck.collection.checkPendingMedia()
    if options.strict && !options.dryRun {
      var trial = context
      trial.dryRun = true
      let planned = try Self.write(deck, as: format, to: output, context: trial)
      planned.warnings.forEach(onWarning)
      try failIfStrict(options, planned.warnings, at: SourceLocation(file: output))
    }
    let result = try Self.write(deck, as: format, to: output, context: context)
    result.warnings.forEach(onWarning)
    if options.dryRun { try failIfStrict(options, result.warnings, at: SourceLocation(file: output)) }
    let warnings = readWarnings + result.warnings
    let report = result.details as? AppWriteReport
    return ConversionReport(
      inputFormat: deck.formatName, outputFormat: format.name, warnings: warnings,
      summary: DeckSummary(
        LoadedDeck(collection: result.written, formatName: format.name.rawValue, warnings: warnings)),
      appWrite: report, dryRun: options.dryRun, outputExisted: report.map { !$0.created } ?? false)
  }

  /// With `strict`, fails at `location` when there are `warnings`: the error carries them
  /// (``DeckError/diagnostics``), and its message counts them and names the first, so that it
  /// says on its own why nothing was written.
  private func failIfStrict(_ options: ConversionOptions, _ warnings: [Diagnostic], at location: SourceLocation) throws
  {
    guard options.strict, let first = warnings.first else { return }
    let place = first.location.exactDescription
    let warning: DeckMessage = "\(place.isEmpty ? "" : place + ": ")[\(first.category)] \(first.wording)"
    let count = CountedNoun.phrase(warnings.count, "warning")
    throw DeckError(
      .notFaithful, at: location,
      warnings.count == 1
        ? "\(setting: .strict): \(count), so nothing was written: \(warning)"
        : "\(setting: .strict): \(count), so nothing was written; the first: \(warning)",
      diagnostics: warnings)
  }
}
