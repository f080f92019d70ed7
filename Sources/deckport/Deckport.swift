import ArgumentParser

/// The `deckport` command: moves flashcard decks between formats without losing anything.
@main
struct Deckport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deckport",
    abstract: "Move flashcard decks between formats without losing anything.",
    discussion: """
      Reads Anki packages (.apkg, .colpkg) of every generation: Anki 2.0 (collection.anki2), \
      Anki 2.1 (collection.anki21) and the latest zstd-compressed layout (collection.anki21b).

      Exit status: 0 on success, 1 when an input is damaged or unreadable (or, with --strict, \
      when anything could not be kept), 64 for a usage error.
      """,
    version: "0.1.0",
    subcommands: [Convert.self, Inspect.self, Migrate.self])
}
