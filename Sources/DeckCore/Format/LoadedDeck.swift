/// A deck read from a file, with the name of the exact format it was in and the warnings.
public struct LoadedDeck: Sendable {
  /// Everything the file holds.
  public var collection: DeckCollection
  /// The exact format, such as `apkg-legacy-2` or `colpkg-latest`.
  public var formatName: String
  /// What could not be read faithfully, each naming its item.
  public var warnings: [Diagnostic]
  /// The format it was read as (what it can hold), when it was read through a format.
  public var format: FormatDescription?
  /// The ids of the notes whose modification time the reader gave, having none of their own: a
  /// JSON deck's notes without `modified` have their file's time. Writing them to a format
  /// without such times loses nothing of theirs. An app that gives one of them a time of its
  /// own removes its id, so that writing the deck says that time is lost.
  public var notesTimedByReader: Set<Int64> = []

  /// A deck in `formatName` (what `DeckDifference` and `DeckSummary` judge it by), with the
  /// warnings reading it gave.
  public init(
    collection: DeckCollection, formatName: String, warnings: [Diagnostic] = [], format: FormatDescription? = nil
  ) {
    self.collection = collection
    self.formatName = formatName
    self.warnings = warnings
    self.format = format
  }

  /// What a reader returned, read as `format` (whose name the deck takes); `notesTimedByReader`
  /// as ``notesTimedByReader``.
  public init(
    _ read: (collection: DeckCollection, warnings: [Diagnostic]), as format: FormatDescription,
    notesTimedByReader: Set<Int64> = []
  ) {
    self.init(collection: read.collection, formatName: format.name.rawValue, warnings: read.warnings, format: format)
    self.notesTimedByReader = notesTimedByReader
  }
}
