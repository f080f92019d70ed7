import DeckCore

extension DeckComparison {
  /// What Anki's merge of note types (the import dialog's "Merge note types",
  /// `merge_notetypes`) does to the collection before it imports the notes, as the real backend
  /// does it: first each note type of the `to` deck that the collection has is merged with it;
  /// then Anki reads the modification times of the collection's notes, which decide what it
  /// updates; then, for each note the `to` deck moved to another note type, the note's old note
  /// type is merged into its new one and the note moved. A merge whose fields differ from the
  /// collection's rewrites the collection's notes of that note type: in the first step their
  /// modification time becomes the import's before it is read, in the second after.
  struct AnkiNoteTypeMerge {
    /// The collection's note types whose fields the merge changes, or to which it moves notes, by id.
    var merges: [Int64: DeckDifference.NoteTypeMerge] = [:]
    /// The note types whose fields the first step changes: the collection's notes of them are
    /// rewritten before their modification times are read.
    var rewrittenNoteTypes: Set<Int64> = []
    /// The note types whose fields the first step keeps but whose sort field it changes (Anki
    /// takes the `to` deck's sort field position, whichever field the merge puts there; checked
    /// with the backend), with the name of the field they sort by then: the collection's notes of
    /// them are rewritten before their modification times are read as well.
    var resortedNoteTypes: [Int64: String] = [:]
    /// For each note type merged with the `to` deck's of its id: the positions, in the `from`
    /// deck's note type, of the fields the `to` deck's lacks.
    var missingFieldPositions: [Int64: [Int]] = [:]
    /// The GUIDs of the notes the `to` deck moved to another note type: Anki moves them too.
    var movedNotes: Set<String> = []
    /// Note types whose kinds differ between the two sides of a merge: Anki refuses the import.
    var kindConflicts: [DeckDifference.NoteTypeNotTaken] = []
    /// The merges of a moved note's old note type into its new one, in the order Anki makes them.
    var moves: [Move] = []

    /// One merge of a moved note's old note type (`from`) into its new one (`to`), as the backend
    /// makes it (`resolve_notetype_conflicts`): it merges each into the other, rewrites the
    /// collection's notes of `to` by the positions the merged `from` gives its fields and templates
    /// (copied position by position, so their text and cards move where the `from` note type's
    /// would), then moves the notes the `to` deck moved the same way. Checked with the backend.
    struct Move {
      var from: Int64
      var to: Int64
      /// The GUIDs of the notes moved.
      var guids: Set<String>
      /// For each field of `to` after the merge, the position of the field a rewritten note
      /// takes its text from (nil: empty).
      var fieldSources: [Int?]
      /// For each template of `to` after the merge, the template position a rewritten note's
      /// card there had. A card of a position not named is deleted when the position is one of
      /// `from`'s templates, and left where it is when not: the backend takes `from`'s
      /// templates for the ones the rewritten notes had (checked with it).
      var templateSources: [Int?]
      /// How many templates `from` had.
      var fromTemplateCount: Int
      /// The template positions the `to` deck's cards of `to` take: each of its positions, by
      /// its position after the merge.
      var incomingTemplates: [Int: Int]
      /// The names of the fields of `to` after the merge.
      var fieldNames: [String]
    }

    /// Whether the merge rewrites the collection's notes of note type `noteTypeID` before Anki
    /// reads their modification times: they are then the later ones.
    func rewritesBeforeReading(noteTypeID: Int64) -> Bool {
      rewrittenNoteTypes.contains(noteTypeID)
    }
  }

  /// A field as Anki's merge matches it: by Anki id where both have one, by name where not.
  private struct MergeSlot {
    var id: Int64?
    var name: String
    /// Its position in the note type it was taken from; nil for one a merge inserted.
    var ord: Int?

    init(_ field: NoteType.Field) {
      id = field.ankiID
      name = field.name
    }

    init(_ template: NoteType.CardTemplate) {
      id = template.ankiID
      name = template.name
    }

