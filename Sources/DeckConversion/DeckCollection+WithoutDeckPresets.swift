import DeckCore

extension DeckCollection {
  /// This collection as Anki's export holds it with "Include deck presets" off
  /// (`rslib/src/import_export/gather.rs`, `reset_decks`): every normal deck uses option group 1,
  /// and no option group is kept, so that an importing collection's own Default group applies
  /// (a package writer writes Anki's default group 1, which Anki's import does not take over
  /// the collection's own).
  public func withoutDeckPresets() -> DeckCollection {
    var result = self
    for index in result.decks.indices {
      if case .normal = result.decks[index].kind { result.decks[index].kind = .normal(optionsID: 1) }
    }
    result.deckOptions = []
    return result
  }
}
