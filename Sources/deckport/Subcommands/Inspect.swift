import ArgumentParser
import DeckConversion
import DeckCore

extension Deckport {
  /// `deckport inspect FILE`: what a deck file holds.
  struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarise what a deck file holds.",
      discussion: """
        Prints the exact format, the number of notes, cards, reviews and media files, the \
        decks that hold cards, the notes' tags (each with its count of notes; the first 30), \
        the note types with their fields and templates, the media \
        files notes refer to but the file lacks, and the media files nothing refers to (which \
        Anki's import of a deck package leaves out), as the real Anki would find them on import; \
        for a collection, the number of deletion records and collection settings it holds. \
        With --json, prints one JSON object with the keys format (the exact format: \
        apkg-legacy-1, apkg-legacy-2, apkg-latest, colpkg-legacy, colpkg-latest, json, json-dir, \
        crowdanki, csv, tsv, app-plist, app-json, app-sqlite or app-core-data), notes, \
        cards, media, reviews, decks, tags (name, notes), noteTypes (name, kind, fields, \
        templates), \
        unusedNoteTypes, missingMedia, unusedMedia, deletions and settings (counts, when the \
        file holds any) and warnings.

        With --only-deck NAME or --only-tag TAG (each repeatable), the summary is of the part \
        convert keeps with them: the notes with a card in that deck or its subdecks, or with \
        that tag or a subtag, whole, and what they use; a line says how much of the file that \
        is (in --json, selection: decks, tags, kept, read). A name no deck has, or a tag no \
        note has, is an error (exit status 1).
        """)

    @OptionGroup var report: DeckReportArguments

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
      try DeckSummary.print(report, diagnostics: diagnostics)
    }
  }
}