    func matches(_ other: MergeSlot) -> Bool {
      if let id, let otherID = other.id { return id == otherID }
      return name == other.name
    }
  }

  /// Anki's merge of the note types of both decks (see ``AnkiNoteTypeMerge``) under `options`.
  func ankiNoteTypeMerge(options: DeckDifference.AnkiImportOptions, matches: [AnkiMatch]) -> AnkiNoteTypeMerge {
    var result = AnkiNoteTypeMerge()
    var notesByType: [Int64: Int] = [:]
    for note in oldNotes.values { notesByType[note.noteTypeID, default: 0] += 1 }
    // The collection's fields of each note type after the first step, by id.
    var layouts: [Int64: [MergeSlot]] = [:]
    // The templates of each note type after the first step (ignoring its reordering), by id.
    var templateLayouts: [Int64: [MergeSlot]] = [:]
    for noteType in new.noteTypes {
      guard let before = oldNoteTypes[noteType.id] else { continue }
      guard before.kind == noteType.kind else {
        result.kindConflicts.append(Self.kindConflict(noteType, before: before))
        continue
      }
      let existing = before.fields.map(MergeSlot.init)
      let incoming = noteType.fields.map(MergeSlot.init)
      let incomingMerged = Self.merged(incoming, with: existing)
      // Anki takes the `to` deck's note type (merged) when note types are updated, else keeps the
      // collection's (merged); either way it writes it.
      let takesIncoming = options.updateNoteTypes.takesWhenMerging(
        DeckDifference.Change(old: before.modificationTime, new: noteType.modificationTime))
      let fields = takesIncoming ? incomingMerged : Self.merged(existing, with: incomingMerged)
      layouts[noteType.id] = fields
      templateLayouts[noteType.id] = (takesIncoming ? noteType : before).templates.map(MergeSlot.init)
      let rewritten = !Self.sameFields(fields, existing)
      // Anki takes the `to` deck's sort field by its position, whatever field the merge puts there.
      if !rewritten && takesIncoming && noteType.sortFieldIndex != before.sortFieldIndex
        && fields.indices.contains(noteType.sortFieldIndex)
      {
        result.resortedNoteTypes[noteType.id] = Self.uniqueNames(fields)[noteType.sortFieldIndex]
      }
      let missing = existing.indices.filter { index in !incoming.contains { $0.matches(existing[index]) } }
      guard rewritten || !missing.isEmpty else { continue }
      if rewritten { result.rewrittenNoteTypes.insert(noteType.id) }
      result.missingFieldPositions[noteType.id] = missing
      result.merges[noteType.id] = DeckDifference.NoteTypeMerge(
        id: noteType.id, name: noteType.name, fields: Self.uniqueNames(fields),
        notesRewritten: rewritten ? notesByType[noteType.id] ?? 0 : 0,
        fieldsMissingFromPackage: missing.map { before.fields[$0].name }, notesLosingText: 0)
    }
    // Then each pair of a moved note's old and new note type, in a fixed order.
    var moves: [Int64: [Int64: [String]]] = [:]
    for match in matches {
      guard let before = match.existing, before.noteTypeID != match.note.noteTypeID else { continue }
      moves[before.noteTypeID, default: [:]][match.note.noteTypeID, default: []].append(match.note.guid)
    }
    for oldID in moves.keys.sorted() {
      for (newID, guids) in (moves[oldID] ?? [:]).sorted(by: { $0.key < $1.key }) {
        guard let oldType = oldNoteTypes[oldID], let newType = newNoteTypes[newID] else { continue }
        guard oldType.kind == newType.kind else {
          result.kindConflicts.append(Self.kindConflict(newType, before: oldType))
          continue
        }
        result.movedNotes.formUnion(guids)
        // Each side as the collection stores it then: its positions are those of its fields.
        let existing = Self.numbered(layouts[oldID] ?? oldType.fields.map(MergeSlot.init))
        let incoming = Self.numbered(layouts[newID] ?? (oldNoteTypes[newID] ?? newType).fields.map(MergeSlot.init))
        let existingMerged = Self.merged(existing, with: incoming)
        let fields = Self.merged(incoming, with: existingMerged)
        layouts[newID] = fields
        let existingTemplates = Self.numbered(templateLayouts[oldID] ?? oldType.templates.map(MergeSlot.init))
        let incomingTemplates = Self.numbered(
          templateLayouts[newID] ?? (oldNoteTypes[newID] ?? newType).templates.map(MergeSlot.init))
        // Anki merges no templates of cloze note types.
        let cloze = newType.kind == .cloze
        let existingTemplatesMerged =
          cloze ? existingTemplates : Self.merged(existingTemplates, with: incomingTemplates)
        let templates = cloze ? incomingTemplates : Self.merged(incomingTemplates, with: existingTemplatesMerged)
        templateLayouts[newID] = templates
        var incomingPositions: [Int: Int] = [:]
        for (position, slot) in templates.enumerated() {
          if let ord = slot.ord { incomingPositions[ord] = position }
        }
        result.moves.append(
          AnkiNoteTypeMerge.Move(
            from: oldID, to: newID, guids: Set(guids),
            fieldSources: fields.indices.map { existingMerged.indices.contains($0) ? existingMerged[$0].ord : nil },
            templateSources: templates.indices.map {
              existingTemplatesMerged.indices.contains($0) ? existingTemplatesMerged[$0].ord : nil
            },
            fromTemplateCount: existingTemplates.count, incomingTemplates: incomingPositions,
            fieldNames: Self.uniqueNames(fields)))
        var merge =
          result.merges[newID]
          ?? DeckDifference.NoteTypeMerge(
            id: newID, name: newType.name, fields: [], notesRewritten: 0, fieldsMissingFromPackage: [],
            notesLosingText: 0)
        if !Self.sameFields(fields, incoming) && merge.notesRewritten == 0 {
          merge.notesRewritten += notesByType[newID] ?? 0
        }
        merge.fields = Self.uniqueNames(fields)
        merge.notesRewritten += guids.count
        result.merges[newID] = merge
      }
    }
    return result
  }

