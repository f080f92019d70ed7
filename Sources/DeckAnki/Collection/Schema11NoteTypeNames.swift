import DeckCore

/// What Anki does to the names inside a schema-11 collection's note types when it opens the
/// collection (its upgrade of the `models` column, `upgrade_notetypes_to_schema15`): the note
/// type's, its fields' and its templates' names are put in Unicode NFC, then of two templates,
/// or two fields, whose names match ignoring case (``TakenNames``) the later gets `+` added
/// until its name is its own (`Card` and `card` become `Card` and `card+`). Every opening of
/// the collection does the same, so the reader does it too, and says so: the names change, and
/// a template that named a renamed field by its old name no longer finds it, in Anki as here.
///
/// Two note types of one name are another matter: Anki renames one of them (`Twin_`), but which
/// one differs from one opening to the next, so the reader keeps both names
/// (``AnkiShownNames`` shows one outcome in `deckport render`, with a warning).
enum Schema11NoteTypeNames {
  /// `noteTypes` with their names as Anki stores them once it has opened the collection, and a
  /// warning for each name changed, naming the note type and the old and new name.
  static func upgraded(_ noteTypes: [NoteType], location: SourceLocation) -> (
    noteTypes: [NoteType], warnings: [Diagnostic]
  ) {
    var warnings: [Diagnostic] = []
    var result = noteTypes
    for index in result.indices {
      var noteType = result[index]
      let here = location.item(CollectionValidation.label(noteType))
      let composedName = noteType.name.canonicallyComposed
      if !composedName.isExactly(noteType.name) {
        warnings.append(
          Diagnostic(
            .noteTypeRenamed, at: here,
            "the note type's name is not in Unicode NFC; Anki converts it when it opens the collection, and it is read so"
          ))
        noteType.name = composedName
      }
      let templates = opened(noteType.templates.map(\.name), "card template", category: .templateRenamed, at: here)
      for (position, name) in templates.names.enumerated() { noteType.templates[position].name = name }
      let fields = opened(noteType.fields.map(\.name), "field", category: .fieldRenamed, at: here)
      for (position, name) in fields.names.enumerated() { noteType.fields[position].name = name }
      warnings += templates.warnings + fields.warnings
      result[index] = noteType
    }
    return (result, warnings)
  }

  /// `names` (of a note type's templates or fields, each a `what`) as Anki stores them once it
  /// has opened the collection, and a warning for each changed.
  private static func opened(_ names: [String], _ what: String, category: Diagnostic.Category, at here: SourceLocation)
    -> (
      names: [String], warnings: [Diagnostic]
    )
  {
    var taken = TakenNames()
    var result = names
    var warnings: [Diagnostic] = []
    for (position, old) in names.enumerated() {
      let composed = old.canonicallyComposed
      let new = taken.take(composed, suffix: "+")
      result[position] = new
      guard !new.isExactly(old) else { continue }
      var reasons: [String] = []
      if !composed.isExactly(old) { reasons.append("its name is not in Unicode NFC (Anki converts it)") }
      // The names before it are already as Anki stores them, so the one it met is among them.
      if !new.isExactly(composed),
        let earlier = result[..<position].first(where: { FullCaseFolding.key($0) == FullCaseFolding.key(composed) })
      {
        reasons.append(
          "\(what) '\(MediaFileName.visible(earlier))' before it has the same name (Anki compares names ignoring case)")
      }
      // Names are shown with their hidden characters visible: an NFD name renamed to its NFC
      // form would otherwise read the same on both sides.
      let (shownOld, shownNew) = (MediaFileName.visible(old), MediaFileName.visible(new))
      let lost =
        what == "field" ? "; a template that names it '{{\(shownOld)}}' no longer finds it, in Anki as here" : ""
      warnings.append(
        Diagnostic(
          category, at: here,
          "\(what) \(CountedPosition.text(ofIndex: position)), '\(shownOld)', is renamed '\(shownNew)', as Anki renames it when it opens the collection: \(WordList.joined(reasons))\(lost)"
        ))
    }
    return (result, warnings)
  }
}
