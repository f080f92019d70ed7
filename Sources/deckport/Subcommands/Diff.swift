import ArgumentParser
import DeckConversion
import DeckCore

extension Deckport {
  /// `deckport diff A B`: what changed from one deck to another, in any two formats.
  struct Diff: ParsableCommand {
    /// The exit status when the decks differ.
    static let differentStatus = ExitCode(1)
    /// The exit status when an input cannot be read (or, with --strict, has warnings).
    static let troubleStatus = ExitCode(2)

    static let configuration = CommandConfiguration(
      abstract: "Show what changed from one deck to another, in any two formats.",
      discussion: """
        Reads both decks (each in the format its extension or content shows, or --from) and \
        prints what changed from A to B, grouped by part: notes (matched by GUID; notes that share \
        one, in their order; against app storage, which holds no GUIDs of Anki's, the notes left \
        unmatched by the text of their non-empty fields, then by its plain text, without markup \
        or media references, and compared as text, each character however spelled) added, removed, and changed field by field, with short excerpts of the old and new text, \
        tags per note, and a changed note's modification times where both formats hold them; note types (matched by id, else name) added, removed, their fields and \
        templates added, removed and renamed, template text and CSS changed, and their other \
        settings (kind, sort field, LaTeX, each field's font and editor settings, each \
        template's browser appearance and deck override); decks added, removed, renamed, and \
        changed (description, a filtered deck's searches); deck option groups (matched by id, \
        else name) added, removed, and changed setting by setting (new.perDay, \
        desiredRetention, and so on, as in Anki's schema-11 entry), and decks that use another group; \
        tags over all notes; cards (matched by note GUID and template) whose scheduling \
        changed (type, queue, due, interval, ease, reps, lapses, steps left, flags, the due \
        date and deck before a filtered deck, and Anki's per-card data such as the FSRS memory \
        state, key by key), and the collection's creation time, from which review due dates \
        count: a card due on a day (under review, or in learning across days) is compared by \
        that date, as Anki counts it from its collection's creation, in the local time zone \
        (TZ), and shown as dates, so a creation time moved alone changes every such card and \
        one moved with the day numbers to match changes none; review \
        log entries added, removed (by id) and changed (ease, interval, last \
        interval, factor, time, type, or the card); media files added, removed and changed (by \
        the SHA-1 of their bytes; the same bytes under another name as renamed); deletion records (notes, cards and decks deleted since the \
        collection last synced) added and removed; the collection's settings (by key) and its \
        list of tags (by name, with each tag's sync state and, where both say, whether it is \
        collapsed) added, removed and changed; and what Anki keeps of decks, note types, fields \
        and templates besides (collapse state, the day's counts, sync state, keys deckport does \
        not model), by owner and key. Settings and properties are JSON values compared by \
        meaning (an object's members in any order, 1 and 1.0 the same). A + marks what only B \
        has, - what only A has, ~ what changed.

        A part one of the formats cannot hold is not compared, and the output says so, as in \
        "scheduling: not compared (csv holds none)": a CSV file is never shown as a deck whose \
        scheduling was removed. A deck package (.apkg) holds only the note types and media its \
        notes use, and no settings or list of tags, so against a collection those are not \
        compared. A part both formats hold alike only in part is compared: two CrowdAnki \
        folders' deck limits and note models' last tags.

        When both formats hold note type ids and modification times (Anki packages, the JSON \
        deck), the output also says what Anki's import of B (with the import dialog's options) \
        would do to a collection holding A, as the real Anki backend does it: how many notes it \
        adds, updates (B's note modified later), keeps as they are (not modified later) and \
        skips as conflicting (moved to another note type, or a note type whose fields or \
        templates changed in number, order or id, which Anki adds as a new one), and, marked !, \
        each change it would not take: a note changed but not modified later, a note moved to \
        another note type, a note type changed but not modified later or added as a new one, \
        and cards of existing notes whose scheduling changed (Anki imports scheduling only with \
        new cards); and, marked +, cards B adds to notes the collection has, which Anki adds \
        even to a note it keeps as it is (marked ! then: the note's fields may leave the card \
        empty). --anki-update-notes and --anki-update-note-types follow the dialog's other \
        choices: always (Anki then updates what has another modification time, earlier or \
        later, but not what has the same time) or never. With --anki-merge-note-types the \
        preview merges note types as the dialog's "Merge note types" does: nothing conflicts, a \
        note type whose fields changed is merged with the collection's, a moved note is moved \
        and its two note types merged; marked ~, each note type whose fields the merge changes, \
        whose notes Anki rewrites as it imports, so that B's changes to them are not newer \
        (marked !, unless notes are updated always); marked !, notes an update empties a field \
        of (B's note type lacks it), and a note type whose kind changed (Anki then refuses the \
        import). The collection is taken to hold A's modification times, as one restored from \
        A does; a note type Anki renamed on its first import (Basic+) carries the time of that \
        import instead.

        With --only-deck NAME or --only-tag TAG (each repeatable), both decks are compared as \
        convert keeps them with those options: the notes with a card in that deck or its \
        subdecks, or with that tag or a subtag, whole, and what they use; a note moved out of \
        the deck (or that lost the tag) shows as removed. The Anki import preview is that of \
        B's part exported alone into a collection holding the whole of A, so a note of the \
        part that A keeps in another deck is updated or kept there, not new. A deck that one \
        of them lacks, or a tag no note of one of them has, is an error (exit status 2).

        With --stat, only the counts of each part. With --json, one JSON object with the keys \
        from and to (name, format, and with --only-deck or --only-tag the selection: decks, tags, kept, read), equal, counts, notCompared (aspect, formats, explanation) \
        and notes, noteTypes, decks, deckOptions, tags, scheduling, reviews, media, deletions, \
        settings, tagRegistry and ankiProperties (each with added, removed and changed lists; \
        decks also renamed, deckOptions also decksMoved; a card's due day changed also with \
        oldDate and newDate, its data also with dataChanges), and ankiImport (options, counts, \
        notesNotTaken, noteTypesNotTaken, cardsNotTaken, cardsAdded, cardsAddedToKeptNotes, \
        noteTypesMerged) where both formats hold what it \
        takes; with --stat --json, only from, to, equal, counts, notCompared and the counts of \
        ankiImport. For example: deckport diff \
        fixtures/anki/legacy.colpkg fixtures/anki/latest.colpkg --stat.

        Exit status, as diff(1): 0 when the decks are the same in everything compared, 1 when \
        they differ, 2 when an input cannot be read (or, with --strict, when reading it gave \
        warnings); 64 for a usage error.
        """)

