import DeckConversion
import DeckCore

/// What `inspect` and `render` print about a deck file, or about the part of it `--only-deck` and
/// `--only-tag` choose: lines of text, or one JSON object with `--json`.
protocol DeckReport: DeckPartReport {
  /// The report as text, a line each.
  var lines: [String] { get }
  /// The report as one JSON object.
  func jsonText() throws -> String
  /// The warnings to show after it: the reader's, and the report's own.
  func warnings(reading deck: LoadedDeck, at location: SourceLocation) -> [Diagnostic]
}

extension DeckReport {
  /// Reads the deck `arguments` name, prints the report of it (or of the part chosen), then shows
  /// the warnings (with `--strict`, exit status 1 when there are any).
  static func print(_ arguments: DeckReportArguments, diagnostics: DiagnosticOptions) throws {
    let streams = StandardStreams()
    let (report, warnings) = try CommandFailure.reporting(verbose: diagnostics.verbose, shownBy: streams) {
      let (deck, location) = try arguments.input.load(shownBy: streams, quiet: diagnostics.quiet)
      let selection = arguments.selection
      let report =
        selection.isEmpty
        ? Self(deck) : try Self(deck, onlyDecks: selection.onlyDeck, onlyTags: selection.onlyTag, at: location)
      return (report, report.warnings(reading: deck, at: location))
    }
    if arguments.json {
      StandardOutput.writeJSON(try report.jsonText())
    } else {
      report.lines.forEach(StandardOutput.write)
    }
    try CommandFailure.handle(warnings: warnings, options: diagnostics)
  }
}

extension DeckSummary: DeckReport {
  /// The reader's warnings, as the summary holds them.
  func warnings(reading deck: LoadedDeck, at location: SourceLocation) -> [Diagnostic] { warnings }
}

extension CardPreview: DeckReport {
  /// The reader's warnings, then one for each card shown with Anki's message.
  func warnings(reading deck: LoadedDeck, at location: SourceLocation) -> [Diagnostic] {
    deck.warnings + warnings(at: location)
  }
}
