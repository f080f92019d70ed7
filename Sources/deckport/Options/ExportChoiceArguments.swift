import ArgumentParser
import DeckConversion

/// What of the input `convert` keeps: the choices of Anki's export dialog, as flags.
struct ExportChoiceArguments: ParsableArguments {
  @OptionGroup var selection: NoteSelectionArguments

  @Flag(
    help:
      "Leave out the scheduling, as Anki's export with \"Include scheduling information\" off does: every card new, no review log, no marked or leech tags."
  )
  var withoutScheduling = false

  @Flag(
    help:
      "Leave out the option groups, as Anki's export with \"Include deck presets\" off does: every deck takes the importing collection's Default."
  )
  var withoutDeckPresets = false

  @Flag(
    help:
      "Leave out the media files, as Anki's export with \"Include media\" off does: the notes still name them.")
  var withoutMedia = false

  /// The choices these flags make.
  var choices: ExportChoices {
    ExportChoices(
      onlyDecks: selection.onlyDeck, onlyTags: selection.onlyTag, scheduling: !withoutScheduling,
      deckPresets: !withoutDeckPresets, media: !withoutMedia)
  }
}
