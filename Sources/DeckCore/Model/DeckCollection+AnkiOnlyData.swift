// What a collection holds that only Anki has a place for, as the writers of formats without a
// place for it report it and leave it out.

extension DeckCollection {
  /// The collection without what only Anki has a place for (``ankiOnlyLosses(at:format:)``):
  /// what a writer of another format writes, and gives back as written.
  package func withoutAnkiOnlyData() -> DeckCollection {
    var result = self
    result.settings = []
    result.tagRegistry = []
    result.deletions = []
    for index in result.decks.indices { result.decks[index].ankiProperties = [] }
    for index in result.deckOptions.indices { result.deckOptions[index].ankiProperties = [] }
    for index in result.noteTypes.indices {
      result.noteTypes[index].ankiProperties = []
      for field in result.noteTypes[index].fields.indices { result.noteTypes[index].fields[field].ankiProperties = [] }
      for template in result.noteTypes[index].templates.indices {
        result.noteTypes[index].templates[template].ankiProperties = []
      }
    }
    return result
  }

  /// The warnings a writer gives for what a collection holds that only Anki has a place for:
  /// the collection's settings, its list of tags, its deletion records, and the
  /// ``AnkiProperty`` values of its decks, note types and option groups (each when there are
  /// any).
  ///
  /// - Parameters:
  ///   - location: the output.
  ///   - format: how the messages name the format ("a CSV file", "app storage").
  ///   - propertyExamples: what the properties warning gives as examples of what is not kept.
  package func ankiOnlyLosses(
    at location: SourceLocation, format: String,
    propertyExamples: String =
      "whether a deck is collapsed, the day's study counts, a deck's own limits and the sync state"
  ) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    if !settings.isEmpty {
      let count = settings.count
      warnings.append(
        Diagnostic(
          .settingsDropped, at: location,
          "the collection's \(count) setting\(count == 1 ? " is" : "s are") not kept (such as \"Next day starts at\", the learn-ahead limit, FSRS and the browser's saved searches): \(format) has no place for them"
        ))
    }
    if !tagRegistry.isEmpty {
      let count = tagRegistry.count
      warnings.append(
        Diagnostic(
          .tagRegistryDropped, at: location,
          "the collection's list of \(CountedNoun.phrase(count, "tag")) (with each one's sync state and whether it is collapsed in the browser) is not kept: \(format) has no place for it; the notes keep their tags"
        ))
    }
    if let dropped = deletionsDroppedWarning(at: location, format: format) { warnings.append(dropped) }
    if let dropped = ankiPropertiesDroppedWarning(at: location, format: format, examples: propertyExamples) {
      warnings.append(dropped)
    }
    return warnings
  }

  /// The warning a writer gives when its format has no place for what Anki keeps of decks, note
  /// types and option groups beyond the model's own properties, or nil when there is nothing.
  private func ankiPropertiesDroppedWarning(at location: SourceLocation, format: String, examples: String)
    -> Diagnostic?
  {
    let decks = decks.filter { !$0.ankiProperties.isEmpty }.count
    let noteTypes = noteTypes.filter { noteType in
      !noteType.ankiProperties.isEmpty || noteType.fields.contains { !$0.ankiProperties.isEmpty }
        || noteType.templates.contains { !$0.ankiProperties.isEmpty }
    }.count
    let optionGroups = deckOptions.filter { !$0.ankiProperties.isEmpty }.count
    guard decks + noteTypes + optionGroups > 0 else { return nil }
    let owners = [(decks, "deck"), (noteTypes, "note type"), (optionGroups, "option group")].filter { $0.0 > 0 }.map {
      CountedNoun.phrase($0.0, $0.1)
    }
    let list = WordList.joined(owners)
    return Diagnostic(
      .ankiPropertiesDropped, at: location,
      "what Anki keeps of \(list) besides their content is not kept (such as \(examples)): \(format) has no place for it"
    )
  }

  /// The warning a writer gives when its format has no place for the collection's deletion
  /// records, or nil when there are none.
  ///
  /// - Parameters:
  ///   - location: the output.
  ///   - format: how the message names the format ("a CSV file", "app storage").
  private func deletionsDroppedWarning(at location: SourceLocation, format: String) -> Diagnostic? {
    guard !deletions.isEmpty else { return nil }
    let count = deletions.count
    return Diagnostic(
      .deletionsDropped, at: location,
      "\(count) deletion record\(count == 1 ? " is" : "s are") not kept (notes, cards or decks deleted since the collection last synced, which Anki sends at its next sync): \(format) has no place for them"
    )
  }
}
