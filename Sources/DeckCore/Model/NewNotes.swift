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
    var identity = SHA1()
    for draft in drafts { Array((draft.guid + "\u{1F}").utf8).withUnsafeBytes { identity.update($0) } }
    let digest = SHA1.hex(identity.finalize())
    let noteBase = DerivedID.id(for: "\(idSpace) notes\u{1F}" + digest)
    let cardBase = DerivedID.id(for: "\(idSpace) cards\u{1F}" + digest)
    var generation = CardGeneration()
    var notes: [Note] = []
    var cards: [Card] = []
    notes.reserveCapacity(drafts.count)
    cards.reserveCapacity(drafts.count)
    for (position, draft) in drafts.enumerated() {
      let noteType = noteTypes[draft.noteTypeIndex]
      let noteID = noteBase + Int64(position)
      let modificationTime = draft.modificationTime ?? modificationTime
      notes.append(
        Note(
          id: noteID, guid: draft.guid, noteTypeID: noteType.id, fields: draft.fields, tags: draft.tags,
          modificationTime: modificationTime))
      for ordinal in generation.ordinals(for: draft.fields, of: noteType) {
        cards.append(
          Card(
            id: cardBase + Int64(cards.count), noteID: noteID, templateOrdinal: ordinal, deckID: draft.deckID,
            modificationTime: modificationTime, scheduling: CardScheduling(due: Int64(position + 1))))
      }
    }
    return (notes, cards)
  }
}