  /// Anki's merge of `other`'s fields into `mine` (`Notetype::merge`): each of `other`'s, at its
  /// position, stays where `mine` has it there, is swapped there from elsewhere (when `mine`
  /// reaches that far), or is inserted there (or at the end) when `mine` lacks it.
  private static func merged(_ mine: [MergeSlot], with other: [MergeSlot]) -> [MergeSlot] {
    var result = mine
    for (index, slot) in other.enumerated() {
      if let found = result.firstIndex(where: { $0.matches(slot) }) {
        if found != index && index < result.count { result.swapAt(found, index) }
      } else {
        var inserted = slot
        inserted.ord = nil
        result.insert(inserted, at: min(index, result.count))
      }
    }
    return result
  }

  /// `slots` with their positions as their `ord`s, as the collection stores a note type.
  private static func numbered(_ slots: [MergeSlot]) -> [MergeSlot] {
    slots.enumerated().map { index, slot in
      var numbered = slot
      numbered.ord = index
      return numbered
    }
  }

  private static func sameFields(_ one: [MergeSlot], _ other: [MergeSlot]) -> Bool {
    one.count == other.count && zip(one, other).allSatisfy { $0.matches($1) }
  }

  /// The fields' names as Anki makes them unique: a name used before gets `+` until it is not.
  private static func uniqueNames(_ fields: [MergeSlot]) -> [String] {
    var used = Set<String>()
    return fields.map { field in
      var name = field.name
      while used.contains(name) { name += "+" }
      used.insert(name)
      return name
    }
  }

  private static func kindConflict(_ noteType: NoteType, before: NoteType) -> DeckDifference.NoteTypeNotTaken {
    DeckDifference.NoteTypeNotTaken(
      id: noteType.id, name: noteType.name, reason: .kindChanged,
      modified: DeckDifference.Change(old: before.modificationTime, new: noteType.modificationTime),
      conflictingNotes: 0)
  }
}
