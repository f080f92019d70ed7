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
    // Which collection note each new note meets: made once, for the merge, the counts and the
    // merge's effects.
    let matches = ankiMatches()
    let merge = options.mergeNoteTypes ? ankiNoteTypeMerge(options: options, matches: matches) : nil
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
    // Without merging, the copies an earlier import made of note types whose layout changed,
    // which Anki takes instead of adding another.
    let copies = merge == nil ? reusedCopies(layoutKept: layoutKept) : [:]
    // The notes of the new deck Anki updates each collection note with, by the collection note's key.
    var updaters: [String: [AnkiMatch]] = [:]
    for match in matches {
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
      // Anki takes the note as one of the copy an earlier import made of its note type, which is
      // the collection's note's own note type: it is then judged by its times.
      let takenAsCopy = copies[note.noteTypeID].map { before.noteTypeID == $0.id } ?? false
      if let merge {
        // Nothing conflicts. A note the merge rewrites before Anki reads the times is the
        // collection's latest version: later than the package's, and of another time (`always`).
        let mergedFirst = merge.rewritesBeforeReading(noteTypeID: before.noteTypeID)
        let rewritten = mergedFirst || resortedFirst
        let times = rewritten ? DeckDifference.Change(old: Int64.max, new: note.modificationTime) : modified
        if options.updateNotes.updates(times) {
          counts.updated += 1
          notesTaken[guid] = true
          updaters[match.existingKey, default: []].append(match)
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
      } else if !takenAsCopy && before.noteTypeID != note.noteTypeID {
        counts.conflicting += 1
        notesNotTaken.append(.init(guid: guid, noteType: noteTypeName, reason: .noteTypeChanged, modified: modified))
      } else if !takenAsCopy && layoutKept[note.noteTypeID] == false {
        counts.conflicting += 1
        conflictsByNoteType[note.noteTypeID, default: 0] += 1
      } else if options.updateNotes.updates(
        resortedFirst ? DeckDifference.Change(old: Int64.max, new: note.modificationTime) : modified)
      {
        counts.updated += 1
        notesTaken[guid] = true
        updaters[match.existingKey, default: []].append(match)
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
    notesNotTaken = Self.withOverwrittenNotes(notesNotTaken, updaters: updaters, newNoteTypes: newNoteTypes) {
      differsInContent($0, from: $1)
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
      } else if let copy = copies[noteType.id] {
        var entry = DeckDifference.NoteTypeNotTaken(
          id: noteType.id, name: noteType.name, reason: .copyReused, modified: modified,
          conflictingNotes: conflictsByNoteType[noteType.id] ?? 0)
        entry.reusedCopy = .init(id: copy.id, name: copy.name)
        noteTypesNotTaken.append(entry)
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
    var added = cardAdditions.compactMap { notesTaken[$0.guid] }
    var textMoved: [Int64: Int] = [:]
    if let merge, !merge.moves.isEmpty {
      let updatedKeys = Set(updaters.keys)
      let effects = ankiMoveEffects(merge.moves, matches: matches, updatedKeys: updatedKeys)
      textMoved = effects.textMoved
      if compared.contains(.scheduling) {
        added = effects.cardsAdded.compactMap { notesTaken[Self.guid(ofKey: $0)] }
      }
    }
    var merged: [DeckDifference.NoteTypeMerge] = []
    for var entry in merge.map({ Array($0.merges.values) }) ?? [] {
      entry.notesLosingText = losingText[entry.id] ?? 0
      entry.notesWithTextMoved = textMoved[entry.id] ?? 0
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

  /// What the merges of moved notes' note types (`moves`) do to the collection's notes, as the
  /// backend makes them (see ``AnkiNoteTypeMerge/Move``): the cards Anki adds, one collection
  /// note key (``noteKeys(_:)``) for each, and by note type, how many of the collection's notes
  /// it rewrote that keep text under another field's name than before (those it does not update
  /// afterwards, `updatedKeys` being the keys of those it does).
  private func ankiMoveEffects(
    _ moves: [AnkiNoteTypeMerge.Move], matches: [AnkiMatch], updatedKeys: Set<String>
  ) -> (cardsAdded: [String], textMoved: [Int64: Int]) {
    func cardOrdinals(_ collection: DeckCollection, _ keys: [Int64: String]) -> [String: Set<Int>] {
      var result: [String: Set<Int>] = [:]
      for card in collection.cards {
        if let key = keys[card.noteID] { result[key, default: []].insert(card.templateOrdinal) }
      }
      return result
    }
    let oldCards = cardOrdinals(old, oldNoteKeys)
    let newCards = cardOrdinals(new, newNoteKeys)
    // Each rewritten note of the collection: its note type, the position of the field each of
    // its fields takes its text from, and the template positions of its cards.
    var states: [String: (type: Int64, sources: [Int?], cards: Set<Int>)] = [:]
    let touched = Set(moves.flatMap { [$0.from, $0.to] })
    for (key, note) in oldNotes where touched.contains(note.noteTypeID) {
      states[key] = (note.noteTypeID, note.fields.indices.map { $0 }, oldCards[key] ?? [])
    }
    // The template position each of the new deck's note types' cards takes, by its position.
    var incoming: [Int64: [Int: Int]] = [:]
    var finalNames: [Int64: [String]] = [:]
    for move in moves {
      let movedKeys = Set(
        matches.filter { $0.existing?.noteTypeID == move.from && $0.note.noteTypeID == move.to }.map(\.existingKey))
      func rewrite(_ key: String) {
        guard let state = states[key] else { return }
        let sources = move.fieldSources.map { source in
          source.flatMap { state.sources.indices.contains($0) ? state.sources[$0] : nil }
        }
        var cards = Set(
          move.templateSources.enumerated().compactMap { position, source in
            source.flatMap { state.cards.contains($0) ? position : nil }
          })
        let named = Set(move.templateSources.compactMap { $0 })
        cards.formUnion(state.cards.filter { !named.contains($0) && $0 >= move.fromTemplateCount })
        states[key] = (move.to, sources, cards)
      }
      // First the collection's notes of the new note type, then the moved ones.
      for (key, state) in states where state.type == move.to { rewrite(key) }
      for key in movedKeys.sorted() where states[key]?.type == move.from { rewrite(key) }
      let previous = incoming[move.to] ?? [:]
      var chained: [Int: Int] = [:]
      for (ord, position) in move.incomingTemplates { chained[ord] = position }
      for (ord, position) in previous { chained[ord] = move.incomingTemplates[position] ?? position }
      incoming[move.to] = chained
      finalNames[move.to] = move.fieldNames
    }
    var added: [String] = []
    var cards: [String: Set<Int>] = [:]  // the cards of each collection note the import has seen
    for match in matches where match.existing != nil {
      var have = cards[match.existingKey] ?? states[match.existingKey]?.cards ?? oldCards[match.existingKey] ?? []
      let remap = incoming[match.note.noteTypeID] ?? [:]
      for ord in (newCards[match.key] ?? []).map({ remap[$0] ?? $0 }).sorted() where !have.contains(ord) {
        added.append(match.existingKey)
        have.insert(ord)
      }
      cards[match.existingKey] = have
    }
    var textMoved: [Int64: Int] = [:]
    for (key, state) in states where !updatedKeys.contains(key) {
      guard let note = oldNotes[key], let before = oldNoteTypes[note.noteTypeID], let names = finalNames[state.type]
      else { continue }
      let moved = state.sources.enumerated().contains { position, source in
        guard let source, note.fields.indices.contains(source), !note.fields[source].isEmpty else { return false }
        let oldName = before.fields.indices.contains(source) ? before.fields[source].name : ""
        return !names.indices.contains(position) || names[position] != oldName
      }
      if moved { textMoved[state.type, default: 0] += 1 }
    }
    return (added, textMoved)
  }

  /// `notesNotTaken` with, added in GUID order, the notes of the new deck whose update of a
  /// collection note another of its notes (`updaters`, in the order Anki reads them: by id)
  /// updates again later with other content (checked with the backend: Anki matches every note
  /// of a GUID with the one collection note and updates it with each in turn, so the last one's
  /// fields and tags are what it keeps).
  private static func withOverwrittenNotes(
    _ notesNotTaken: [DeckDifference.NoteNotTaken], updaters: [String: [AnkiMatch]],
    newNoteTypes: [Int64: NoteType], differs: (Note, Note) -> Bool
  ) -> [DeckDifference.NoteNotTaken] {
    var overwritten: [DeckDifference.NoteNotTaken] = []
    for matches in updaters.values where matches.count > 1 {
      let ordered = matches.sorted { occurrence(ofKey: $0.key) < occurrence(ofKey: $1.key) }
      guard let last = ordered.last else { continue }
      for match in ordered.dropLast() where differs(match.note, last.note) {
        let note = match.note
        overwritten.append(
          .init(
            guid: note.guid, noteType: newNoteTypes[note.noteTypeID]?.name ?? unknownNoteType(note.noteTypeID),
            reason: .overwritten,
            modified: .init(old: match.existing?.modificationTime ?? 0, new: note.modificationTime)))
      }
    }
    guard !overwritten.isEmpty else { return notesNotTaken }
    // Stable: the entries of one GUID keep their order, the overwritten ones after the rest.
    return (notesNotTaken + overwritten).enumerated().sorted {
      ($0.element.guid, $0.offset) < ($1.element.guid, $1.offset)
    }
    .map(\.element)
  }

  /// Without merging: for each note type of the new deck whose layout differs from the
  /// collection's of its id, the collection's copy of it that an earlier import made (its
  /// `originalId` that id, its fields and templates the new deck's, compared as
  /// ``keepsLayout(_:)`` compares them; the first by id), which Anki's import takes as that
  /// note type instead of adding another (checked with the backend).
  private func reusedCopies(layoutKept: [Int64: Bool]) -> [Int64: NoteType] {
    var result: [Int64: NoteType] = [:]
    let candidates = old.noteTypes.filter { $0.originalID != nil }.sorted { $0.id < $1.id }
    for noteType in new.noteTypes where layoutKept[noteType.id] == false {
      if let copy = candidates.first(where: { copy in
        copy.id != noteType.id && copy.originalID == noteType.id && Self.sameLayout(copy, noteType)
      }) {
        result[noteType.id] = copy
      }
    }
    return result
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
    return Self.sameLayout(before, after)
  }

  /// Whether two note types' fields and templates match in number and order, each position by
  /// its Anki id where both sides have one and by its name where not (Anki's `equal_schema`).
  private static func sameLayout(_ before: NoteType, _ after: NoteType) -> Bool {
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
