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
      if let change = change(from: before, to: note, fieldsCompared: !pairedByText.contains(guid)) {
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

  /// How `note` differs from `before`, or nil when it does not. Without `fieldsCompared` (a
  /// pair by text), the fields are not compared by position: their text is the same.
  private func change(from before: Note, to note: Note, fieldsCompared: Bool) -> DeckDifference.NoteChange? {
    let oldType = oldNoteTypes[before.noteTypeID]
    let newType = newNoteTypes[note.noteTypeID]
    var fields: [DeckDifference.FieldChange] = []
    for index in 0..<(fieldsCompared ? max(before.fields.count, note.fields.count) : 0) {
      let oldValue = index < before.fields.count ? before.fields[index] : ""
      let newValue = index < note.fields.count ? note.fields[index] : ""
      guard oldValue != newValue else { continue }
      fields.append(
        DeckDifference.FieldChange(name: fieldName(index, newType ?? oldType), old: oldValue, new: newValue))
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
