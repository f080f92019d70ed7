import DeckCore

extension LoadedDeck {
  /// The format the deck was read as: the one it says, or the registry's format of its name (a
  /// deck made in code, named `json`); nil for a name no format has.
  var readFormat: FormatDescription? {
    format ?? FormatRegistry.standard.format(named: FormatName(formatName))?.description
  }

  /// The parts of a deck the deck's format holds (everything, for a format nobody describes).
  var heldAspects: Set<DeckAspect> {
    Set(readFormat?.holds ?? DeckAspect.allCases)
  }
}
