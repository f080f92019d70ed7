import DeckCore
import Foundation
import JSONCore

/// Note types, decks and option groups of a schema-11 collection, stored as JSON text in the
/// `col` row (`models`, `decks`, `dconf`). Schemas 12–14 keep note types and decks there too.
package enum Schema11Config {
  /// One entry of a `col` column: the object as `JSONSerialization` gives it, for typed
  /// access, and its members as written, for the ``AnkiProperty`` values the model keeps.
  struct Entry {
    var object: [String: Any]
    var members: [(key: String, value: JSONValue)]
  }

  /// Parses the JSON text of one `col` column into its entries (an object of id to entry; of an
  /// id given twice, the last entry, as Anki reads it).
  static func entries(_ text: String, column: String, location: SourceLocation) throws -> [Entry] {
    let columnLocation = Self.columnLocation(column, in: location)
    let value: JSONValue
    do {
      value = try JSONParser.parse(text.utf8, options: .anki)
    } catch {
      throw DeckError(.corrupt, at: columnLocation, FoundationJSON.invalid(error))
    }
    guard let map = value.members else {
      throw DeckError(.corrupt, at: columnLocation, "expected a JSON object of id to entry")
    }
    var lastIndex: [String: Int] = [:]
    for (index, member) in map.enumerated() { lastIndex[member.key] = index }
    var result: [Entry] = []
    for (index, (key, entry)) in map.enumerated() where lastIndex[key] == index {
      guard let members = entry.members, let object = entry.foundationObject as? [String: Any] else {
        throw DeckError(.corrupt, at: columnLocation, "entry '\(key)' is not a JSON object")
      }
      result.append(Entry(object: object, members: members))
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

  /// A note type from one entry of `col.models`, with the ``AnkiProperty`` values of it, its
  /// fields and its templates.
  static func noteType(_ entry: Entry, location: SourceLocation) throws -> NoteType {
    let noteType = try noteType(
      entry.object, id: nil, label: entryLabel("note type", entry.object), at: columnLocation("models", in: location))
    return withProperties(noteType, from: entry.members)
  }

  /// `noteType`, read by ``noteType(_:id:label:at:)`` from the object whose members are
  /// `members`, with the ``AnkiProperty`` values of it, its fields and its templates.
  static func withProperties(_ noteType: NoteType, from members: [(key: String, value: JSONValue)]) -> NoteType {
    var noteType = noteType
    noteType.ankiProperties = Schema11Properties.properties(members, of: .noteType)
    let value = JSONValue.object(members)
    // In the order `noteType(_:id:label:at:)` put them in, which it checked are objects.
    let fields = ordered(value["flds"]?.elements ?? [])
    let templates = ordered(value["tmpls"]?.elements ?? [])
    for (index, field) in fields.enumerated() where index < noteType.fields.count {
      noteType.fields[index].ankiProperties = Schema11Properties.properties(field.members ?? [], of: .field)
    }
    for (index, template) in templates.enumerated() where index < noteType.templates.count {
      noteType.templates[index].ankiProperties = Schema11Properties.properties(template.members ?? [], of: .template)
    }
    return noteType
  }

  /// A note type from a schema-11 note type object found at `modelsLocation`, such as a
  /// CrowdAnki `NoteModel`; `id` replaces the object's own `id` (which CrowdAnki leaves out).
  /// Problems are reported as ``DeckError``s at `modelsLocation`, naming `label`.
  package static func noteType(
    _ object: [String: Any], id givenID: Int64?, label: String, at modelsLocation: SourceLocation
  ) throws -> NoteType {
    let json = JSONObjectReader(object: object, label: label, location: modelsLocation)
    let id = try givenID ?? json.int64("id")
    let fieldObjects = ordered(try json.objects("flds"))
    let templateObjects = ordered(try json.objects("tmpls"))
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

  /// A deck from one entry of `col.decks`, with its ``AnkiProperty`` values.
  static func deck(_ entry: Entry, location: SourceLocation) throws -> Deck {
    var deck = try deck(entry.object, location: location)
    deck.ankiProperties = Schema11Properties.properties(entry.members, of: Schema11Properties.owner(of: deck.kind))
    return deck
  }

  /// A deck's own properties from one entry of `col.decks`.
  private static func deck(_ object: [String: Any], location: SourceLocation) throws -> Deck {
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

  /// An option group from one entry of `col.dconf`, its settings kept as JSON text: sorted as
  /// `JSONSerialization` sorts them or, when a number in them is beyond a double's range (`1e400`,
  /// which Foundation cannot hold), as the entry has them, so that the writer can report it.
  static func deckOptions(_ entry: Entry, location: SourceLocation) throws -> DeckOptions {
    let object = entry.object
    let json = JSONObjectReader(
      object: object, label: entryLabel("option group", object), location: columnLocation("dconf", in: location))
    let members = JSONValue.object(entry.members)
    let settings =
      Schema11ValueKinds.withinDoubles(members) ? FoundationJSON.text(of: object) : JSONWriter.text(of: members)
    return DeckOptions(
      id: try json.int64("id"),
      name: json.optionalString("name") ?? "",
      modificationTime: json.optionalInt64("mod") ?? 0,
      settings: .anki11JSON(settings))
  }

  /// Entries sorted by their `ord` key when every entry has one, else in array order.
  private static func ordered(_ objects: [[String: Any]]) -> [[String: Any]] {
    order(ords: objects.map { $0["ord"].flatMap(FoundationJSON.int64) }).map { objects[$0] }
  }

  /// The same for entries as written: in the order ``ordered(_:)-([[String:Any]])`` gives
  /// the same entries.
  private static func ordered(_ values: [JSONValue]) -> [JSONValue] {
    order(ords: values.map { ($0["ord"]?.foundationObject).flatMap(FoundationJSON.int64) })
      .map { values[$0] }
  }

  /// The indices of entries with these `ord` values, sorted by them (ties in array order) when
  /// every entry has one, else in array order.
  private static func order(ords: [Int64?]) -> [Int] {
    let known = ords.compactMap { $0 }
    guard known.count == ords.count else { return Array(ords.indices) }
    return known.indices.sorted { (known[$0], $0) < (known[$1], $1) }
  }
}
