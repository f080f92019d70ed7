import DeckCore

extension DeckDifference {
  /// The difference as readable text (``lines``), safe to print on a terminal.
  public var text: String { lines.map(TerminalText.escaped).joined(separator: "\n") }

  /// The difference as lines of text, grouped by part (notes, note types, decks, option groups,
  /// tags, the collection's creation time, scheduling, reviews, media, deletion records,
  /// settings, the list of tags, Anki's other properties), a part only when something in it
  /// changed, then the parts not compared and why. Field texts are shortened excerpts, already
  /// made visible; names are exact, so each line is to be escaped with
  /// ``TerminalText/escaped(_:)`` before it reaches a terminal (escaping twice changes nothing).
  ///
  /// `+` marks what only the `to` deck has, `-` what only the `from` deck has, `~` what both
  /// have in another form.
  public var lines: [String] {
    var lines = headerLines
    if isEmpty { lines.append("No differences.") }
    lines +=
      noteLines + noteTypeLines + deckLines + deckOptionLines + tagLines + creationTimeLines + schedulingLines
      + reviewLines + mediaLines + deletionLines + settingLines + tagRegistryLines + ankiPropertyLines
    if !isEmpty { lines += ankiImportLines }
    return lines + notComparedLines
  }

  /// Only the counts: one line per part with how many were added, removed and changed, then the
  /// parts not compared and why.
  public var statLines: [String] {
    let counts = counts
    let rows: [(String, SectionCount, String?)] = [
      ("notes", counts.notes, "changed"), ("note types", counts.noteTypes, "changed"),
      ("decks", counts.decks, "changed"), ("options", counts.deckOptions, "changed"), ("tags", counts.tags, nil),
      ("cards", counts.cards, "changed"),
      ("reviews", counts.reviews, "changed"), ("media", counts.media, "changed"), ("deletions", counts.deletions, nil),
      ("settings", counts.settings, "changed"), ("tag list", counts.tagRegistry, "changed"),
      ("properties", counts.ankiProperties, "changed"),
    ]
    let importLine = ankiImport.map { ["anki import: " + Self.describe($0.counts)] } ?? []
    return headerLines
      + rows.map { name, count, changed in
        let parts =
          ["\(count.added) added", "\(count.removed) removed"] + (changed.map { ["\(count.changed) \($0)"] } ?? [])
        return (name + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + parts.joined(separator: ", ")
      } + importLine + notComparedLines
  }

  /// `Anki's import of the "to" deck …: 1 new, …`, then a `!` line for each change it does not take.
  private var ankiImportLines: [String] {
    guard let preview = ankiImport else { return [] }
    let options = preview.options
    let choices =
      options == AnkiImportOptions()
      ? ""
      : " (updating notes \(Self.describe(options.updateNotes)), note types \(Self.describe(options.updateNoteTypes))\(options.mergeNoteTypes ? ", merging note types" : ""))"
    var lines = [
      to.selection == nil
        ? "Anki's import of the \"to\" deck\(choices) into a collection holding the \"from\" deck: \(Self.describe(preview.counts))"
        : "Anki's import of that part of the \"to\" deck, exported alone,\(choices) into a collection holding the whole \"from\" deck: \(Self.describe(preview.counts))"
    ]
    for note in preview.notesNotTaken {
      let subject = "  ! note \(note.guid) (\(note.noteType)): "
      switch note.reason {
      case .notNewer:
        lines.append(subject + Self.notModifiedLater(note.modified, keeping: "the collection's note"))
      case .sameModificationTime:
        lines.append(subject + Self.sameModificationTime(note.modified, keeping: "the collection's note"))
      case .updatesOff:
        lines.append(subject + Self.updatesOff(note.modified, keeping: "the collection's note", of: "notes"))
      case .noteTypeChanged:
        lines.append(subject + "moved to another note type; Anki skips it as conflicting")
      case .rewrittenByMerge:
        lines.append(
          subject
            + "changed, but Anki's merge of its note type rewrites the collection's note as it imports, which makes that the later one; Anki keeps the collection's note"
        )
      case .rewrittenBySortField:
        lines.append(
          subject
            + "changed, but Anki takes its note type's new sort field, which rewrites the collection's note as it imports and makes that the later one; Anki keeps the collection's note"
        )
      case .overwritten:
        lines.append(
          subject
            + "Anki updates the collection's note with it, then again with a later note of the \"to\" deck that shares its GUID; the collection's note ends as that one"
        )
      }
    }
    for noteType in preview.noteTypesNotTaken {
      let subject = "  ! note type '\(noteType.name)' (id \(noteType.id)): "
      switch noteType.reason {
      case .notNewer:
        lines.append(subject + Self.notModifiedLater(noteType.modified, keeping: "the collection's"))
      case .sameModificationTime:
        lines.append(subject + Self.sameModificationTime(noteType.modified, keeping: "the collection's"))
      case .updatesOff:
        lines.append(subject + Self.updatesOff(noteType.modified, keeping: "the collection's", of: "note types"))
      case .kindChanged:
        lines.append(
          subject
            + "a cloze note type on one side and a standard one on the other; merging note types, Anki refuses the whole import"
        )
      case .layoutChanged:
        let notes = noteType.conflictingNotes
        lines.append(
          subject
            + "its fields or templates differ in number, order or id; Anki adds it as a new note type\(notes > 0 ? " and skips the collection's \(CountedNoun.phrase(notes, "note")) of it as conflicting" : "")"
        )
      case .copyReused:
        let notes = noteType.conflictingNotes
        let copy = noteType.reusedCopy.map { "'\($0.name)' (id \($0.id))" } ?? "its copy"
        lines.append(
          subject
            + "its fields or templates differ in number, order or id; Anki takes the collection's copy \(copy), made by an earlier import, as it\(notes > 0 ? " and skips the collection's \(CountedNoun.phrase(notes, "note")) of this id as conflicting" : "")"
        )
      }
    }
    for merge in preview.noteTypesMerged {
      let subject = "note type '\(merge.name)' (id \(merge.id)): "
      let notes = merge.notesRewritten
      if notes > 0 {
        lines.append(
          "  ~ " + subject
            + "Anki merges its fields (\(merge.fields.joined(separator: ", "))) and rewrites the collection's \(CountedNoun.phrase(notes, "note")) of it as it imports"
        )
      }
      if merge.notesLosingText > 0 {
        let losing = merge.notesLosingText
        lines.append(
          "  ! " + subject
            + "the package's notes have no \(merge.fieldsMissingFromPackage.joined(separator: ", ")); the \(CountedNoun.phrase(losing, "note")) Anki updates with text there \(losing == 1 ? "loses it" : "lose it")"
        )
      }
      if merge.notesWithTextMoved > 0 {
        let moved = merge.notesWithTextMoved
        lines.append(
          "  ! " + subject
            + "merging a moved note's note type into it, Anki moves the text of \(CountedNoun.phrase(moved, "note")) of the collection it does not update to other fields (\(merge.fields.joined(separator: ", "))), leaving empty the fields \(moved == 1 ? "its" : "their") cards showed"
        )
      }
    }
    for resort in preview.noteTypesResorted where resort.notesRewritten > 0 {
      let notes = resort.notesRewritten
      lines.append(
        "  ~ note type '\(resort.name)' (id \(resort.id)): Anki takes its new sort field ('\(resort.sortField.old)' → '\(resort.sortField.new)') and rewrites the collection's \(CountedNoun.phrase(notes, "note")) of it as it imports, before it compares modification times"
      )
    }
    let added = preview.cardsAdded
    if added > 0 {
      lines.append(
        "  + \(CountedNoun.phrase(added, "card")) of notes the collection has: Anki adds \(added == 1 ? "it" : "them")"
      )
    }
    let addedToKept = preview.cardsAddedToKeptNotes
    if addedToKept > 0 {
      let subject = added == 1 ? "it goes" : "\(addedToKept) of them \(addedToKept == 1 ? "goes" : "go")"
      let notes =
        addedToKept == 1
        ? "a note Anki keeps as the collection has it, whose fields may leave the card empty"
        : "notes Anki keeps as the collection has them, whose fields may leave those cards empty"
      lines.append("  ! \(subject) to \(notes)")
    }
    let cards = preview.cardsNotTaken
    if cards > 0 {
      lines.append(
        "  ! \(CountedNoun.phrase(cards, "card")) of notes the collection has \(cards == 1 ? "differs" : "differ") in scheduling or deck; Anki imports scheduling only with the cards it adds, so \(cards == 1 ? "it keeps" : "they keep") the collection's"
      )
    }
    return lines
  }

  private static func describe(_ counts: AnkiImportCounts) -> String {
    "\(counts.new) new, \(counts.updated) updated, \(counts.kept) kept as they are, \(counts.conflicting) conflicting notes"
  }

  /// `if newer`, `always`, `never`: an update condition as the import dialog words it.
  private static func describe(_ condition: AnkiUpdateCondition) -> String {
    condition == .ifNewer ? "if newer" : condition.rawValue
  }

  /// `changed, but not modified later (…); Anki keeps …`, with both modification times.
  private static func notModifiedLater(_ modified: Change<Int64>, keeping kept: String) -> String {
    "changed, but not modified later (\(times(modified))); Anki keeps \(kept)"
  }

  /// `changed, but modified at the same time (…); Anki keeps … even when updating always`.
  private static func sameModificationTime(_ modified: Change<Int64>, keeping kept: String) -> String {
    "changed, but modified at the same time (\(times(modified))); Anki keeps \(kept) even when updating always"
  }

  /// `changed (…); Anki keeps …, as it updates no notes`.
  private static func updatesOff(_ modified: Change<Int64>, keeping kept: String, of things: String) -> String {
    "changed (\(times(modified))); Anki keeps \(kept), as it updates no \(things)"
  }

  /// Two modification times in UTC: `old → new`, or `both …` when they are the same.
  private static func times(_ modified: Change<Int64>) -> String {
    let old = CalendarDays.utcText(ofSeconds: modified.old, withTime: true)
    let new = CalendarDays.utcText(ofSeconds: modified.new, withTime: true)
    return old == new ? "both \(old)" : "\(old) → \(new)"
  }

  /// The two sides, each followed by what of it was compared (``Side/selection``).
  private var headerLines: [String] {
    [from, to].enumerated().flatMap { index, side in
      [Self.sideLine(index == 0 ? "from" : "to", side)] + (side.selection.map { ["  " + $0.line] } ?? [])
    }
  }

  /// `from: backup.colpkg (apkg-latest)`.
  private static func sideLine(_ label: String, _ side: Side) -> String {
    "\(label + ":")\(label == "to" ? "   " : " ")\(side.name.isEmpty ? "" : side.name + " ")(\(side.format))"
  }

  private var notComparedLines: [String] {
    notCompared.isEmpty ? [] : ["Not compared (a format cannot hold it):"] + notCompared.map { "  \($0.explanation)" }
  }

  /// For a part with changes: `Title: 1 added, 2 changed`, then `+` and the description of each
  /// entry in `added`, then `-` and that of each entry in `removed`; nothing for a part without.
  private static func section<Entry>(
    _ title: String, _ count: SectionCount, added: [Entry], removed: [Entry], changed: String = "changed",
    _ describe: (Entry) -> String
  ) -> [String] {
    guard !count.isEmpty else { return [] }
    let parts = [
      count.added > 0 ? "\(count.added) added" : nil, count.removed > 0 ? "\(count.removed) removed" : nil,
      count.changed > 0 ? "\(count.changed) \(changed)" : nil,
    ].compactMap { $0 }
    return ["\(title): \(parts.joined(separator: ", "))"]
      + added.map { "  + " + describe($0) } + removed.map { "  - " + describe($0) }
  }

  private var noteLines: [String] {
    var lines = Self.section("Notes", counts.notes, added: notes.added, removed: notes.removed, Self.describe)
    for change in notes.changed {
      lines.append("  ~ note \(change.guid) (\(change.noteType))")
      if let type = change.noteTypeChange { lines.append("      note type: \(type.old) → \(type.new)") }
      lines += change.fields.map {
        let (old, new) = DifferenceExcerpt.quotedChange($0.old, $0.new)
        return "      \($0.name): \(old) → \(new)"
      }
      if !change.tagsAdded.isEmpty { lines.append("      tags added: \(change.tagsAdded.joined(separator: " "))") }
      if !change.tagsRemoved.isEmpty {
        lines.append("      tags removed: \(change.tagsRemoved.joined(separator: " "))")
      }
      if let modified = change.modified { lines.append("      modified: \(Self.times(modified))") }
    }
    return lines
  }

  /// `note GUID (Basic): Front "…", Back "…"`: the first two fields.
  private static func describe(_ note: NoteEntry) -> String {
    let fields = note.fields.prefix(2).map { "\($0.name) \(DifferenceExcerpt.quoted($0.value))" }
    let more = note.fields.count > 2 ? ", …" : ""
    return "note \(note.guid) (\(note.noteType)): \(fields.joined(separator: ", "))\(more)"
  }

  private var noteTypeLines: [String] {
    var lines = Self.section("Note types", counts.noteTypes, added: noteTypes.added, removed: noteTypes.removed, \.name)
    for change in noteTypes.changed {
      lines.append("  ~ \(change.name)")
      if let rename = change.rename { lines.append("      renamed: \(rename.old) → \(rename.new)") }
      lines += Self.listLines("field", change.fields) + Self.listLines("template", change.templates)
      if !change.templateTextChanged.isEmpty {
        lines.append("      template text changed: \(change.templateTextChanged.joined(separator: ", "))")
      }
      if change.cssChanged { lines.append("      CSS changed") }
      lines += Self.settingLines(change.settings)
    }
    return lines
  }

  private static func listLines(_ noun: String, _ list: ListDifferences) -> [String] {
    (list.added.isEmpty ? [] : ["      \(noun)s added: \(list.added.joined(separator: ", "))"])
      + (list.removed.isEmpty ? [] : ["      \(noun)s removed: \(list.removed.joined(separator: ", "))"])
      + list.renamed.map { "      \(noun) renamed: \($0.old) → \($0.new)" }
  }

  private var deckLines: [String] {
    Self.section("Decks", counts.decks, added: decks.added, removed: decks.removed, \.name)
      + decks.renamed.map { "  ~ \($0.old) → \($0.new)" }
      + decks.changed.flatMap { change in ["  ~ \(change.name)"] + Self.settingLines(change.settings) }
  }

  /// `+ Fast (id 1700000000000)`; `~ Default` and a line per setting (`new.perDay: 20 → 30`);
  /// `~ deck 'Spanish': Default → Fast`.
  private var deckOptionLines: [String] {
    var lines = Self.section(
      "Deck option groups", counts.deckOptions, added: deckOptions.added, removed: deckOptions.removed
    ) { "\($0.name) (id \($0.id))" }
    for change in deckOptions.changed {
      lines.append("  ~ \(change.name)")
      if let rename = change.rename { lines.append("      renamed: \(rename.old) → \(rename.new)") }
      lines += Self.settingLines(change.settings)
    }
    return lines + deckOptions.decksMoved.map { "  ~ deck '\($0.deck)': \($0.old) → \($0.new)" }
  }

  /// `      new.perDay: 20 → 33`: a line per setting, values shortened, `(none)` for a side without.
  private static func settingLines(_ settings: [SettingChange]) -> [String] {
    settings.map {
      let (old, new) = DifferenceExcerpt.shortenedChange($0.old, $0.new)
      return "      \($0.key): \(old) → \(new)"
    }
  }

  private var tagLines: [String] {
    Self.section("Tags", counts.tags, added: tags.added, removed: tags.removed) { $0 }
  }

  private var creationTimeLines: [String] {
    creationTime.map {
      ["Collection creation time (day 0 of review due dates): \($0.old) → \($0.new) (seconds since 1970)"]
    } ?? []
  }

  private var schedulingLines: [String] {
    var lines = Self.section("Scheduling (cards)", counts.cards, added: scheduling.added, removed: scheduling.removed) {
      "card \($0.guid) #\(CountedPosition.text(ofIndex: $0.ord))"
    }
    for change in scheduling.changed {
      var parts = change.changes.map(\.text)
      if let deck = change.deck { parts.append("deck \(deck.old) → \(deck.new)") }
      if let deck = change.originalDeck { parts.append("original deck \(deck.old) → \(deck.new)") }
      if let keys = change.dataChanges {
        parts.append("data: \(Self.dataKeyText(keys))")
      } else if let data = change.data {
        let (old, new) = DifferenceExcerpt.shortenedChange(data.old, data.new)
        parts.append("data \(old) → \(new)")
      }
      lines.append(
        "  ~ card \(change.guid) #\(CountedPosition.text(ofIndex: change.ord)): \(parts.joined(separator: ", "))")
    }
    return lines
  }

  /// `s 31.2 → 32.5; lrt 1794223122 removed; cd.streak 3 added`: a card data's keys changed,
  /// removed and added, each with its values as shortened JSON text.
  private static func dataKeyText(_ keys: PropertyDifferences) -> String {
    let changed = keys.changed.map {
      let (old, new) = DifferenceExcerpt.shortenedChange($0.old, $0.new)
      return "\($0.key) \(old) → \(new)"
    }
    let removed = keys.removed.map { "\($0.key) \(DifferenceExcerpt.shortened($0.value)) removed" }
    let added = keys.added.map { "\($0.key) \(DifferenceExcerpt.shortened($0.value)) added" }
    return (changed + removed + added).joined(separator: "; ")
  }

  private var reviewLines: [String] {
    Self.section("Reviews", counts.reviews, added: reviews.added, removed: reviews.removed, Self.describe)
      + reviews.changed.map { change in
        var parts = change.changes.map(\.text)
        if let card = change.card { parts.append("\(card.old) → \(card.new)") }
        return "  ~ review \(change.id): \(parts.joined(separator: ", "))"
      }
  }

  /// `review 1700000000000 of card GUID #1, ease 3`.
  private static func describe(_ review: ReviewEntry) -> String {
    let card = review.guid.isEmpty ? nil : DeckComparison.CardKey(guid: review.guid, ord: review.ord)
    return "review \(review.id) of \(DeckComparison.name(card)), ease \(review.ease)"
  }

  private var mediaLines: [String] {
    Self.section("Media", counts.media, added: media.added, removed: media.removed) {
      "\($0.name) (\(ByteCount.text($0.size)), sha1 \($0.sha1.prefix(10)))"
    }
      + media.changed.map {
        $0.old.name != $0.new.name
          ? "  ~ \($0.old.name) renamed \($0.new.name) (the same \(ByteCount.text($0.new.size)), sha1 \($0.new.sha1.prefix(10)))"
          : "  ~ \($0.new.name) (sha1 \($0.old.sha1.prefix(10)) → \($0.new.sha1.prefix(10)), \(ByteCount.text($0.old.size)) → \(ByteCount.text($0.new.size)))"
      }
  }

  private var deletionLines: [String] {
    Self.section("Deletion records", counts.deletions, added: deletions.added, removed: deletions.removed) { $0 }
  }

  private var settingLines: [String] {
    Self.propertyLines("Collection settings", counts.settings, settings)
  }

  private var ankiPropertyLines: [String] {
    Self.propertyLines("Anki's other properties", counts.ankiProperties, ankiProperties)
  }

  /// `+ deck 'Spanish': collapsed true`, `~ rollover: 4 → 2`: the owner (when there is one),
  /// the key and the values as shortened JSON text.
  private static func propertyLines(_ title: String, _ count: SectionCount, _ part: PropertyDifferences) -> [String] {
    func name(_ owner: String?, _ key: String) -> String { owner.map { "\($0): \(key)" } ?? key }
    return section(title, count, added: part.added, removed: part.removed) {
      "\(name($0.owner, $0.key)) \(DifferenceExcerpt.shortened($0.value))"
    }
      + part.changed.map {
        let (old, new) = DifferenceExcerpt.shortenedChange($0.old, $0.new)
        return "  ~ \(name($0.owner, $0.key)): \(old) → \(new)"
      }
  }

  /// `+ reviewed (usn -1)`, `~ parent: usn 5 → -1, collapsed true → false`.
  private var tagRegistryLines: [String] {
    Self.section("List of tags", counts.tagRegistry, added: tagRegistry.added, removed: tagRegistry.removed) {
      "\($0.name) (usn \($0.usn)\($0.collapsed.map { $0 ? ", collapsed" : ", expanded" } ?? ""))"
    }
      + tagRegistry.changed.map { change in
        let parts = [
          change.usn.map { "usn \($0.old) → \($0.new)" },
          change.collapsed.map { "collapsed \($0.old) → \($0.new)" },
        ].compactMap { $0 }
        return "  ~ \(change.name): \(parts.joined(separator: ", "))"
      }
  }
}
