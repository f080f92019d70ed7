import DeckCore
import Foundation
import JSONCore

/// The `req` key of a schema-11 note type: for each template, which fields must be non-empty
/// for the card to exist (`[[ord, "any"|"all"|"none", [field ords]], …]`).
///
/// Current Anki recomputes it on import and ignores it otherwise, but older clients (Anki 2.1
/// before 2.1.28, older AnkiDroid) generate cards from it, so it is written as Anki computes
/// it: the template is parsed as Anki parses it (``AnkiTemplate``), then each field alone is tried ("any"), else the set of fields that cannot be left out
/// ("all"), else "none". A template that does not parse gives "none".
enum TemplateRequirements {
  /// The `req` array for `noteType`.
  static func json(for noteType: NoteType) -> JSONValue {
    let fieldOrdinals = Dictionary(
      noteType.fields.enumerated().map { ($0.element.name[...], $0.offset) }, uniquingKeysWith: { first, _ in first })
    return .array(
      noteType.templates.enumerated().map { ordinal, template in
        let (kind, ordinals) = requirement(questionFormat: template.questionFormat, fields: fieldOrdinals)
        return .array([.int(ordinal), .string(kind), .array(ordinals.map { .int($0) })])
      })
  }

  /// The requirement kind and the sorted field ordinals of one question format.
  static func requirement(questionFormat: String, fields: [Substring: Int]) -> (String, [Int]) {
    guard let nodes = try? AnkiTemplate(parsing: questionFormat).nodes else { return ("none", []) }
    var any: [Int] = []
    for (name, ordinal) in fields where rendersWith(nodes, nonEmpty: [name]) {
      any.append(ordinal)
    }
    if !any.isEmpty { return ("any", any.sorted()) }
    var nonEmpty = Set(fields.keys)
    var all = Set(fields.values)
    for (name, ordinal) in fields {
      nonEmpty.remove(name)
      if rendersWith(nodes, nonEmpty: nonEmpty) { all.remove(ordinal) }
      nonEmpty.insert(name)
    }
    if !all.isEmpty && rendersWith(nodes, nonEmpty: nonEmpty) { return ("all", all.sorted()) }
    return ("none", [])
  }

  /// Whether a template renders something when exactly `nonEmpty` fields have content, with
  /// negated sections always entered (Anki's `renders_with_fields_for_reqs`).
  static func rendersWith(_ nodes: [AnkiTemplate.Node], nonEmpty: Set<Substring>) -> Bool {
    nodes.contains { node in
      switch node {
      case .text, .comment: false
      case .replacement(let key, _): nonEmpty.contains(key)
      case .conditional(let key, let children): nonEmpty.contains(key) && rendersWith(children, nonEmpty: nonEmpty)
      case .negatedConditional(_, let children): rendersWith(children, nonEmpty: nonEmpty)
      }
    }
  }
}
