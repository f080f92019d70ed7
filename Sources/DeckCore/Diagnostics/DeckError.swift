/// The one error type every deckport reader and writer throws.
///
/// The message is the product: `description` renders as `<location>: <message>`, for example
/// `broken.apkg: member 'media': not a zstd frame (Unknown frame descriptor)`, and the CLI prints
/// exactly that line. Control and bidirectional characters in it (from a file name, a deck name,
/// an excerpt of the input) are shown as ``TerminalText`` shows them, so printing an error can
/// never drive the terminal; ``message`` and ``location`` keep them.
public struct DeckError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is; the CLI maps it to an exit status.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The input file does not exist or cannot be opened.
    case unreadableFile
    /// The input is not in the expected container or encoding (not a zip, not SQLite, not zstd).
    case wrongFormat
    /// A required part of the input is absent (a zip member, a table, a key).
    case missingPart
    /// The input is of the right kind but its content is damaged or inconsistent.
    case corrupt
    /// The input needs a newer reader (an unknown package or schema version).
    case unsupportedVersion
    /// Decompressed data would exceed a safety limit.
    case limitExceeded
    /// What the input asks to be held in memory would exceed a safety limit (notes filled with
    /// empty values for the thousands of fields they leave out).
    case memoryLimitExceeded
    /// Writing an output failed.
    case writeFailed
    /// The request cannot be carried out (bad combination of options, refused overwrite).
    case invalidRequest
    /// Neither the name nor the content tells the format, and none was named.
    case unknownFormat
    /// Strict conversion (``DeckSetting/strict``) was asked for and something could not be kept
    /// faithfully: the error's ``DeckError/diagnostics`` are the warnings.
    case notFaithful

    /// A sentence on what this kind of failure means, naming a setting as ``DeckSetting``.
    public var explanation: DeckMessage {
      switch self {
      case .unreadableFile: "the file does not exist or cannot be opened"
      case .wrongFormat: "the input is not in the container or encoding its format needs"
      case .missingPart: "a part the format requires is absent"
      case .corrupt: "the input is of the right kind, but its content is damaged or inconsistent"
      case .unsupportedVersion: "the input needs a newer reader"
      case .limitExceeded: "unpacking would pass a safety limit on size"
      case .memoryLimitExceeded: "the input would take more memory than a safety limit allows"
      case .writeFailed: "writing the output failed"
      case .invalidRequest: "the request cannot be carried out as given"
      case .unknownFormat: "the format can be told neither from the name nor from the content"
      case .notFaithful: "\(setting: .strict): something could not be kept faithfully"
      }
    }
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// Where the failure was found.
  public var location: SourceLocation
  /// What went wrong, as a sentence fragment without the location, with the settings it names
  /// kept typed (``DeckMessage``).
  public var wording: DeckMessage
  /// Facts for whoever digs deeper (a library's own error code, exact byte counts, offsets),
  /// one per line; the CLI prints them with `--verbose`.
  public var details: [String]
  /// The warnings that made the failure, for an app to list: those of a strict conversion
  /// (``Kind/notFaithful``), whose message counts them and names the first. Empty for other
  /// errors.
  public var diagnostics: [Diagnostic]

  /// Creates an error at `location`.
  ///
  /// A string literal goes to the initialiser that takes a ``DeckMessage`` instead, so that a
  /// message it interpolates keeps its settings typed.
  @_disfavoredOverload
  public init(
    _ kind: Kind, at location: SourceLocation, _ message: String, details: [String] = [],
    diagnostics: [Diagnostic] = []
  ) {
    self.init(kind, at: location, DeckMessage(message), details: details, diagnostics: diagnostics)
  }

  /// Creates an error at `location` whose message names settings
  /// (`"…; name one with \(setting: .recordKey)"`).
  public init(
    _ kind: Kind, at location: SourceLocation, _ wording: DeckMessage, details: [String] = [],
    diagnostics: [Diagnostic] = []
  ) {
    self.kind = kind
    self.location = location
    self.wording = wording
    self.details = details
    self.diagnostics = diagnostics
  }

  /// What went wrong, as a sentence fragment without the location, settings named as the library
  /// spells them; setting it replaces ``wording`` with plain words.
  public var message: String {
    get { wording.text }
    set { wording = DeckMessage(newValue) }
  }

  /// `<location>: <message>` on one line, safe to print on a terminal; the message alone when the
  /// location names nothing (an app's own search text, say).
  public var description: String {
    let place = location.exactDescription
    return TerminalText.escaped(place.isEmpty ? message : "\(place): \(message)")
  }

  /// The error with each setting its message names written as `name` gives it, in plain words
  /// (so `message` and `description` show those names).
  public func naming(_ name: (DeckSetting) -> String) -> DeckError {
    var copy = self
    copy.wording = DeckMessage(wording.text(naming: name))
    copy.diagnostics = diagnostics.map { $0.naming(name) }
    return copy
  }

  /// A sentence on what this kind of failure means (``Kind/explanation`` in the library's words).
  public var kindExplanation: String { kind.explanation.text }
}