    @Argument(
      help: ArgumentHelp(
        "A: the deck to compare from (any format deckport reads), or - for standard input.", valueName: "A"))
    var old: String

    @Argument(help: ArgumentHelp("B: the deck to compare to, or - for standard input.", valueName: "B"))
    var new: String

    @OptionGroup var from: InputFormatArguments<TwoInputDecks>

    @Option(
      help: ArgumentHelp(
        "When the Anki import preview updates a note the collection has: if-newer (the import dialog's default), always (when the modification times differ) or never.",
        valueName: "condition"))
    var ankiUpdateNotes: DeckDifference.AnkiUpdateCondition = .ifNewer

    @Option(
      help: ArgumentHelp(
        "When the Anki import preview updates a note type the collection has: if-newer (the default), always or never.",
        valueName: "condition"))
    var ankiUpdateNoteTypes: DeckDifference.AnkiUpdateCondition = .ifNewer

    @Flag(help: "The Anki import preview merges note types, as the import dialog's \"Merge note types\" does.")
    var ankiMergeNoteTypes = false

    @OptionGroup(title: "Which notes (of both decks)") var selection: NoteSelectionArguments

    @Flag(help: "Print only how many things were added, removed and changed in each part.")
    var stat = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup(title: "CSV and TSV options") var csv: CSVArguments

    @OptionGroup(title: "App storage options") var app: AppStorageReadingArguments

    @OptionGroup(title: "Limits") var limits: LimitArguments

    @OptionGroup var diagnostics: DiffDiagnosticOptions

    func validate() throws {
      if old == StandardStreams.dash && new == StandardStreams.dash {
        throw ValidationError("only one of the decks can be standard input (-)")
      }
    }

    func run() throws {
      let streams = StandardStreams()
      let (formatOfA, formatOfB) = from.formatsOfAAndB
      let decks = try [(old, formatOfA), (new, formatOfB)].map { file, format in
        try load(file, format: format, streams: streams)
      }
      let warnings = decks.flatMap(\.deck.warnings).map(streams.shown)
      try CommandFailure.handle(warnings: warnings, options: diagnostics, failureStatus: Self.troubleStatus)
      let difference = try CommandFailure.reporting(verbose: diagnostics.verbose, failureStatus: Self.troubleStatus) {
        try DeckDifference(
          from: decks[0].deck, to: decks[1].deck, fromName: decks[0].name, toName: decks[1].name,
          ankiImportOptions: .init(
            updateNotes: ankiUpdateNotes, updateNoteTypes: ankiUpdateNoteTypes, mergeNoteTypes: ankiMergeNoteTypes),
          onlyDecks: selection.onlyDeck, onlyTags: selection.onlyTag)
      }
      switch (json, stat) {
      case (true, false): StandardOutput.writeJSON(try difference.jsonText())
      case (true, true): StandardOutput.writeJSON(try difference.statJSONText())
      case (false, false): difference.lines.forEach(StandardOutput.write)
      case (false, true): difference.statLines.forEach(StandardOutput.write)
      }
      if !difference.isEmpty { throw Self.differentStatus }
    }

    /// Reads one deck, and names it as messages show it (`<stdin>` for `-`); a failure ends the
    /// command with exit status 2.
    private func load(
      _ file: String, format: FormatName?, streams: StandardStreams
    ) throws -> (deck: LoadedDeck, name: String) {
      var formats = FormatOptions()
      for group: any FormatOptionArguments in [csv, limits, app] { try group.fill(&formats) }
      return try CommandFailure.reporting(
        verbose: diagnostics.verbose, shownBy: streams, failureStatus: Self.troubleStatus
      ) {
        let path = try streams.inputPath(for: file, format: format)
        let deck = try ProgressLine.showing(quiet: diagnostics.quiet) { progress in
          try DeckLoader(registry: FormatArguments.registry).load(
            path: path, format: format, options: formats, progress: progress.reporter)
        }
        return (deck, streams.shown(path))
      }
    }
  }
}

extension DeckDifference.AnkiUpdateCondition: ExpressibleByArgument {}
