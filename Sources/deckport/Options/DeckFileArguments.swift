import ArgumentParser
import DeckConversion
import DeckCore

/// The one deck file a command reads whole to report on it (`inspect`, `render`), and the options
/// that say how to read it: `--from`, the CSV options, the app storage options, the limits.
struct DeckFileArguments: ParsableArguments {
  @Argument(
    help:
      "The deck file (.apkg, .colpkg, .json, .csv, .tsv, .txt, a CrowdAnki folder, or app storage: .plist, a JSON file of records, .store, .sqlite), or - for standard input."
  )
  var file: String

  @OptionGroup var from: InputFormatArguments<OneInputDeck>

  @OptionGroup(title: "CSV and TSV options") var csv: CSVArguments

  @OptionGroup(title: "App storage options") var app: AppStorageReadingArguments

  @OptionGroup(title: "Limits") var limits: LimitArguments

  /// Reads the deck, with a progress line unless `quiet`; its warnings name the file as `streams`
  /// shows it. Returns the deck and the file's location, as shown.
  func load(shownBy streams: StandardStreams, quiet: Bool) throws -> (deck: LoadedDeck, location: SourceLocation) {
    var formats = FormatOptions()
    for group: any FormatOptionArguments in [csv, app, limits] { try group.fill(&formats) }
    let path = try streams.inputPath(for: file, format: from.format)
    var deck = try ProgressLine.showing(quiet: quiet) { progress in
      try DeckLoader(registry: FormatArguments.registry).load(
        path: path, format: from.format, options: formats, progress: progress.reporter)
    }
    deck.warnings = deck.warnings.map(streams.shown)
    return (deck, SourceLocation(file: streams.shown(path)))
  }
}
