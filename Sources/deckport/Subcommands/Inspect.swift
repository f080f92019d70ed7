import ArgumentParser
import DeckConversion

extension Deckport {
  /// `deckport inspect FILE`: what a deck file holds.
  struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarise what a deck file holds.",
      discussion: """
        Prints the exact format, the number of notes, cards, reviews and media files, the \
        decks that hold cards, the note types with their fields and templates, and the media \
        files notes refer to but the file lacks. With --json, prints one JSON object with the \
        keys format, notes, cards, media, reviews, decks, noteTypes, missingMedia and warnings.
        """)

    @Argument(help: "The deck file to inspect (.apkg, .colpkg).")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Option(help: "The input format, when the extension does not tell.")
    var from: InputFormat?

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
      let deck = try CommandFailure.reporting { try DeckLoader().load(path: file, format: from) }
      let summary = DeckSummary(deck)
      print(json ? try summary.jsonText() : summary.text)
      try CommandFailure.handle(warnings: deck.warnings, options: diagnostics)
    }
  }
}
