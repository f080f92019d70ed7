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
  /// A standard note type's fronts, parsed once (nil where a front does not parse: Anki makes
  /// no card from it), and where each name a front may show is found.
  private struct Fronts {
    let templates: [AnkiTemplate?]
    /// The position of each field name (the first field of a name, names compared exactly).
    let positions: FieldPositions
    /// The special fields no field's name hides: `Tags`, and the ones Anki counts as never empty.
    let hasTags: Bool
    let alwaysNonEmpty: Set<Substring>
  }

  private var fronts: [Int64: Fronts] = [:]

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
      let parsed = fronts[noteType.id] ?? Self.fronts(of: noteType)
      fronts[noteType.id] = parsed
      // A name the front shows is not empty when it is a field that is not empty
      // (``AnkiTemplate/isEmptyField(_:)``), `Tags` of a note with tags, or another special field.
      func isNonEmpty(_ name: Substring) -> Bool {
        if let position = parsed.positions[name] {
          return position < fields.count && !AnkiTemplate.isEmptyField(fields[position])
        }
        if name == "Tags" { return parsed.hasTags && !tags.isEmpty }
        return parsed.alwaysNonEmpty.contains(name)
      }
      ordinals = parsed.templates.indices.filter {
        parsed.templates[$0]?.showsAField(whereNonEmpty: isNonEmpty) ?? false
      }
    }
    return ordinals.isEmpty ? [0] : ordinals
  }

  /// `noteType`'s fronts parsed, its field positions, and the special fields Anki counts as not
  /// empty where no field has the name (`Card`, `CardFlag`, `CardID`, `Deck`, `Subdeck`, `Type`;
  /// `Tags` when the note has tags).
  private static func fronts(of noteType: NoteType) -> Fronts {
    let positions = noteType.fieldPositions
    let specials: Set<Substring> = ["Card", "CardFlag", "CardID", "Deck", "Subdeck", "Type"]
    return Fronts(
      templates: noteType.templates.map { try? AnkiTemplate(parsing: $0.questionFormat) }, positions: positions,
      hasTags: positions["Tags"] == nil, alwaysNonEmpty: specials.filter { positions[$0] == nil })
  }
}
