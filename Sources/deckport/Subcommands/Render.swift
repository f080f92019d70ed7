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
        Sound tags stay as [sound:...] and type-in-the-answer fields as [[type:...]]. A card whose \
        front is blank, a cloze card without its cloze, or a template Anki cannot parse shows \
        Anki's message, and a warning names the card (with --strict, exit status 1).

        Prints, by card id, each card's id, note type, template and deck, then its front and \
        back. With --json, prints one JSON object with the keys format, cards (id, note, \
        noteType, noteTypeId, template, deck, question, answer, problem), styling (noteTypeId, \
        noteType, css; one entry for each note type the cards use) and, with --only-deck or \
        --only-tag, selection. A card's noteTypeId finds its styling: two note types of a file \
        may share a name.

        Decks and note types are named as Anki shows them once it has opened the file (as \
        {{Deck}} and {{Type}} show them): a deck's name as Anki stores it, and of two decks or \
        two note types whose names Anki takes for one (ignoring case), one renamed with _ \
        (alpha_, Twin_). Which of the two Anki renames differs from one opening to the next; \
        render keeps the name for deck 1, else the first in the file, and a warning names each \
        one it shows renamed.
        """)

    @OptionGroup var report: DeckReportArguments

    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
      try CardPreview.print(report, diagnostics: diagnostics)
    }
  }
}
