import DeckCore
import Foundation
import JSONCore

/// Note types, decks and option groups of a schema-11 collection, stored as JSON text in the
/// `col` row (`models`, `decks`, `dconf`). Schemas 12–14 keep note types and decks there too.
package enum Schema11Config {
  /// Parses the JSON text of one `col` column into an object of id to entry.
  static func entries(_ text: String, column: String, location: SourceLocation) throws
    -> [[String: Any]]
  {
    let columnLocation = Self.columnLocation(column, in: location)
    let object: Any
    do {
      object = try FoundationJSON.object(text.utf8)
    } catch {
      throw DeckError(.corrupt, at: columnLocation, FoundationJSON.invalid(error))
    }
    guard let map = object as? [String: Any] else {
      throw DeckError(.corrupt, at: columnLocation, "expected a JSON object of id to entry")
    }
    var result: [[String: Any]] = []
    for (key, value) in map {
      guard let entry = value as? [String: Any] else {
        throw DeckError(.corrupt, at: columnLocation, "entry '\(key)' is not a JSON object")
      }
      result.append(entry)
    }
    return result
  }

  /// Where errors in column `column` of the `col` row point.
  private static func columnLocation(_ column: String, in location: SourceLocation) -> SourceLocation {
    location.table("col", row: 1).item("column \(column)")
  }

  /// How messages name an entry: `noun` and the entry's id (`deck 1`; `deck ?` without one).
  private static func entryLabel(_ noun: String, _ object: [String: Any]) -> String {
    "\(noun) \((object["id"]).map { "\($0)" } ?? "?")"
  }

  /// A note type from one entry of `col.models`.
  static func noteType(_ object: [String: Any], location: SourceLocation) throws -> NoteType {
    try noteType(object, id: nil, label: entryLabel("note type", object), at: columnLocation("models", in: location))
  }

  /// A note type from a schema-11 note type object found at `modelsLocation`, such as a
  /// CrowdAnki `NoteModel`; `id` replaces the object's own `id` (which CrowdAnki leaves out).
  /// Problems are reported as ``DeckError``s at `modelsLocation`, naming `label`.
  package static func noteType(
    _ object: [String: Any], id givenID: Int64?, label: String, at modelsLocation: SourceLocation
  ) throws -> NoteType {
    let json = JSONObjectReader(object: object, label: label, location: modelsLocation)
    let id = try givenID ?? json.int64("id")
    let fieldObjects = try ordered(try json.objects("flds"))
    let templateObjects = try ordered(try json.objects("tmpls"))
    let fields = try fieldObjects.map { fieldObject in
      let field = JSONObjectReader(object: fieldObject, label: "\(label), a field", location: modelsLocation)
      return NoteType.Field(
        name: try field.string("name"),
        fontName: field.optionalString("font") ?? "",
        fontSize: Int(field.optionalInt64("size") ?? 0),
        rightToLeft: field.optionalBool("rtl") ?? false,
        sticky: field.optionalBool("sticky") ?? false,
        description: field.optionalString("description") ?? "",
        plainText: field.optionalBool("plainText") ?? false,
        collapsed: field.optionalBool("collapsed") ?? false,
        excludeFromSearch: field.optionalBool("excludeFromSearch") ?? false,
        ankiID: field.optionalInt64("id"),
        tag: field.optionalInt64("tag").map { Int($0) },
        preventDeletion: field.optionalBool("preventDeletion") ?? false)
    }
    let templates = try templateObjects.map { templateObject in
      let template = JSONObjectReader(
        object: templateObject, label: "\(label), a template", location: modelsLocation)
      return NoteType.CardTemplate(
        name: try template.string("name"),
        questionFormat: try template.string("qfmt"),
        answerFormat: template.optionalString("afmt") ?? "",
        browserQuestionFormat: template.optionalString("bqfmt") ?? "",
        browserAnswerFormat: template.optionalString("bafmt") ?? "",
        browserFontName: template.optionalString("bfont") ?? "",
        browserFontSize: Int(template.optionalInt64("bsize") ?? 0),
        targetDeckID: template.optionalInt64("did"),
        ankiID: template.optionalInt64("id"))
    }
    return NoteType(
      id: id,
      name: try json.string("name"),
      kind: (json.optionalInt64("type") ?? 0) == 1 ? .cloze : .standard,
      fields: fields,
      templates: templates,
      css: json.optionalString("css") ?? "",
      sortFieldIndex: Int(json.optionalInt64("sortf") ?? 0),
      latexPreamble: json.optionalString("latexPre") ?? "",
      latexPostamble: json.optionalString("latexPost") ?? "",
      latexSVG: json.optionalBool("latexsvg") ?? false,
      originalStockKind: Int(json.optionalInt64("originalStockKind") ?? 0),
      originalID: json.optionalInt64("originalId"),
      modificationTime: json.optionalInt64("mod") ?? 0,
      crowdAnkiUUID: json.optionalString("crowdanki_uuid"))
  }

  /// A deck from one entry of `col.decks`.
  static func deck(_ object: [String: Any], location: SourceLocation) throws -> Deck {
    let json = JSONObjectReader(
      object: object, label: entryLabel("deck", object), location: columnLocation("decks", in: location))
    let kind: Deck.Kind
    if (json.optionalInt64("dyn") ?? 0) != 0 {
      let terms = (object["terms"] as? [[Any]] ?? []).map { term in
        FilteredDeck.SearchTerm(
          search: term.first.flatMap(FoundationJSON.string) ?? "",
          limit: Int(term.dropFirst().first.flatMap(FoundationJSON.int64) ?? 0),
          order: Int(term.dropFirst(2).first.flatMap(FoundationJSON.int64) ?? 0))
      }
      kind = .filtered(FilteredDeck(reschedule: json.optionalBool("resched") ?? true, searchTerms: terms))
    } else {
      kind = .normal(optionsID: json.optionalInt64("conf") ?? 1)
    }
    return Deck(
      id: try json.int64("id"),
      name: try json.string("name"),
      description: json.optionalString("desc") ?? "",
      descriptionIsMarkdown: json.optionalBool("md") ?? false,
      kind: kind,
      modificationTime: json.optionalInt64("mod") ?? 0,
      crowdAnkiUUID: json.optionalString("crowdanki_uuid"))
  }

  /// An option group from one entry of `col.dconf`, its settings kept as JSON text.
  static func deckOptions(_ object: [String: Any], location: SourceLocation) throws -> DeckOptions {
    let json = JSONObjectReader(
      object: object, label: entryLabel("option group", object), location: columnLocation("dconf", in: location))
    return DeckOptions(
      id: try json.int64("id"),
      name: json.optionalString("name") ?? "",
      modificationTime: json.optionalInt64("mod") ?? 0,
      settings: .anki11JSON(FoundationJSON.text(of: object)))
  }

  /// Entries sorted by their `ord` key when every entry has one, else in array order.
  private static func ordered(_ objects: [[String: Any]]) throws -> [[String: Any]] {
    let ords = objects.compactMap { $0["ord"].flatMap(FoundationJSON.int64) }
    guard ords.count == objects.count else { return objects }
    return zip(ords, objects).sorted { $0.0 < $1.0 }.map(\.1)
  }
}
