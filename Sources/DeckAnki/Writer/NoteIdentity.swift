import DeckCore

/// Note GUIDs, the identity Anki matches notes by when a package is imported again.
///
/// GUIDs from the source are kept. A note without one gets a GUID derived from its content the
/// way genanki derives them (`guid_for(note type id, *fields)`, SHA-256, base 91), so writing
/// the same input twice gives the same GUIDs and re-importing updates notes instead of
/// duplicating them. Two notes with identical content get distinct GUIDs: the later one (in
/// note order) has its ordinal appended to the hashed values (`…, "2"`).
enum NoteIdentity {
  /// `notes` with every empty GUID filled in.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` naming both notes when two share a GUID, since
  ///   Anki would import only one of them.
  static func assigningGUIDs(to notes: [Note], location: SourceLocation) throws -> [Note] {
    var owners: [String: Int64] = [:]
    for note in notes where !note.guid.isEmpty {
      if let other = owners[note.guid] {
        throw DeckError(
          .invalidRequest, at: location.item("note \(note.id)"),
          "note has the GUID '\(note.guid)' of note \(other); Anki matches notes by GUID and would import only one of them")
      }
      owners[note.guid] = note.id
    }
    var result = notes
    for index in result.indices where result[index].guid.isEmpty {
      let note = result[index]
      let values = [String(note.noteTypeID)] + note.fields
      var guid = AnkiGUID.derived(from: values)
      var ordinal = 2
      while guid.isEmpty || owners[guid] != nil {
        guid = AnkiGUID.derived(from: values + [String(ordinal)])
        ordinal += 1
      }
      owners[guid] = note.id
      result[index].guid = guid
    }
    return result
  }
}
