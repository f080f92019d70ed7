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
        cardsAdded: 0, cardsAddedToKeptNotes: 0, noteTypesMerged: [], noteTypesResorted: [])
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
    // The note types whose new sort field Anki takes: it rewrites the collection's notes of them
    // before it reads their modification times.
    let resorted = merge?.resortedNoteTypes ?? resortedNoteTypes(options: options, layoutKept: layoutKept)
    let sharedGUIDs = Set(newNotes.keys.filter { !Self.isFirstOfGUID($0) }.map(Self.guid(ofKey:)))
    for match in ankiMatches() {
      let note = match.note
      guard let before = match.existing else {
        counts.new += 1
        continue
      }
      let guid = note.guid
      // A note whose GUID no other note shares on either side is changed as the diff lists it;
      // one of a shared GUID, against the collection's note of its place among them (which the
      // diff compares it with), or else the one Anki matches it with.
      let changed =
        sharedGUIDs.contains(guid) || !Self.isFirstOfGUID(match.existingKey)
        ? differsInContent(note, from: oldNotes[match.key] ?? before) : contentChanged.contains(guid)
      let modified = DeckDifference.Change(old: before.modificationTime, new: note.modificationTime)
      let noteTypeName = newNoteTypes[note.noteTypeID]?.name ?? Self.unknownNoteType(note.noteTypeID)
      let resortedFirst = resorted[before.noteTypeID] != nil
      if let merge {
        // Nothing conflicts. A note the merge rewrites before Anki reads the times is the
        // collection's latest version: later than the package's, and of another time (`always`).
        let mergedFirst = merge.rewritesBeforeReading(noteTypeID: before.noteTypeID)
        let rewritten = mergedFirst || resortedFirst
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
          if changed {
            let reason: DeckDifference.NoteNotTaken.Reason =
              options.updateNotes != .ifNewer || !rewritten
              ? options.updateNotes.refusal() : mergedFirst ? .rewrittenByMerge : .rewrittenBySortField
            notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: reason, modified: modified))
          }
        }
      } else if before.noteTypeID != note.noteTypeID {
        counts.conflicting += 1
        notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: .noteTypeChanged, modified: modified))
      } else if layoutKept[note.noteTypeID] == false {
        counts.conflicting += 1
        conflictsByNoteType[note.noteTypeID, default: 0] += 1
      } else if options.updateNotes.updates(
        resortedFirst ? DeckDifference.Change(old: Int64.max, new: note.modificationTime) : modified)
      {
        counts.updated += 1
        notesTaken[guid] = true
      } else {
        counts.kept += 1
        notesTaken[guid] = false
        if changed {
          let reason: DeckDifference.NoteNotTaken.Reason =
            resortedFirst && options.updateNotes == .ifNewer ? .rewrittenBySortField : options.updateNotes.refusal()
          notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: reason, modified: modified))
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
    var notesByType: [Int64: Int] = [:]
    for note in oldNotes.values { notesByType[note.noteTypeID, default: 0] += 1 }
    let resortedTypes = resorted.compactMap { id, sortField -> DeckDifference.SortFieldRewrite? in
      guard let before = oldNoteTypes[id], let after = newNoteTypes[id] else { return nil }
      let oldSortField =
        before.fields.indices.contains(before.sortFieldIndex) ? before.fields[before.sortFieldIndex].name : ""
      return DeckDifference.SortFieldRewrite(
        id: id, name: after.name, sortField: .init(old: oldSortField, new: sortField),
        notesRewritten: notesByType[id] ?? 0)
    }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    return DeckDifference.AnkiImportPreview(
      options: options, counts: counts, notesNotTaken: notesNotTaken, noteTypesNotTaken: noteTypesNotTaken,
      cardsNotTaken: cardsNotTaken, cardsAdded: added.count, cardsAddedToKeptNotes: added.filter { !$0 }.count,
      noteTypesMerged: merged, noteTypesResorted: resortedTypes)
  }

  /// A note of the new deck (by its key, ``noteKeys(_:)``) and the collection's note Anki's
  /// import matches it with, if any.
  struct AnkiMatch {
    var key: String
    var note: Note
    /// The key of the collection's note it is matched with (empty when there is none).
    var existingKey: String
    var existing: Note?
  }

  /// Each note of the new deck, sorted by key, with the note Anki's import matches it with: the
  /// collection's last note (by id, the order notes are read in) of its GUID, whichever of the
  /// GUID's notes it is (checked with the backend: each of the package's notes of a GUID is
  /// judged against that one note, and none against a note the import adds).
  func ankiMatches() -> [AnkiMatch] {
    var lastKeys: [String: (occurrence: Int, key: String)] = [:]
    for key in oldNotes.keys {
      let guid = Self.guid(ofKey: key)
      let occurrence = Self.occurrence(ofKey: key)
      if occurrence > lastKeys[guid]?.occurrence ?? 0 { lastKeys[guid] = (occurrence, key) }
    }
    return newNotes.keys.sorted().compactMap { key in
      guard let note = newNotes[key] else { return nil }
      let existingKey = lastKeys[Self.guid(ofKey: key)]?.key ?? ""
      return AnkiMatch(key: key, note: note, existingKey: existingKey, existing: oldNotes[existingKey])
    }
  }

  /// Whether `note` differs from `before` in its fields (by position, a field one lacks read as
  /// empty) or, where both formats hold them, its tags, as ``noteDifferences()`` compares them.
  private func differsInContent(_ note: Note, from before: Note) -> Bool {
    let fieldsDiffer = (0..<max(note.fields.count, before.fields.count)).contains { index in
      (note.fields.indices.contains(index) ? note.fields[index] : "")
        != (before.fields.indices.contains(index) ? before.fields[index] : "")
    }
    return fieldsDiffer || (compared.contains(.tags) && Set(note.tags) != Set(before.tags))
  }

  /// Without merging: the note types Anki takes from the new deck (the same layout, the times
  /// meeting the update choice) that sort by another field than the collection's, with the name
  /// of that field.
  private func resortedNoteTypes(
    options: DeckDifference.AnkiImportOptions, layoutKept: [Int64: Bool]
  ) -> [Int64: String] {
    var result: [Int64: String] = [:]
    for noteType in new.noteTypes where layoutKept[noteType.id] == true {
      guard let before = oldNoteTypes[noteType.id], before.sortFieldIndex != noteType.sortFieldIndex,
        noteType.fields.indices.contains(noteType.sortFieldIndex),
        options.updateNoteTypes.updates(.init(old: before.modificationTime, new: noteType.modificationTime))
      else { continue }
      result[noteType.id] = noteType.fields[noteType.sortFieldIndex].name
    }
    return result
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
