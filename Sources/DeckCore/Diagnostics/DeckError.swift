/// The one error type every deckport reader and writer throws.
///
/// The message is the product: `description` renders as `<location>: <message>`, for example
/// `broken.apkg: member 'media': not a zstd frame (Unknown frame descriptor)`, and the CLI prints
/// exactly that line.
public struct DeckError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is; the CLI maps it to an exit status.
  public enum Kind: String, Sendable, Hashable {
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
    /// Writing an output failed.
    case writeFailed
    /// The request cannot be carried out (bad combination of options, refused overwrite).
    case invalidRequest
    /// `--strict` was asked for and something could not be kept faithfully.
    case notFaithful
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// Where the failure was found.
  public var location: SourceLocation
  /// What went wrong, as a sentence fragment without the location.
  public var message: String

  /// Creates an error at `location`.
  public init(_ kind: Kind, at location: SourceLocation, _ message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): \(message)" }
}
