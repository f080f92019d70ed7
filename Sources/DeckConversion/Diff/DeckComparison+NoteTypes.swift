import DeckCore

extension DeckComparison {
  /// Note types added, removed and changed: fields and templates added, removed and renamed,
  /// template text and CSS changed (the text only when both formats hold templates), and the
  /// note type's other settings (when both formats hold them). When a
  /// format holds only the note types notes use (a deck package), the others are left out on
  /// both sides.
  func noteTypeDifferences() -> DeckDifference.NoteTypeDifferences {
    guard compared.contains(.noteTypes) else { return DeckDifference.NoteTypeDifferences() }
    let matched = pairedByName(comparedNoteTypes(of: old), comparedNoteTypes(of: new), id: \.id, name: \.name)
    var result = DeckDifference.NoteTypeDifferences(added: matched.added, removed: matched.removed)
    result.changed = matched.pairs.compactMap { change(from: $0.old, to: $0.new) }.sorted {
      ($0.name, $0.id) < ($1.name, $1.id)
    }
    return result
  }

  /// The note types of `collection` this comparison looks at: all, or those notes use.
  func comparedNoteTypes(of collection: DeckCollection) -> [NoteType] {
    guard !compared.contains(.unusedItems) else { return collection.noteTypes }
    let usedIDs = Set(collection.notes.map(\.noteTypeID))
    return collection.noteTypes.filter { usedIDs.contains($0.id) }
  }

  private func change(from before: NoteType, to noteType: NoteType) -> DeckDifference.NoteTypeChange? {
    let fields =
      compared.contains(.fieldNames)
      ? Self.listDifferences(before.fieldNames, noteType.fieldNames).differences : DeckDifference.ListDifferences()
    var templates = DeckDifference.ListDifferences()
    var textChanged: [String] = []
    var cssChanged = false
    if compared.contains(.templates) {
      let matched = Self.listDifferences(before.templates.map(\.name), noteType.templates.map(\.name))
      templates = matched.differences
      textChanged = matched.pairs.compactMap { oldIndex, newIndex in
        let a = before.templates[oldIndex]
        let b = noteType.templates[newIndex]
        return a.questionFormat == b.questionFormat && a.answerFormat == b.answerFormat ? nil : b.name
      }
      cssChanged = before.css != noteType.css
    }
    let rename = before.name == noteType.name ? nil : DeckDifference.Change(old: before.name, new: noteType.name)
    let settings = detailChanges(from: before, to: noteType)
    guard
      rename != nil || !fields.isEmpty || !templates.isEmpty || !textChanged.isEmpty || cssChanged || !settings.isEmpty
    else { return nil }
    return DeckDifference.NoteTypeChange(
      id: noteType.id, name: noteType.name, rename: rename, fields: fields, templates: templates,
      templateTextChanged: textChanged, cssChanged: cssChanged, settings: settings)
  }

  /// How the list of names `after` differs from `before`: a name both have is the same item
  /// (wherever it stands); of the rest, two at the same position are one item renamed, and the
  /// others were added or removed. `pairs` are the (old, new) positions of the same items.
  static func listDifferences(
    _ before: [String], _ after: [String]
  ) -> (differences: DeckDifference.ListDifferences, pairs: [(Int, Int)]) {
    var oldByName: [String: [Int]] = [:]
    for (index, name) in before.enumerated() { oldByName[name, default: []].append(index) }
    var partner: [Int: Int] = [:]  // new position → old position
    for (index, name) in after.enumerated() {
      if var candidates = oldByName[name], !candidates.isEmpty {
        partner[index] = candidates.removeFirst()
        oldByName[name] = candidates
      }
    }
    var taken = Set(partner.values)
    var result = DeckDifference.ListDifferences()
    for index in after.indices where partner[index] == nil {
      if index < before.count && !taken.contains(index) {
        partner[index] = index
        taken.insert(index)
        result.renamed.append(DeckDifference.Change(old: before[index], new: after[index]))
      } else {
        result.added.append(after[index])
      }
    }
    result.removed = before.indices.filter { !taken.contains($0) }.map { before[$0] }
    return (result, after.indices.compactMap { index in partner[index].map { ($0, index) } })
  }
}
