import DeckCore

/// Note GUIDs, the identity Anki matches notes by when a package is imported again.
///
/// GUIDs from the source are kept. A note without one gets a GUID derived from its content the
/// way genanki derives them (`guid_for(note type id, *fields)`, SHA-256, base 91), so writing
/// the same input twice gives the same GUIDs and re-importing updates notes instead of
/// duplicating them. Two notes with identical content get distinct GUIDs: the later one (in
/// note order) has its ordinal appended to the hashed values (`…, "2"`).
///
/// Notes that share a GUID in the source are handled by a ``DuplicateGUIDPolicy``.
package enum NoteIdentity {
  /// The notes with every GUID settled, and the ids of the notes left out.
  struct Result {
    /// The notes to write, in their order, each with a GUID no other note has.
    var notes: [Note]
    /// The ids of the notes left out (``DuplicateGUIDPolicy/keepFirst``), else empty.
    var dropped: Set<Int64>
  }

  /// `notes` with every empty GUID filled in and duplicate GUIDs settled by `policy`.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` naming both notes when two share a GUID and
  ///   `policy` is ``DuplicateGUIDPolicy/fail``, since Anki matches notes by GUID: importing
  ///   the package again would update only one of them.
  static func assigningGUIDs(
    to notes: [Note], policy: DuplicateGUIDPolicy = .fail, location: SourceLocation, log: inout DiagnosticLog
  ) throws -> Result {
    // By GUID exactly: Anki keeps `é` and `e` + U+0301 apart, as two notes.
    var owners: [ExactKey: Int64] = [:]
    owners.reserveCapacity(notes.count)
    var dropped = Set<Int64>()
    var renamed: [Int: String] = [:]  // note index → the duplicate GUID it had
    // By index, and only the GUID and id: a note taken out of the array is a copy, one retain
    // for each of its strings.
    for index in notes.indices where !notes[index].guid.isEmpty {
      let guid = notes[index].guid
      guard let other = owners[ExactKey(guid)] else {
        owners[ExactKey(guid)] = notes[index].id
        continue
      }
      let note = notes[index]
      switch policy {
      case .fail:
        throw DeckError(
          .invalidRequest, at: location.item("note \(note.id)"),
          "note has the GUID '\(note.guid)' of note \(other); Anki matches notes by GUID, so importing the package again would update only one of them (\(setting: .duplicateGUIDs) keep-first or new-guid writes them)"
        )
      case .keepFirst:
        dropped.insert(note.id)
      case .newGUID:
        renamed[index] = note.guid
      }
    }
    var result = notes
    // A fresh GUID for each later duplicate: derived from the old GUID and the note id, so the
    // same input always gives the same GUID, and distinct from every GUID already taken.
    for (index, old) in renamed.sorted(by: { $0.key < $1.key }) {
      let note = result[index]
      let guid = uniqueGUID(from: [old, String(note.id)], taken: owners)
      owners[ExactKey(guid)] = note.id
      result[index].guid = guid
      log.report(
        .guidDuplicate, at: location.item("note \(note.id)"),
        "note has the GUID '\(old)' of note \(owners[ExactKey(old)] ?? 0), and Anki matches notes by GUID (importing the package again would update only one of them); it is written with the new GUID '\(guid)'"
      )
    }
    for index in result.indices where result[index].guid.isEmpty {
      let note = result[index]
      let guid = uniqueGUID(from: [String(note.noteTypeID)] + note.fields, taken: owners)
      owners[ExactKey(guid)] = note.id
      result[index].guid = guid
    }
    if !dropped.isEmpty {
      for note in notes where dropped.contains(note.id) {
        log.report(
          .guidDuplicate, at: location.item("note \(note.id)"),
          "note has the GUID '\(note.guid)' of note \(owners[ExactKey(note.guid)] ?? 0), and Anki matches notes by GUID (importing the package again would update only one of them); it is left out, with its cards"
        )
      }
      result.removeAll { dropped.contains($0.id) }
    }
    return Result(notes: result, dropped: dropped)
  }

  /// A `guid-duplicate` warning for each note of `notes` whose GUID an earlier note has, for a
  /// writer that keeps GUIDs as they are (a CSV file with a guid column, a CrowdAnki folder):
  /// `importer` matches notes by GUID, so once both notes are in a collection, importing the
  /// written file again after an edit updates only one of them (observed with Anki's CSV import:
  /// the other note's edit is lost).
  ///
  /// Only the notes whose GUID's hash another note's GUID has are compared exactly, so that a
  /// million-note deck's GUIDs are not held in a dictionary (some 50 MB) beside the notes: a set
  /// of 64-bit hashes takes a third of that.
  package static func sharedGUIDWarnings(in notes: [Note], importer: String, location: SourceLocation)
    -> [Diagnostic]
  {
    var hashes = IDSet(minimumCapacity: notes.count)
    var sharedHashes = Set<Int>()
    for note in notes where !note.guid.isEmpty {
      let hash = ExactKey(note.guid).hashValue
      if !hashes.insert(Int64(hash)) { sharedHashes.insert(hash) }
    }
    guard !sharedHashes.isEmpty else { return [] }
    // The hashes are no longer needed: emptying the set frees its memory (16 MB for a million
    // notes) before the exact pass builds its own dictionary.
    hashes = IDSet()
    var owners: [ExactKey: Int64] = [:]
    var warnings: [Diagnostic] = []
    for note in notes where !note.guid.isEmpty && sharedHashes.contains(ExactKey(note.guid).hashValue) {
      let key = ExactKey(note.guid)
      guard let other = owners[key] else {
        owners[key] = note.id
        continue
      }
      warnings.append(
        Diagnostic(
          .guidDuplicate, at: location.item("note \(note.id)"),
          "note has the GUID '\(note.guid)' of note \(other), and both are written with it; \(importer) matches notes by GUID, so importing it again after an edit would update only one of them"
        ))
    }
    return warnings
  }

  /// The GUID derived from `values` (``DerivedID/guid(for:)``), or from `values` with an
  /// ordinal appended (`…, "2"`) until it is not empty and not in `taken`.
  private static func uniqueGUID(from values: [String], taken: [ExactKey: Int64]) -> String {
    var guid = DerivedID.guid(for: values)
    var ordinal = 2
    while guid.isEmpty || taken[ExactKey(guid)] != nil {
      guid = DerivedID.guid(for: values + [String(ordinal)])
      ordinal += 1
    }
    return guid
  }
}
