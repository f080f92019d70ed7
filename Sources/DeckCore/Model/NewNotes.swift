/// Notes and their cards for a source that has neither ids nor cards (a CSV file, a CrowdAnki
/// folder): each note gets the cards Anki would make for it on import (``CardGeneration``), new
/// and due in note order. Notes and cards are numbered in source order from bases derived from
/// the GUIDs, so the same source always gives the same ids, and a package made from it lists
/// them in the source's order.
package enum NewNotes {
  /// One note as the source gives it.
  package struct Draft: Sendable {
    package var guid: String
    /// The position of its note type in the `noteTypes` given to
    /// ``assemble(_:noteTypes:idSpace:modificationTime:checkingCount:)``.
    package var noteTypeIndex: Int
    package var fields: [String]
    package var tags: [String]
    /// The deck its cards go to.
    package var deckID: Int64
    /// When the note and its cards were last changed, in seconds since 1970; nil for the
    /// `modificationTime` every note is given.
    package var modificationTime: Int64?

    package init(
      guid: String, noteTypeIndex: Int, fields: [String], tags: [String], deckID: Int64,
      modificationTime: Int64? = nil
    ) {
      self.guid = guid
      self.noteTypeIndex = noteTypeIndex
      self.fields = fields
      self.tags = tags
      self.deckID = deckID
      self.modificationTime = modificationTime
    }
  }

  /// The most cards the notes of a source that gives none may make, however little text they
  /// have: 1 Mi (some 300 MB held). Each byte of the notes' text allows one more
  /// (``cardLimit(at:)``).
  package static let cardAllowance = 1 << 20

  /// The notes and cards of `drafts`. `idSpace` (such as `csv`) keeps the ids of different
  /// kinds of source apart; `modificationTime` is given to every note and card whose draft has none.
  /// `check` is called after each note's cards are made, with the number made so far, the notes
  /// and the note's position (``cardLimit(at:)``).
  package static func assemble(
    _ drafts: [Draft], noteTypes: [NoteType], idSpace: String, modificationTime: Int64,
    checkingCount check: (_ made: Int, _ notes: [Note], _ position: Int) throws -> Void
  ) rethrows -> (notes: [Note], cards: [Card]) {
    let noteBase = DerivedID.id(for: "\(idSpace) notes\u{1F}" + digest(of: drafts.lazy.map(\.guid)))
    var notes: [Note] = []
    notes.reserveCapacity(drafts.count)
    for (position, draft) in drafts.enumerated() {
      notes.append(
        Note(
          id: noteBase + Int64(position), guid: draft.guid, noteTypeID: noteTypes[draft.noteTypeIndex].id,
          fields: draft.fields, tags: draft.tags, modificationTime: draft.modificationTime ?? modificationTime))
    }
    let cards = try cards(
      for: notes, deckIDs: drafts.map(\.deckID), noteTypes: noteTypes, idSpace: idSpace, checkingCount: check)
    return (notes, cards)
  }

  /// A check for ``assemble(_:noteTypes:idSpace:modificationTime:checkingCount:)`` that stops the
  /// notes of a source at ``cardAllowance`` cards and one more for each byte of their text, so
  /// that a small file whose note type has thousands of templates (each showing a field every
  /// note has) cannot make millions of cards. Past that it throws a
  /// ``DeckError/Kind/memoryLimitExceeded`` error at the place `place` gives for the note's
  /// position (its JSON path, its CSV line). Real decks stay far below it: a million notes of two
  /// cards give tens of megabytes of text.
  package static func cardLimit(
    placing place: @escaping (_ position: Int, _ note: Note) -> SourceLocation
  ) -> (_ made: Int, _ notes: [Note], _ position: Int) throws -> Void {
    // The notes' text is counted once, when the cards first pass the allowance.
    var limit: Int?
    return { made, notes, position in
      guard made > cardAllowance else { return }
      if limit == nil {
        var text = FieldFilling()
        for note in notes { text.countText(of: note.fields) }
        limit = cardAllowance + text.textBytes
      }
      guard let limit, made > limit else { return }
      throw DeckError(
        .memoryLimitExceeded, at: place(position, notes[position]),
        "with this note's cards, the notes make \(made) cards, more than the \(limit) deckport makes for a source that gives none (\(cardAllowance), and 1 more for each of the \(CountedNoun.phrase(limit - cardAllowance, "byte")) of text the notes give): a note type of many templates makes a card of each for every note; give the source its cards, or remove the templates its notes do not use"
      )
    }
  }

  /// The cards Anki would make for `notes` on import (``CardGeneration``), the cards of
  /// `notes[i]` in deck `deckIDs[i]`, new and due in note order, with their note's
  /// modification time. Card ids are numbered in order from a base derived from the notes'
  /// GUIDs (`idSpace` as in ``assemble(_:noteTypes:idSpace:modificationTime:checkingCount:)``). A
  /// note whose note type is not among `noteTypes` gets no card; `check` as in `assemble`.
  package static func cards(
    for notes: [Note], deckIDs: [Int64], noteTypes: [NoteType], idSpace: String,
    checkingCount check: (_ made: Int, _ notes: [Note], _ position: Int) throws -> Void
  ) rethrows -> [Card] {
    let cardBase = DerivedID.id(for: "\(idSpace) cards\u{1F}" + digest(of: notes.lazy.map(\.guid)))
    let noteTypesByID = Dictionary(noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var generation = CardGeneration()
    var cards: [Card] = []
    cards.reserveCapacity(notes.count)
    for (position, (note, deckID)) in zip(notes, deckIDs).enumerated() {
      guard let noteType = noteTypesByID[note.noteTypeID] else { continue }
      for ordinal in generation.ordinals(for: note.fields, tags: note.tags, of: noteType) {
        cards.append(
          Card(
            id: cardBase + Int64(cards.count), noteID: note.id, templateOrdinal: ordinal, deckID: deckID,
            modificationTime: note.modificationTime, scheduling: CardScheduling(due: Int64(position + 1))))
      }
      try check(cards.count, notes, position)
    }
    return cards
  }

  /// The hex SHA-1 of `guids`, each followed by a unit separator: what the id bases are derived from.
  private static func digest(of guids: some Sequence<String>) -> String {
    var identity = SHA1()
    for guid in guids { Array((guid + "\u{1F}").utf8).withUnsafeBytes { identity.update($0) } }
    return SHA1.hex(identity.finalize())
  }
}
