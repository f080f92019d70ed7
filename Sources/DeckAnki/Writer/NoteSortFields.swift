import DeckCore

/// The two columns of a note Anki derives from its fields: `sfld`, the sort field with its HTML
/// stripped, and `csum`, the checksum of the first field stripped (``AnkiFieldText``).
///
/// They cost more than the rest of a note's row (the checksum is a SHA-1), so the package
/// writer computes them on a thread of their own while the collection writer inserts the cards.
struct NoteSortFields: Sendable, Equatable {
  /// The `sfld` text; the column's integer affinity stores "12" as 12, as Anki does.
  var sortField: String
  /// The `csum` number.
  var checksum: UInt32

  /// The columns of each of `notes`, in order; a note type missing from `noteTypes` sorts by
  /// the first field.
  static func of(_ notes: [Note], noteTypes: [NoteType]) -> [NoteSortFields] {
    let sortIndexes = Dictionary(noteTypes.map { ($0.id, $0.sortFieldIndex) }, uniquingKeysWith: { first, _ in first })
    return notes.map { note in
      let sortIndex = sortIndexes[note.noteTypeID] ?? 0
      let firstField = AnkiFieldText.strippingHTMLPreservingMediaFileNames(note.fields.first ?? "")
      let sortField =
        sortIndex == 0
        ? firstField
        : AnkiFieldText.strippingHTMLPreservingMediaFileNames(
          note.fields.indices.contains(sortIndex) ? note.fields[sortIndex] : "")
      return NoteSortFields(sortField: sortField, checksum: AnkiFieldText.checksum(firstField))
    }
  }
}
