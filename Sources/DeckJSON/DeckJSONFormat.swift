import DeckCore

extension FormatName {
  /// The deckport JSON deck format, media embedded.
  public static let json: FormatName = "json"
  /// The deckport JSON deck as a folder for version control.
  public static let jsonDir: FormatName = "json-dir"
}

/// The deckport JSON deck document (`json`): read with `DeckJSONReader`, written with
/// `DeckJSONWriter`.
public struct DeckJSONFormat: DeckFormat {
  public let description = FormatDescription(
    name: .json, summary: "the deckport JSON deck format, media embedded", extensions: ["json"], reads: true,
    writes: true, textSyntax: .json)

  /// The format.
  public init() {}

  /// A JSON document that begins as a deckport deck does.
  public func recognizes(path: String) -> Bool { DeckJSONReader.looksLikeDeckDocument(path: path) }

  /// Reads the document.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    LoadedDeck(try DeckJSONReader(progress: context.progress).read(path: path), as: description)
  }

  /// Writes the document.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    DeckWriteResult(
      try DeckJSONWriter(progress: context.progress).write(collection, to: path, reportingAs: context.destination))
  }
}

/// A json-dir folder (`json-dir`): the deckport JSON deck split into a file per note, note
/// type and deck, recognised by its index file (`DeckJSONDirectory`).
public struct DeckJSONDirectoryFormat: DeckFormat {
  public let description = FormatDescription(
    name: .jsonDir,
    summary: "the deckport JSON deck as a folder for version control: a file per note, raw media (a folder)",
    reads: true, writes: true, layout: .folder)

  /// The format.
  public init() {}

  /// A folder holding the index file.
  public func recognizes(path: String) -> Bool { DeckJSONDirectory.looksLikeDirectory(path: path) }

  /// Reads the folder.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    LoadedDeck(try DeckJSONDirectoryReader().read(path: path), as: description)
  }

  /// Writes the folder's content into the (new, empty) folder at `path`.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    DeckWriteResult(try DeckJSONDirectoryWriter().write(collection, to: path, reportingAs: context.destination))
  }
}
