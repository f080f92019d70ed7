import DeckCore

extension DeckComparison {
  /// Notes added, removed and changed (fields by position, tags, note type; with the
  /// modification times of a changed note), by GUID (or by text, ``pairedByText``).
  func noteDifferences() -> DeckDifference.NoteDifferences {
    var result = DeckDifference.NoteDifferences()
    for guid in newNotes.keys.sorted() {
      guard let note = newNotes[guid] else { continue }
      guard let before = oldNotes[guid] else {
        result.added.append(entry(note, noteTypes: newNoteTypes))
        continue
      }
      if let change = change(from: before, to: note, pairing: pairedByText[guid]) {
        result.changed.append(change)
      }
    }
    for guid in oldNotes.keys.sorted() where newNotes[guid] == nil {
      if let note = oldNotes[guid] { result.removed.append(entry(note, noteTypes: oldNoteTypes)) }
    }
    return result
  }

  /// Tags some note of the new side has and no note of the old side has (added), and the other
  /// way round; empty when a format holds no tags.
  func tagDifferences() -> DeckDifference.ItemDifferences {
    guard compared.contains(.tags) else { return DeckDifference.ItemDifferences() }
    let before = Set(old.notes.flatMap(\.tags))
    let after = Set(new.notes.flatMap(\.tags))
    return DeckDifference.ItemDifferences(
      added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
  }

  /// How `note` differs from `before`, or nil when it does not. Notes paired by GUID compare
  /// their fields by position. Of notes paired by text (`pairing`), whose note types may lay the
  /// fields out otherwise, those of the same text compare none, and those of the same plain text
  /// compare their fields that hold plain text, in order (a field of a picture alone is then not
  /// compared; the media are), each character however spelled (``FieldSpelling``).
  private func change(from before: Note, to note: Note, pairing: TextPairing?) -> DeckDifference.NoteChange? {
    let oldType = oldNoteTypes[before.noteTypeID]
    let newType = newNoteTypes[note.noteTypeID]
    let positions: [(old: Int, new: Int)]
    switch pairing {
    case nil: positions = (0..<max(before.fields.count, note.fields.count)).map { ($0, $0) }
    case .sameText, .samePictures: positions = []
    case .samePlainText(let plainTextPositions): positions = plainTextPositions
    }
    var fields: [DeckDifference.FieldChange] = []
    for (oldIndex, newIndex) in positions {
      let oldValue = oldIndex < before.fields.count ? before.fields[oldIndex] : ""
      let newValue = newIndex < note.fields.count ? note.fields[newIndex] : ""
      guard oldValue != newValue else { continue }
      // Records hold text, so how the deck spelled a character (`&#x27;`, `'`) is not theirs
      // to keep.
      if case .samePlainText = pairing, FieldSpelling.canonical(oldValue) == FieldSpelling.canonical(newValue) {
        continue
      }
      fields.append(
        DeckDifference.FieldChange(name: fieldName(newIndex, newType ?? oldType), old: oldValue, new: newValue))
    }
    var typeChange: DeckDifference.Change<String>?
    let oldTypeName = oldType?.name ?? Self.unknownNoteType(before.noteTypeID)
    let newTypeName = newType?.name ?? Self.unknownNoteType(note.noteTypeID)
    if compared.contains(.noteTypes) && oldTypeName != newTypeName {
      typeChange = DeckDifference.Change(old: oldTypeName, new: newTypeName)
    }
    var tagsAdded: [String] = []
    var tagsRemoved: [String] = []
    if compared.contains(.tags) {
      tagsAdded = Set(note.tags).subtracting(before.tags).sorted()
      tagsRemoved = Set(before.tags).subtracting(note.tags).sorted()
    }
    guard !fields.isEmpty || typeChange != nil || !tagsAdded.isEmpty || !tagsRemoved.isEmpty else { return nil }
    let modified =
      compared.contains(.modificationTimes) && before.modificationTime != note.modificationTime
      ? DeckDifference.Change(old: before.modificationTime, new: note.modificationTime) : nil
    return DeckDifference.NoteChange(
      guid: note.guid, noteType: newTypeName, noteTypeChange: typeChange, fields: fields, tagsAdded: tagsAdded,
      tagsRemoved: tagsRemoved, modified: modified)
  }

  /// `note` as a note only one side has.
  private func entry(_ note: Note, noteTypes: [Int64: NoteType]) -> DeckDifference.NoteEntry {
    let noteType = noteTypes[note.noteTypeID]
    return DeckDifference.NoteEntry(
      guid: note.guid, noteType: noteType?.name ?? Self.unknownNoteType(note.noteTypeID),
      fields: note.fields.indices.map {
        DeckDifference.FieldValue(name: fieldName($0, noteType), value: note.fields[$0])
      },
      tags: compared.contains(.tags) ? note.tags : [])
  }

  /// The name of field `index` of `noteType`, or `field N` (counting from 1) when it has none.
  private func fieldName(_ index: Int, _ noteType: NoteType?) -> String {
    guard let noteType, index < noteType.fields.count else { return "field \(index + 1)" }
    return noteType.fields[index].name
  }

  /// How a note type the deck does not define is named.
  static func unknownNoteType(_ id: Int64) -> String { "(missing note type \(id))" }
}
