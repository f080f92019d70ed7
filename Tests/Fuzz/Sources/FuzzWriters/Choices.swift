import DeckConversion
import DeckCore
import FuzzWriting

/// Anki's export choices (``ExportChoices``), read from what is left of the input after the
/// changes: the scheduling, option groups and media kept or not, and a deck and a tag to keep,
/// each the collection's own (as it is, in capitals, or a parent with a wildcard) or any text.
enum Choices {
  static func read(_ input: inout FuzzInput, for collection: DeckCollection) -> ExportChoices {
    let flags = input.byte()
    var choices = ExportChoices(scheduling: flags & 1 == 0, deckPresets: flags & 2 == 0, media: flags & 4 == 0)
    if flags & 8 == 8 { choices.onlyDecks = [name(&input, from: collection.decks.map(\.name))] }
    if flags & 16 == 16 { choices.onlyTags = [name(&input, from: collection.notes.flatMap(\.tags))] }
    return choices
  }

  private static func name(_ input: inout FuzzInput, from names: [String]) -> String {
    let known = input.pick(names + ["x"])
    switch input.byte() % 4 {
    case 0: return input.string()
    case 1: return known.uppercased()
    case 2: return (known.components(separatedBy: "::").first ?? "") + input.pick(["*", "_", "::*", "\\"])
    default: return known
    }
  }
}
