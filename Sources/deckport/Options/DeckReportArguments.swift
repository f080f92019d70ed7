import ArgumentParser

/// What `inspect` and `render` take: the deck file and how to read it, `--json`, and which notes.
struct DeckReportArguments: ParsableArguments {
  @OptionGroup var input: DeckFileArguments

  @Flag(help: "Print one JSON object instead of text.")
  var json = false

  @OptionGroup(title: "Which notes") var selection: NoteSelectionArguments
}
