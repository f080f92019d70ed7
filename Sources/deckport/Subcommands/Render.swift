import ArgumentParser
import DeckConversion
import DeckCore

extension Deckport {
  /// `deckport render FILE`: what each card of a deck shows.
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show each card's front and back as Anki renders them.",
      discussion: """
        Renders every card's template with its note's fields as Anki does for review (the \
        same HTML as Anki's backend): sections, the special fields ({{Tags}}, {{Deck}}, \
        {{Subdeck}}, {{Type}}, {{Card}}, {{CardFlag}}, {{CardID}}, {{FrontSide}}) and Anki's \
        built-in filters (cloze, cloze-only, hint, text, furigana, kana, kanji, type, tts). \
        Sound tags stay as [sound:…] and type-in-the-answer fields as [[type:…]]. A card whose \
        front is blank, a cloze card without its cloze, or a template Anki cannot parse shows \
        Anki's message, and a warning names the card (with --strict, exit status 1).

        Prints, by card id, each card's id, note type, template and deck, then its front and \
        back. With --json, prints one JSON object with the keys format, cards (id, note, \
        noteType, template, deck, question, answer, problem), styling (noteType, css) and, \
        with --only-deck or --only-tag, selection.
        """)

    @OptionGroup var input: DeckFileArguments

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup(title: "Which notes") var selection: NoteSelectionArguments

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
      let streams = StandardStreams()
      let (warnings, preview) = try CommandFailure.reporting(verbose: diagnostics.verbose, shownBy: streams) {
        let (deck, location) = try input.load(shownBy: streams, quiet: diagnostics.quiet)
        let preview =
          selection.isEmpty
          ? CardPreview(deck)
          : try CardPreview(deck, onlyDecks: selection.onlyDeck, onlyTags: selection.onlyTag, at: location)
        return (deck.warnings + preview.warnings(at: location), preview)
      }
      if json {
        StandardOutput.writeJSON(try preview.jsonText())
      } else {
        preview.lines.forEach(StandardOutput.write)
      }
      try CommandFailure.handle(warnings: warnings, options: diagnostics)
    }
  }
}
