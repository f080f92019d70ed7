import DeckCore

/// Two cards of one note with one template ordinal, refused before a package is written.
///
/// Anki keeps one card per note and template. Checked with the real backend (anki 26.9.3,
/// `Tests/anki/test_values_anki_import_changes.py`): it imports both cards of such a package,
/// and its Check Database then deletes one of them ("duplicate template"), with its scheduling
/// and review history. Neither card can be chosen for the user, so the package is refused, with
/// an error naming the note and both cards. Ordinals are compared as written: one Anki cannot
/// read is first brought into its range (``AnkiValueRanges``, 65536 becomes 65535), and the
/// error says so when that made the two meet.
enum CardOrdinals {
  /// Throws when two of `cards` (as they are written) have one note and one ordinal;
  /// `given` are the same cards, in the same order, before their values were fitted.
  static func requireOneCardPerTemplate(_ cards: [Card], given: [Card], location: SourceLocation) throws {
    var firstIndex: [NoteTemplate: Int] = [:]
    firstIndex.reserveCapacity(cards.count)
    for index in cards.indices {
      let card = cards[index]
      let key = NoteTemplate(noteID: card.noteID, ordinal: card.templateOrdinal)
      guard let earlier = firstIndex[key] else {
        firstIndex[key] = index
        continue
      }
      let other = cards[earlier]
      let ordinals = [earlier, index].compactMap { position -> String? in
        let givenOrdinal = given.indices.contains(position) ? given[position].templateOrdinal : card.templateOrdinal
        guard givenOrdinal != card.templateOrdinal else { return nil }
        return
          "card \(cards[position].id)'s ord \(givenOrdinal) is outside the range Anki reads and is written as \(card.templateOrdinal)"
      }
      let clamped = ordinals.isEmpty ? "" : " (\(ordinals.joined(separator: "; ")))"
      throw DeckError(
        .invalidRequest, at: location.item("note \(card.noteID), cards \(other.id) and \(card.id)"),
        "cards \(other.id) and \(card.id) of note \(card.noteID) both have template ordinal \(card.templateOrdinal)\(clamped); Anki keeps one card per note and template (it imports both, and its Check Database deletes one with its scheduling), so give one of them another ordinal or leave it out"
      )
    }
  }

  /// A note and one of its templates.
  private struct NoteTemplate: Hashable {
    var noteID: Int64
    var ordinal: Int
  }
}
