import DeckCore
import Foundation
import JSONCore

/// The `req` key of a schema-11 note type: for each template, which fields must be non-empty
/// for the card to exist (`[[ord, "any"|"all"|"none", [field ords]], …]`).
///
/// Current Anki recomputes it on import and ignores it otherwise, but older clients (Anki 2.1
/// before 2.1.28, older AnkiDroid) generate cards from it, so it is written as Anki computes
/// it: the template is parsed as Anki parses it (`rslib/src/template.rs`: `{{field}}`,
/// `{{filter:field}}`, `{{#field}}…{{/field}}`, `{{^field}}…{{/field}}`, `<!-- -->` comments),
/// then each field alone is tried ("any"), else the set of fields that cannot be left out
/// ("all"), else "none". A template that does not parse gives "none".
enum TemplateRequirements {
  /// The `req` array for `noteType`.
  static func json(for noteType: NoteType) -> JSONValue {
    let fieldOrdinals = Dictionary(
      noteType.fields.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    return .array(
      noteType.templates.enumerated().map { ordinal, template in
        let (kind, ordinals) = requirement(questionFormat: template.questionFormat, fields: fieldOrdinals)
        return .array([.int(ordinal), .string(kind), .array(ordinals.map { .int($0) })])
      })
  }

  /// The requirement kind and the sorted field ordinals of one question format.
  static func requirement(questionFormat: String, fields: [String: Int]) -> (String, [Int]) {
    guard let nodes = parse(questionFormat) else { return ("none", []) }
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

  // MARK: - Template syntax

  indirect enum Node {
    case text
    case replacement(key: String)
    case conditional(key: String, children: [Node])
    case negated(key: String, children: [Node])
  }

  private enum Token {
    case text
    case replacement(String)
    case open(String)
    case openNegated(String)
    case close(String)
  }

  /// Whether a template renders something when exactly `nonEmpty` fields have content, with
  /// negated sections always entered (Anki's `renders_with_fields_for_reqs`).
  static func rendersWith(_ nodes: [Node], nonEmpty: Set<String>) -> Bool {
    for node in nodes {
      switch node {
      case .text: continue
      case .replacement(let key):
        if nonEmpty.contains(key) { return true }
      case .conditional(let key, let children):
        if nonEmpty.contains(key) && rendersWith(children, nonEmpty: nonEmpty) { return true }
      case .negated(_, let children):
        if rendersWith(children, nonEmpty: nonEmpty) { return true }
      }
    }
    return false
  }

  /// The parsed template, or nil when a section is not closed or closed out of order.
  static func parse(_ template: String) -> [Node]? {
    var tokens = tokenize(template)[...]
    return parseNodes(&tokens, openTag: nil)
  }

  private static func parseNodes(_ tokens: inout ArraySlice<Token>, openTag: String?) -> [Node]? {
    var nodes: [Node] = []
    while let token = tokens.popFirst() {
      switch token {
      case .text: nodes.append(.text)
      case .replacement(let handle):
        let key = handle.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? handle
        nodes.append(.replacement(key: key))
      case .open(let key):
        guard let children = parseNodes(&tokens, openTag: key) else { return nil }
        nodes.append(.conditional(key: key, children: children))
      case .openNegated(let key):
        guard let children = parseNodes(&tokens, openTag: key) else { return nil }
        nodes.append(.negated(key: key, children: children))
      case .close(let key):
        return key == openTag ? nodes : nil
      }
    }
    return openTag == nil ? nodes : nil
  }

  private static func tokenize(_ template: String) -> [Token] {
    var rest = Substring(template)
    var start = "{{"
    var end = "}}"
    let alternative = "{{=<% %>=}}"
    let leading = rest.drop(while: { $0.isWhitespace })
    if leading.hasPrefix(alternative) {
      rest = leading.dropFirst(alternative.count)
      start = "<%"
      end = "%>"
    }
    var tokens: [Token] = []
    while !rest.isEmpty {
      let handlebar = rest.range(of: start).flatMap { open in
        rest[open.upperBound...].range(of: end).map { close in (open, close) }
      }
      let comment = rest.range(of: "<!--").flatMap { open in
        rest[open.upperBound...].range(of: "-->").map { close in (open, close) }
      }
      guard handlebar != nil || comment != nil else {
        tokens.append(.text)
        break
      }
      if let handlebar, comment.map({ handlebar.0.lowerBound <= $0.0.lowerBound }) ?? true {
        if handlebar.0.lowerBound > rest.startIndex { tokens.append(.text) }
        tokens.append(classify(rest[handlebar.0.upperBound..<handlebar.1.lowerBound]))
        rest = rest[handlebar.1.upperBound...]
      } else if let comment {
        if comment.0.lowerBound > rest.startIndex { tokens.append(.text) }
        tokens.append(.text)
        rest = rest[comment.1.upperBound...]
      }
    }
    return tokens
  }

  /// Anki's `classify_handle`: leading `{` and surrounding whitespace removed, then `#`, `/`
  /// or `^` opens, closes or opens a negated section.
  private static func classify(_ handle: Substring) -> Token {
    let trimmed = handle.drop(while: { $0 == "{" }).trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.utf8.count >= 2, let first = trimmed.first else { return .replacement(trimmed) }
    let rest = String(trimmed.dropFirst()).drop(while: { $0.isWhitespace })
    switch first {
    case "#": return .open(String(rest))
    case "/": return .close(String(rest))
    case "^": return .openNegated(String(rest))
    default: return .replacement(trimmed)
    }
  }
}
