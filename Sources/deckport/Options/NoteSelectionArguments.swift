import ArgumentParser

/// Which notes of a deck a command works on: those of some decks, or with some tags, as Anki's
/// export of a deck or of the notes a search finds keeps them.
struct NoteSelectionArguments: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Only this deck and its subdecks (repeat for several), as Anki's search deck:DECK finds them and its export keeps them: the notes with a card there, whole, and what they use; case ignored, * and _ as wildcards (\\* and \\_ for the characters), * alone for every deck, filtered for the cards in filtered decks.",
      valueName: "deck"))
  var onlyDeck: [String] = []

  @Option(
    help: ArgumentHelp(
      "Only the notes with this tag or a subtag of it (repeat for several), as Anki's search tag:TAG finds them: case ignored, * and _ as wildcards, none for notes without tags; with --only-deck, the notes of those decks that have it.",
      valueName: "tag"))
  var onlyTag: [String] = []

  /// Whether the whole deck is wanted.
  var isEmpty: Bool { onlyDeck.isEmpty && onlyTag.isEmpty }
}
