import DeckCore

extension DeckComparison {
  /// The parts both formats must hold to tell what Anki's import would take: note types by id
  /// with their field names, and modification times.
  static let ankiImportAspects: Set<DeckAspect> = [.identities, .noteTypes, .fieldNames, .modificationTimes]

  /// What Anki's import of the new deck, with the update choices `options`, does to a collection
  /// holding the old one (``DeckDifference/AnkiImportPreview``), or nil when a format lacks what
  /// it takes.
  /// `noteChanges`, `noteTypeChanges` and `cardChanges` are the notes, note types and cards the
  /// comparison found changed: a note counts as changed here exactly when the diff lists its
  /// fields or tags as changed. `cardAdditions` are the cards added to notes both decks have.
  func ankiImportPreview(
    noteChanges: [DeckDifference.NoteChange], noteTypeChanges: [DeckDifference.NoteTypeChange],
    cardChanges: [DeckDifference.CardChange], cardAdditions: [DeckDifference.CardEntry],
    options: DeckDifference.AnkiImportOptions
  ) -> DeckDifference.AnkiImportPreview? {
    guard Self.ankiImportAspects.isSubset(of: compared) else { return nil }
    let merge = options.mergeNoteTypes ? ankiNoteTypeMerge(options: options) : nil
    if let merge, !merge.kindConflicts.isEmpty {
      // Anki refuses the whole import.
      return DeckDifference.AnkiImportPreview(
        options: options, counts: .init(new: 0, updated: 0, kept: 0, conflicting: 0), notesNotTaken: [],
        noteTypesNotTaken: merge.kindConflicts.sorted { ($0.name, $0.id) < ($1.name, $1.id) }, cardsNotTaken: 0,
        cardsAdded: 0, cardsAddedToKeptNotes: 0, noteTypesMerged: [])
    }
    var losingText: [Int64: Int] = [:]
    let contentChanged = Set(
      noteChanges.filter { !$0.fields.isEmpty || !$0.tagsAdded.isEmpty || !$0.tagsRemoved.isEmpty }.map(\.guid))
    var counts = DeckDifference.AnkiImportCounts(new: 0, updated: 0, kept: 0, conflicting: 0)
    var notesNotTaken: [DeckDifference.NoteNotTaken] = []
    var conflictsByNoteType: [Int64: Int] = [:]
    var notesTaken: [String: Bool] = [:]  // by GUID, the collection's notes Anki does not skip: updated or not
    // Each note type's verdict once, not once per note.
    let layoutKept = Dictionary(
      new.noteTypes.map { ($0.id, keepsLayout($0.id)) }, uniquingKeysWith: { first, _ in first })
    // Anki matches by GUID alone: the first note of each GUID.
    for guid in newNotes.keys.sorted() where Self.isFirstOfGUID(guid) {
      guard let note = newNotes[guid] else { continue }
      guard let before = oldNotes[guid] else {
        counts.new += 1
        continue
      }
      let modified = DeckDifference.Change(old: before.modificationTime, new: note.modificationTime)
      let noteTypeName = newNoteTypes[note.noteTypeID]?.name ?? Self.unknownNoteType(note.noteTypeID)
      if let merge {
        // Nothing conflicts. A note the merge rewrites before Anki reads the times is the
        // collection's latest version: later than the package's, and of another time (`always`).
        let rewritten = merge.rewritesBeforeReading(noteTypeID: before.noteTypeID)
        let times = rewritten ? DeckDifference.Change(old: Int64.max, new: note.modificationTime) : modified
        if options.updateNotes.updates(times) {
          counts.updated += 1
          notesTaken[guid] = true
          let missing = merge.movedNotes.contains(guid) ? [] : merge.missingFieldPositions[note.noteTypeID] ?? []
          if missing.contains(where: { before.fields.indices.contains($0) && !before.fields[$0].isEmpty }) {
            losingText[note.noteTypeID, default: 0] += 1
          }
        } else {
          counts.kept += 1
          notesTaken[guid] = false
          if contentChanged.contains(guid) {
            let reason: DeckDifference.NoteNotTaken.Reason =
              rewritten && options.updateNotes == .ifNewer ? .rewrittenByMerge : options.updateNotes.refusal()
            notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: reason, modified: modified))
          }
        }
      } else if before.noteTypeID != note.noteTypeID {
        counts.conflicting += 1
        notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: .noteTypeChanged, modified: modified))
      } else if layoutKept[note.noteTypeID] == false {
        counts.conflicting += 1
        conflictsByNoteType[note.noteTypeID, default: 0] += 1
      } else if options.updateNotes.updates(modified) {
        counts.updated += 1
        notesTaken[guid] = true
      } else {
        counts.kept += 1
        notesTaken[guid] = false
        if contentChanged.contains(guid) {
          notesNotTaken.append(
            .init(guid: guid, noteType: noteTypeName, reason: options.updateNotes.refusal(), modified: modified)
          )
        }
      }
    }
    var noteTypesNotTaken: [DeckDifference.NoteTypeNotTaken] = []
    let changedIDs = Set(noteTypeChanges.map(\.id))
    let choiceChangedIDs = Set(
      noteTypeChanges.filter { change in
        change.rename != nil || !change.fields.renamed.isEmpty || !change.templates.renamed.isEmpty
          || !change.templateTextChanged.isEmpty || change.cssChanged || !change.settings.isEmpty
      }.map(\.id))
    for noteType in new.noteTypes {
      guard let before = oldNoteTypes[noteType.id] else { continue }
      let modified = DeckDifference.Change(old: before.modificationTime, new: noteType.modificationTime)
      if merge != nil {
        // Fields and templates added are merged in whatever the choice; the rest follows it.
        if choiceChangedIDs.contains(noteType.id) && !options.updateNoteTypes.takesWhenMerging(modified) {
          noteTypesNotTaken.append(
            .init(
              id: noteType.id, name: noteType.name, reason: options.updateNoteTypes.refusal(), modified: modified,
              conflictingNotes: 0))
        }
      } else if layoutKept[noteType.id] == false {
        noteTypesNotTaken.append(
          .init(
            id: noteType.id, name: noteType.name, reason: .layoutChanged, modified: modified,
            conflictingNotes: conflictsByNoteType[noteType.id] ?? 0))
      } else if changedIDs.contains(noteType.id) && !options.updateNoteTypes.updates(modified) {
        noteTypesNotTaken.append(
          .init(
            id: noteType.id, name: noteType.name, reason: options.updateNoteTypes.refusal(),
            modified: modified, conflictingNotes: 0))
      }
    }
    noteTypesNotTaken.sort { ($0.name, $0.id) < ($1.name, $1.id) }
    let cardsNotTaken = cardChanges.filter { oldNotes[$0.guid] != nil && newNotes[$0.guid] != nil }.count
    let added = cardAdditions.compactMap { notesTaken[$0.guid] }
    var merged: [DeckDifference.NoteTypeMerge] = []
    for var entry in merge.map({ Array($0.merges.values) }) ?? [] {
      entry.notesLosingText = losingText[entry.id] ?? 0
      merged.append(entry)
    }
    merged.sort { ($0.name, $0.id) < ($1.name, $1.id) }
    return DeckDifference.AnkiImportPreview(
      options: options, counts: counts, notesNotTaken: notesNotTaken, noteTypesNotTaken: noteTypesNotTaken,
      cardsNotTaken: cardsNotTaken, cardsAdded: added.count, cardsAddedToKeptNotes: added.filter { !$0 }.count,
      noteTypesMerged: merged)
  }

  /// Whether Anki takes the new deck's note type `id` as the collection's note type of that id:
  /// the collection has none (Anki adds it under its id), or its fields and templates match in
  /// number and order, each position by its Anki id where both sides have one and by its name
  /// where not. Otherwise Anki imports it as a new note type.
  private func keepsLayout(_ id: Int64) -> Bool {
    guard let after = newNoteTypes[id], let before = oldNoteTypes[id] else { return true }
    func match(_ old: [(Int64?, String)], _ new: [(Int64?, String)]) -> Bool {
      old.count == new.count
        && zip(old, new).allSatisfy { old, new in
          if let oldID = old.0, let newID = new.0 { return oldID == newID }
          return old.1 == new.1
        }
    }
    return match(before.fields.map { ($0.ankiID, $0.name) }, after.fields.map { ($0.ankiID, $0.name) })
      && match(before.templates.map { ($0.ankiID, $0.name) }, after.templates.map { ($0.ankiID, $0.name) })
  }
}
