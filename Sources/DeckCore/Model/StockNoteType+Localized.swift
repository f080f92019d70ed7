extension StockNoteType {
  /// One language's names for a stock note type: a row of ``namesInLanguages``.
  typealias LanguageNames = (
    kind: StockNoteType, name: String, fields: [String], templates: [String], texts: [String],
    templateFields: [String]
  )

  /// The stock note type Anki names `name` in one of the languages it speaks ("Basique" in
  /// French, "Einfach" in German, "Basic" in English; compared ignoring case, as Anki compares
  /// note type names), as Anki creates it in that language: its fields, card templates and the
  /// texts they show in that language, the rest as ``noteType``, and an id derived from the name.
  /// A CSV file exported by Anki in another language names its note types so.
  ///
  /// Where languages give one name different fields (Anki leaves some names untranslated), the
  /// language whose fields are `fieldNames` (ignoring case) is taken, else the first (English
  /// first). Nil for a name that is no stock note type's.
  ///
  /// ```swift
  /// StockNoteType.noteType(named: "Basique")?.fieldNames   // ["Recto", "Verso"]
  /// ```
  public static func noteType(named name: String, fieldNames: [String] = []) -> NoteType? {
    guard let candidates = languagesByName[name.lowercased()], let first = candidates.first else { return nil }
    let folded = fieldNames.map { $0.lowercased() }
    let chosen = candidates.first { $0.fields.map { $0.lowercased() } == folded } ?? first
    return localized(chosen)
  }

  /// The languages' names by note type name, lowercased.
  private static let languagesByName = Dictionary(grouping: namesInLanguages) { $0.name.lowercased() }

  /// The stock note type of `names.kind` with those names: the English one, its fields and
  /// templates renamed, the fields its templates name renamed with them (spelled as the
  /// language's templates spell them), and its texts translated.
  private static func localized(_ names: LanguageNames) -> NoteType {
    var noteType = names.kind.noteType
    let english = namesInLanguages.first { $0.kind == names.kind }
    let spelled = names.templateFields.isEmpty ? names.fields : names.templateFields
    let renames = Dictionary(zip(noteType.fieldNames, spelled), uniquingKeysWith: { first, _ in first })
    let texts = zip(english?.texts ?? [], names.texts)
    func translated(_ format: String) -> String {
      texts.reduce(AnkiTemplate.renamingFields(in: format, renames)) {
        $0.replacingOccurrences(of: $1.0, with: $1.1)
      }
    }
    noteType.id = derivedID(forName: names.name)
    noteType.name = names.name
    for (index, name) in names.fields.enumerated() where noteType.fields.indices.contains(index) {
      noteType.fields[index].name = name
    }
    for (index, name) in names.templates.enumerated() where noteType.templates.indices.contains(index) {
      noteType.templates[index].name = name
      noteType.templates[index].questionFormat = translated(noteType.templates[index].questionFormat)
      noteType.templates[index].answerFormat = translated(noteType.templates[index].answerFormat)
    }
    return noteType
  }
}
