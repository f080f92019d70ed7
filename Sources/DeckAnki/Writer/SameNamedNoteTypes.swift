import DeckCore

/// Two note types whose names Anki takes for one (ignoring case), as a legacy collection may
/// hold them: the later one is written under the name Anki shows for it when it renames it
/// (``AnkiShownNames``: `Twin` and `Twin_`), with a `note-type-renamed` warning.
///
/// Anki renames one of such a pair when it opens a collection holding both, a different one
/// from one opening to the next (judged by the real backend in `test_card_rendering.py`). A
/// package written with the names already apart is opened the same way every time, and its
/// notes keep their note types; `deckport render` and the reader's warning name the same one.
enum SameNamedNoteTypes {
  /// `collection`'s note types, each of a name another before it has renamed as Anki shows it
  /// and reported in `log`. In a deck package (`kind`), only the note types its notes use are
  /// written, so only those are compared: a note type left out renames none.
  static func renamed(
    _ collection: DeckCollection, kind: AnkiPackageKind, location: SourceLocation, log: inout DiagnosticLog
  ) -> [NoteType] {
    var noteTypes = collection.noteTypes
    let keys = Set(noteTypes.map { FullCaseFolding.key($0.name) })
    // Most collections: every name its own, nothing to rename.
    guard keys.count < noteTypes.count else { return noteTypes }
    var written = collection
    if kind == .apkg {
      let used = Set(collection.notes.map(\.noteTypeID))
      written.noteTypes = noteTypes.filter { used.contains($0.id) }
    }
    let names = AnkiShownNames(written)
    for renamed in names.renamed where renamed.what == "note type" {
      guard let index = noteTypes.firstIndex(where: { $0.id == renamed.id }) else { continue }
      noteTypes[index].name = renamed.shown
      log.report(
        .noteTypeRenamed, at: location.item("note type '\(MediaFileName.visible(renamed.name))' (id \(renamed.id))"),
        "note type \(renamed.keptID), '\(MediaFileName.visible(renamed.keptName))', has the same name (Anki compares names ignoring case), and Anki renames one of the two when it opens the collection, a different one from one opening to the next; this one is written as '\(MediaFileName.visible(renamed.shown))', as Anki names it when it renames this one"
      )
    }
    return noteTypes
  }
}
