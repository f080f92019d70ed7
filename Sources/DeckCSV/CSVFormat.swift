import DeckCore

extension FormatName {
  /// Comma-separated notes in Anki's text format, or a plain spreadsheet.
  public static let csv: FormatName = "csv"
  /// Tab-separated notes, as Anki's "Notes in Plain Text" export writes them.
  public static let tsv: FormatName = "tsv"
}

extension CSVOptions: FormatOptionGroup {
  /// Every default follows Anki.
  public init() { self.init(separator: nil) }
}

/// CSV and TSV in Anki's text-file dialect (`csv`, `tsv`): read with `CSVReader` (the file's
/// header directives or detection decide the separator, whichever the name), written with
/// `CSVWriter` (a comma or a tab, unless ``CSVOptions/separator`` says otherwise). Both take
/// ``CSVOptions``.
public struct CSVFormat: DeckFormat {
  /// The separator this format writes when the options name none.
  public var defaultSeparator: CSVSeparator
  public let description: FormatDescription

  /// Tags, decks and note types by name, and note GUIDs (the `guid` column Anki and deckport
  /// write); field names only for Anki's stock note types (the reader names the fields of any
  /// other `Field 1`, `Field 2`, …).
  private static let parts: Set<DeckAspect> = [.tags, .noteTypes, .decks, .noteGUIDs]
  private static let partial: [DeckAspect: String] = [.fieldNames: "only those of Anki's stock note types"]
  private static let losses = [
    "scheduling", "review log", "media files", "card templates and styling", "deck options",
    "deck descriptions and note type settings",
    "deletion records", "collection settings", "the collection's list of tags",
    "Anki's other deck and note type properties", "the times notes and note types were last changed",
  ]

  /// `csv`: comma-separated.
  public static let csv = CSVFormat(
    defaultSeparator: .comma,
    FormatDescription(
      name: .csv, summary: "comma-separated notes in Anki's text format, or a plain spreadsheet", extensions: ["csv"],
      reads: true, writes: true, cannotHold: losses, holds: parts, holdsInPart: partial, textSyntax: .delimited))
  /// `tsv`: tab-separated (also `.txt`, as Anki exports it).
  public static let tsv = CSVFormat(
    defaultSeparator: .tab,
    FormatDescription(
      name: .tsv, summary: "tab-separated notes, as Anki's \"Notes in Plain Text\" export writes them",
      extensions: ["tsv", "txt"], reads: true, writes: true, cannotHold: losses, holds: parts, holdsInPart: partial,
      textSyntax: .delimited))

  private init(defaultSeparator: CSVSeparator, _ description: FormatDescription) {
    self.defaultSeparator = defaultSeparator
    self.description = description
  }

  /// Reads the file.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    LoadedDeck(
      try CSVReader(options: context.options[CSVOptions.self], progress: context.progress).read(path: path),
      as: description)
  }

  /// Writes the file.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    var options = context.options[CSVOptions.self]
    options.separator = options.separator ?? defaultSeparator
    let warnings = try CSVWriter(options: options, progress: context.progress)
      .write(collection, to: path, reportingAs: context.destination)
    // A row holds a note's fields and tags; the review log and the media files (each reported
    // in the warnings) are not in the file.
    var written = collection.withoutAnkiOnlyData()
    written.reviews = []
    written.media = []
    return DeckWriteResult(written: written, warnings: warnings)
  }
}
