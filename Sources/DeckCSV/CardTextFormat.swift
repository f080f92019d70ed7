import DeckCore

extension FormatName {
  /// Rendered cards, a row each, as Anki's "Cards in Plain Text" export writes them.
  public static let cards: FormatName = "cards"
}

/// Anki's "Cards in Plain Text" (`cards`): each card's rendered front and back, tab-separated,
/// written by `CardTextWriter` with ``CSVOptions`` (its separator, and `isHTML` off for plain
/// text). Written only, and only when named (`--to cards`): a `.txt` file is a TSV of notes.
public struct CardTextFormat: DeckFormat {
  public let description = FormatDescription(
    name: .cards, summary: "rendered cards (front and back), as Anki's \"Cards in Plain Text\" export writes them",
    reads: false, writes: true,
    cannotHold: [
      "notes' fields (only what the cards show)", "tags", "note types", "decks", "scheduling", "review log",
      "media files",
    ], holds: [], textSyntax: .delimited, namingExtension: "txt")

  /// The format.
  public init() {}

  /// Writes the file.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    let warnings = try CardTextWriter(options: context.options[CSVOptions.self], progress: context.progress)
      .write(collection, to: path, reportingAs: context.destination)
    // The rows show the notes' cards; nothing of the review log or the media files is in them.
    var written = collection.withoutAnkiOnlyData()
    written.reviews = []
    written.media = []
    return DeckWriteResult(written: written, warnings: warnings)
  }
}
