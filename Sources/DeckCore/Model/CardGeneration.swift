import Foundation

/// Which cards Anki makes for a new note, so a note read from a source without cards (a CSV file,
/// a CrowdAnki folder) gets the cards the
/// real Anki would give it on import (the rules of Anki's `rslib/src/notetype/cardgen.rs`).
///
/// * Standard note types: one card per template whose front shows a field that is not empty
///   (``AnkiTemplate/showsAField(whereNonEmpty:)``), where a field is empty when it holds only ASCII
///   white space and `<br>` or `<div>` tags, and the special fields Anki adds count as not
///   empty; a front that does not parse makes no card.
/// * Cloze note types: one card per cloze number found in any field (``ClozeNumbers``:
///   `{{c1::…}}`, `{{c2,3::…}}`), card `n - 1` for number `n`, at most 500.
/// * A note that would get no card gets the first one.
package struct CardGeneration {
  /// Each standard note type's template fronts, parsed once (nil where a front does not parse:
  /// Anki makes no card from it).
  private var fronts: [Int64: [AnkiTemplate?]] = [:]

  /// Creates a generator; each note type's templates are parsed once, on first use.
  package init() {}

  /// The template ordinals of the cards Anki makes for `fields` (with `tags`) of `noteType`,
  /// ascending.
  package mutating func ordinals(for fields: [String], tags: [String], of noteType: NoteType) -> [Int] {
    let ordinals: [Int]
    switch noteType.kind {
    case .cloze:
      ordinals = Set(fields.flatMap(ClozeNumbers.numbers(in:))).map { min(max($0 - 1, 0), 499) }.sorted()
    case .standard:
      let parsed: [AnkiTemplate?]
      if let known = fronts[noteType.id] {
        parsed = known
      } else {
        parsed = noteType.templates.map { try? AnkiTemplate(parsing: $0.questionFormat) }
        fronts[noteType.id] = parsed
      }
      let nonEmpty = Self.nonEmptyNames(fields: fields, tags: tags, of: noteType)
      ordinals = parsed.indices.filter { parsed[$0]?.showsAField(whereNonEmpty: nonEmpty.contains) ?? false }
    }
    return ordinals.isEmpty ? [0] : ordinals
  }

  /// The names a front may show that are not empty: the note's fields that are not empty
  /// (``AnkiTemplate/isEmptyField(_:)``) and the special fields Anki counts as never empty
  /// (`Card`, `CardFlag`, `CardID`, `Deck`, `Subdeck`, `Type`; `Tags` when the note has tags)
  /// where no field has the name.
  private static func nonEmptyNames(fields: [String], tags: [String], of noteType: NoteType) -> Set<Substring> {
    var names = Set<Substring>()
    for (name, value) in zip(noteType.fieldNames, fields) where !AnkiTemplate.isEmptyField(value) {
      names.insert(name[...])
    }
    let fieldNames = Set(noteType.fieldNames)
    for special in ["Card", "CardFlag", "CardID", "Deck", "Subdeck", "Type", "Tags"]
    where !fieldNames.contains(special) && (special != "Tags" || !tags.isEmpty) {
      names.insert(special[...])
    }
    return names
  }

}
