import Foundation

/// The GUIDs of notes whose source has none, derived from their note type's id and what
/// identifies each note there (a sheet row's top-level deck and first field, an app record's
/// identity keys), not from all its fields: a later version of the source whose other fields
/// changed gives the same GUIDs, so Anki's import of it updates the notes instead of adding them
/// again.
///
/// One value serves one deck: it holds the GUIDs taken so far (the source's own and those it
/// derived). While a GUID is taken (a second note with the same identity, such as a homonym),
/// the next of the sequence (`occurrence 2`, …) is taken: notes keep their GUIDs as long as such
/// notes keep their order. Where each identity's sequence stopped is kept, so ten thousand notes
/// of one identity (rows whose first cells are all empty) take linear time, not quadratic.
package struct DerivedNoteGUIDs {
  private var taken: Set<ExactKey>
  /// Of each identity met, the first occurrence not yet tried.
  private var nextOccurrence: [[String]: Int] = [:]

  /// A deck whose notes already hold the GUIDs `taken` (those their source gives).
  package init(taken: Set<ExactKey> = []) {
    self.taken = taken
  }

  /// Whether `guid` is taken, by the source or by a derived GUID.
  package func contains(_ guid: String) -> Bool {
    taken.contains(ExactKey(guid))
  }

  /// Marks `guid`, which the source gives a note, taken.
  package mutating func insert(_ guid: String) {
    taken.insert(ExactKey(guid))
  }

  /// The GUID of a note of the note type `noteTypeID` identified by `identity`, now taken.
  package mutating func next(noteTypeID: Int64, identity: [String]) -> String {
    let parts = [String(noteTypeID)] + identity
    var occurrence = nextOccurrence[parts] ?? 1
    var guid = Self.guid(parts, occurrence: occurrence)
    while taken.contains(ExactKey(guid)) {
      occurrence += 1
      guid = Self.guid(parts, occurrence: occurrence)
    }
    nextOccurrence[parts] = occurrence + 1
    taken.insert(ExactKey(guid))
    return guid
  }

  /// The GUID of a note whose source names its deck and has no GUID (a sheet's row, a
  /// hand-written JSON deck's note), now taken: its identity is its first field and the
  /// top-level part of its deck (ignoring case, as Anki matches deck names), so that two
  /// unrelated decks' notes with the same first field (a word two sheets both teach) do not
  /// become one note in Anki, while a note moved to another subdeck, or whose other fields
  /// changed, stays the same note.
  package mutating func next(noteTypeID: Int64, deck: String, firstField: String) -> String {
    let topLevelDeck =
      Deck.levels(of: deck).first?.trimmingCharacters(in: .whitespaces) ?? deck
    return next(noteTypeID: noteTypeID, identity: [topLevelDeck.lowercased(), firstField])
  }

  /// The GUID of the `occurrence`th note of the identity `parts` (``DerivedID/guid(for:)``).
  private static func guid(_ parts: [String], occurrence: Int) -> String {
    DerivedID.guid(for: occurrence == 1 ? parts : parts + ["\u{1F}occurrence \(occurrence)"])
  }
}
