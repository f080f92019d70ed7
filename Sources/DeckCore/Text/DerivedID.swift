import Foundation

/// Ids and GUIDs derived from content, for sources that have none (a hand-written JSON deck, a
/// CSV file): the same content always gives the same id, so converting the same input twice
/// gives the same deck, and re-importing it into Anki updates notes instead of duplicating them.
package enum DerivedID {
  /// An id in Anki's millisecond-timestamp range, between 2001 and 2020, so Anki never takes
  /// it for a time in the future.
  package static func id(for text: String) -> Int64 {
    let digest = SHA1.digest(utf8: text)
    let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return 1_000_000_000_000 + Int64(number % 600_000_000_000)
  }

  /// A GUID in Anki's base-91 form from the given parts, as genanki derives one (see
  /// ``AnkiGUID/derived(from:)``).
  package static func guid(for parts: [String]) -> String {
    AnkiGUID.derived(from: parts)
  }

  /// The GUID of a note whose source has none, derived from its note type's id and what
  /// identifies the note there (`identity`: a sheet row's top-level deck and first field, an app
  /// record's identity keys), not from all its fields: a later version of the source whose other
  /// fields changed gives the same GUID, so Anki's import of it updates the note instead of
  /// adding it again. While `taken` has the GUID (a second note with the same identity, such as
  /// a homonym), the next of the sequence (`occurrence 2`, …) is taken: notes keep their GUIDs as
  /// long as such notes keep their order.
  package static func noteGUID(noteTypeID: Int64, identity: [String], taken: Set<ExactKey>) -> String {
    let parts = [String(noteTypeID)] + identity
    var guid = guid(for: parts)
    var occurrence = 2
    while taken.contains(ExactKey(guid)) {
      guid = Self.guid(for: parts + ["\u{1F}occurrence \(occurrence)"])
      occurrence += 1
    }
    return guid
  }

  /// The GUID of a note whose source names its deck and has no GUID (a sheet's row, a
  /// hand-written JSON deck's note): its identity is its first field and the top-level part of
  /// its deck (ignoring case, as Anki matches deck names), so that two unrelated decks' notes
  /// with the same first field (a word two sheets both teach) do not become one note in Anki,
  /// while a note moved to another subdeck, or whose other fields changed, stays the same note.
  /// `taken` as in ``noteGUID(noteTypeID:identity:taken:)``.
  package static func noteGUID(noteTypeID: Int64, deck: String, firstField: String, taken: Set<ExactKey>) -> String {
    let topLevelDeck =
      deck.components(separatedBy: Deck.levelSeparator).first?.trimmingCharacters(in: .whitespaces) ?? deck
    return noteGUID(noteTypeID: noteTypeID, identity: [topLevelDeck.lowercased(), firstField], taken: taken)
  }
}
