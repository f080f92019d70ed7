import DeckCore
import DeckIO
import Foundation

/// Reads any input deckport understands into the shared model, through the formats of a
/// ``FormatRegistry``.
public struct DeckLoader: Sendable {
  /// The formats the loader knows.
  public var registry: FormatRegistry

  /// A loader of every format in `registry` (by default, every format deckport has).
  public init(registry: FormatRegistry = .standard) {
    self.registry = registry
  }

  /// Reads the file or folder at `path`, in `format` (a name `--from` takes) or in the format
  /// its extension or content shows. `options` hold each format's options (how to read CSV,
  /// where app storage keeps its records, how much an Anki package may unpack to); `progress`,
  /// when given, hears what the reader is doing.
  ///
  /// - Throws: ``DeckError`` naming the file (and the place in it): ``DeckError/Kind/unreadableFile``
  ///   when it is missing or is a folder that cannot be read; ``DeckError/Kind/unknownFormat`` when
  ///   no format is named and neither its name nor its content tells one (a folder that is no deck
  ///   folder); ``DeckError/Kind/wrongFormat`` when the format named reads a file and `path` is a
  ///   folder, or the other way round; ``DeckError/Kind/invalidRequest`` for a format deckport does
  ///   not read; and the format's own errors when the input is damaged.
  public func load(
    path: String, format name: FormatName? = nil, options: FormatOptions = FormatOptions(),
    progress: ProgressReporter? = nil
  ) throws -> LoadedDeck {
    try load(path: path, format: name, context: FormatReadContext(options: options, progress: progress))
  }

  /// Reads the file or folder at `path`, as ``load(path:format:options:progress:)`` does, with
  /// the reader's whole `context` (a converter defers media checks to its writer).
  func load(path: String, format name: FormatName?, context: FormatReadContext) throws -> LoadedDeck {
    let location = SourceLocation(file: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw DeckError(.unreadableFile, at: location, "no such file")
    }
    // A folder that cannot be read is not one without a deck: said before any format looks in.
    if isDirectory.boolValue, let reason = FileManager.default.unreadableFolderReason(atPath: path) {
      throw DeckError(.unreadableFile, at: location, "is a folder that cannot be read (\(reason))")
    }
    let format: any DeckFormat
    var overruled: (any DeckFormat)?
    if let name {
      guard let named = registry.reader(named: name) else {
        throw DeckError(.invalidRequest, at: location, "deckport does not read \(name.rawValue)")
      }
      guard isDirectory.boolValue == named.description.isFolder else {
        throw DeckError(
          .wrongFormat, at: location,
          isDirectory.boolValue
            ? "is a folder, not a file: \(name.rawValue) is read from a file"
            : "is a file, not a folder: \(name.rawValue) is read from a folder")
      }
      format = named
    } else if case (let detected?, let named) = registry.detection(path: path) {
      format = detected
      overruled = named
    } else if isDirectory.boolValue {
      let folders = registry.formats.filter { $0.description.reads && $0.description.isFolder }.map(\.name.rawValue)
      throw DeckError(
        .unknownFormat, at: location,
        "is a folder holding none of the folder formats deckport reads (\(folders.joined(separator: ", ")))")
    } else {
      throw DeckError(.unknownFormat, at: location, "cannot tell the format from the name or the content")
    }
    guard let named = overruled else {
      var deck = try format.read(path: path, context: context)
      deck.format = format.description
      return deck
    }
    // The content overruled the name: said in a warning, and in the error when reading fails.
    let overruling: DeckMessage =
      "the name says \(named.name.rawValue), but the content is \(format.name.rawValue), so it is read as that; to read it as \(named.name.rawValue), name the format: \(setting: .inputFormat) \(named.name.rawValue)"
    var deck: LoadedDeck
    do {
      deck = try format.read(path: path, context: context)
    } catch let error as DeckError {
      throw DeckError(error.kind, at: error.location, "\(error.wording) (\(overruling))", details: error.details)
    }
    deck.format = format.description
    deck.warnings.insert(Diagnostic(.formatFromContent, at: location, overruling), at: 0)
    return deck
  }
}
