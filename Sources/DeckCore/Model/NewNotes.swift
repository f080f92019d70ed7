/// Notes and their cards for a source that has neither ids nor cards (a CSV file, a CrowdAnki
/// folder): each note gets the cards Anki would make for it on import (``CardGeneration``), new
/// and due in note order. Notes and cards are numbered in source order from bases derived from
/// the GUIDs, so the same source always gives the same ids, and a package made from it lists
/// them in the source's order.
package enum NewNotes {
  /// One note as the source gives it.
  package struct Draft: Sendable {
    package var guid: String
    /// The position of its note type in the `noteTypes` given to ``assemble(_:noteTypes:idSpace:modificationTime:)``.
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

  /// The notes and cards of `drafts`. `idSpace` (such as `csv`) keeps the ids of different
  /// kinds of source apart; `modificationTime` is given to every note and card whose draft has none.
  package static func assemble(
    _ drafts: [Draft], noteTypes: [NoteType], idSpace: String, modificationTime: Int64
  ) -> (notes: [Note], cards: [Card]) {
    let noteBase = DerivedID.id(for: "\(idSpace) notes\u{1F}" + digest(of: drafts.lazy.map(\.guid)))
    var notes: [Note] = []
    notes.reserveCapacity(drafts.count)
    for (position, draft) in drafts.enumerated() {
      notes.append(
        Note(
          id: noteBase + Int64(position), guid: draft.guid, noteTypeID: noteTypes[draft.noteTypeIndex].id,
          fields: draft.fields, tags: draft.tags, modificationTime: draft.modificationTime ?? modificationTime))
    }
    let cards = cards(for: notes, deckIDs: drafts.map(\.deckID), noteTypes: noteTypes, idSpace: idSpace)
    return (notes, cards)
  }

  /// The cards Anki would make for `notes` on import (``CardGeneration``), the cards of
  /// `notes[i]` in deck `deckIDs[i]`, new and due in note order, with their note's
  /// modification time. Card ids are numbered in order from a base derived from the notes'
  /// GUIDs (`idSpace` as in ``assemble(_:noteTypes:idSpace:modificationTime:)``). A note whose
  /// note type is not among `noteTypes` gets no card.
  package static func cards(for notes: [Note], deckIDs: [Int64], noteTypes: [NoteType], idSpace: String) -> [Card] {
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
