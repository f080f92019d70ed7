/// A format deckport reads, writes or both: one conforming value per format in its own module,
/// and one line for it in the registry (`FormatRegistry` in DeckConversion), which is all that
/// detection, loading, writing and the CLI's format lists go through.
///
/// A format that only reads or only writes says so in its ``description`` and leaves the other
/// method to its default, which refuses.
public protocol DeckFormat: Sendable {
  /// The format's name, summary, extensions, abilities, layout and losses.
  var description: FormatDescription { get }

  /// Other names `--from` takes for this format (app storage answers to `app` as well).
  var inputAliases: [FormatName] { get }

  /// Extensions under which a file may be this format though another format claims the
  /// extension; the content decides (an app's records in a `.json` file are not a deckport JSON
  /// deck).
  var sharedExtensions: [String] { get }

  /// Whether the file or folder at `path` holds this format, told from its content (its first
  /// bytes, its index file); false when it cannot be read.
  func recognizes(path: String) -> Bool

  /// Whether an existing file at `path` must be written as this format, whatever its name says
  /// (`namedFormat`, the format its extension names, or nil): a Core Data store named
  /// `Model.sqlite` is written as a Core Data store.
  func claimsExistingOutput(path: String, namedFormat: FormatName?) -> Bool

  /// Reads the file or folder at `path`.
  ///
  /// - Throws: ``DeckError`` naming the file and the place in it.
  func read(path: String, context: FormatReadContext) throws -> LoadedDeck

  /// Writes `collection` to `path` (a temporary file or folder for the `file` and `folder`
  /// layouts; the destination itself for `fileInPlace`).
  ///
  /// - Returns: what was written (a format may leave things out, each with a warning).
  /// - Throws: ``DeckError`` naming the destination and the item that could not be written.
  func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws -> DeckWriteResult
}

extension DeckFormat {
  /// The format's name.
  public var name: FormatName { description.name }

  /// No other names.
  public var inputAliases: [FormatName] { [] }

  /// No shared extensions.
  public var sharedExtensions: [String] { [] }

  /// Not told from content.
  public func recognizes(path: String) -> Bool { false }

  /// An existing file is written as its name says.
  public func claimsExistingOutput(path: String, namedFormat: FormatName?) -> Bool { false }

  /// Refuses: the format is not read.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    throw DeckError(.invalidRequest, at: SourceLocation(file: path), "deckport does not read \(name.rawValue)")
  }

  /// Refuses: the format is not written.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    throw DeckError(
      .invalidRequest, at: SourceLocation(file: context.destination), "deckport does not write \(name.rawValue)")
  }
}

/// What a format's reader is given besides the path.
public struct FormatReadContext: Sendable {
  /// The options of every format (each reader takes its own group).
  public var options: FormatOptions
  /// Where the reader reports how far it has come, or nil.
  public var progress: ProgressReporter?
  /// Whether a reader may leave the check of media bytes against what the input declares (a
  /// SHA-1, a size) to the first read of the bytes (``MediaBlob/init(source:checkedOnRead:)``),
  /// so that a writer reads and hashes them once. Whoever sets it must call
  /// ``DeckCollection/checkPendingMedia()`` before keeping anything made from the deck. False
  /// (the default): every declaration is checked while reading.
  package var defersMediaChecks = false

  /// A context with `options` and `progress`.
  public init(options: FormatOptions = FormatOptions(), progress: ProgressReporter? = nil) {
    self.options = options
    self.progress = progress
  }
}

/// What a format's writer is given besides the deck and the path.
public struct FormatWriteContext: Sendable {
  /// The path warnings and errors name: the final destination, not the temporary file.
  public var destination: String
  /// The options of every format (each writer takes its own group).
  public var options: FormatOptions
  /// Where the writer reports how far it has come, or nil.
  public var progress: ProgressReporter?
  /// For formats written in place: what to do when the destination exists.
  public var existingOutput: ExistingFilePolicy
  /// For formats written in place: do everything in a scratch copy, verify it, change nothing.
  public var dryRun: Bool
  /// Called at most once, with what the writer will return as ``DeckWriteResult/written``, as
  /// soon as the writer knows it and while it still writes the file: the converter summarises
  /// the written deck meanwhile. A writer need not call it; one that does passes exactly the
  /// collection it returns.
  package var announceWritten: (@Sendable (DeckCollection) -> Void)?

  /// A context for writing towards `destination`.
  public init(
    destination: String, options: FormatOptions = FormatOptions(), progress: ProgressReporter? = nil,
    existingOutput: ExistingFilePolicy = .refuse, dryRun: Bool = false
  ) {
    self.destination = destination
    self.options = options
    self.progress = progress
    self.existingOutput = existingOutput
    self.dryRun = dryRun
  }
}

/// What a format's writer did.
public struct DeckWriteResult: Sendable {
  /// What was written: the deck, less what the format left out (each with a warning).
  public var written: DeckCollection
  /// What could not be kept or had to change, each naming its item.
  public var warnings: [Diagnostic]
  /// What a format written in place reports beyond that (app storage: the records added,
  /// updated and left unchanged), or nil.
  public var details: (any Sendable)?

  /// A result.
  public init(written: DeckCollection, warnings: [Diagnostic] = [], details: (any Sendable)? = nil) {
    self.written = written
    self.warnings = warnings
    self.details = details
  }

  /// What a writer returned: the deck as written and the warnings.
  public init(_ result: (written: DeckCollection, warnings: [Diagnostic])) {
    self.init(written: result.written, warnings: result.warnings)
  }
}

/// What to do with an output that exists already.
public enum ExistingFilePolicy: String, Sendable, Hashable, CaseIterable {
  /// Refuse and write nothing.
  case refuse
  /// Change it (`--force`).
  case replace
  /// Change it, keeping a copy of the old file beside it first (`--backup`).
  case backup
}
