import DeckCore

extension FormatName {
  /// The deckport JSON deck format, media embedded.
  public static let json: FormatName = "json"
  /// The deckport JSON deck as a folder for version control.
  public static let jsonDir: FormatName = "json-dir"
}

/// The deckport JSON deck document (`json`): read with `DeckJSONReader`, written with
/// `DeckJSONWriter`.
public struct DeckJSONFormat: ReaderWriterFormat {
  public let description = FormatDescription(
    name: .json, summary: "the deckport JSON deck format, media embedded", extensions: ["json"], reads: true,
    writes: true, textSyntax: .json)

  /// The format.
  public init() {}

  /// A JSON object one of whose top-level members names the deckport deck format
  /// (`"format": "deckport-deck"`), in its first 16 MiB, wherever it stands among them.
  public func recognizes(path: String) -> Bool { DeckportDocumentFormat.namesDeck(path: path) }

  /// A reader reporting to the context's progress reporter, deferring media checks when the
  /// context allows it.
  package func reader(_ context: FormatReadContext) -> DeckJSONReader {
    var reader = DeckJSONReader(progress: context.progress)
    reader.defersMediaChecks = context.defersMediaChecks
    return reader
  }

  /// A writer reporting to the context's progress reporter.
  package func writer(_ context: FormatWriteContext) -> DeckJSONWriter { DeckJSONWriter(progress: context.progress) }

  /// Reads the document with the format's reader; the deck tells which notes have the file's time.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    let read = try reader(context).reading(path: path)
    return LoadedDeck((read.collection, read.warnings), as: description, notesTimedByReader: read.notesTimedByFile)
  }
}

/// A json-dir folder (`json-dir`): the deckport JSON deck split into a file per note, note
/// type and deck, recognised by its index file (`DeckJSONDirectory`).
public struct DeckJSONDirectoryFormat: ReaderWriterFormat {
  public let description = FormatDescription(
    name: .jsonDir,
    summary: "the deckport JSON deck as a folder for version control: a file per note, raw media (a folder)",
    reads: true, writes: true, layout: .folder)

  /// The format.
  public init() {}

  /// A folder holding the index file.
  public func recognizes(path: String) -> Bool { DeckJSONDirectory.looksLikeDirectory(path: path) }

  /// The folder's reader.
  package func reader(_ context: FormatReadContext) -> DeckJSONDirectoryReader { DeckJSONDirectoryReader() }

  /// The folder's writer, which fills the (new, empty) folder at the path it is given.
  package func writer(_ context: FormatWriteContext) -> DeckJSONDirectoryWriter { DeckJSONDirectoryWriter() }

  /// Reads the folder with the format's reader; the deck tells which notes have their note
  /// file's time.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    let read = try reader(context).reading(path: path)
    return LoadedDeck((read.collection, read.warnings), as: description, notesTimedByReader: read.notesTimedByFile)
  }
}

// The reader's own file is left as it is; its `read(path:)` is the requirement.
extension DeckJSONReader: DeckFileReader {}
