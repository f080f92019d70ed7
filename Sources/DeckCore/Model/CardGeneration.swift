import Foundation

/// Which cards Anki makes for a new note, so a note read from a source without cards (a CSV file,
/// a CrowdAnki folder) gets the cards the
/// real Anki would give it on import (the rules of Anki's `rslib/src/notetype/cardgen.rs`).
///
/// * Standard note types: one card per template whose front shows a non-empty field, where a
///   field is empty when it holds only white space; `{{#F}}…{{/F}}` counts only when F is not
///   empty and `{{^F}}…{{/F}}` only when F is empty.
/// * Cloze note types: one card per cloze number found in any field (`{{c1::…}}`, `{{c2,3::…}}`),
///   card `n - 1` for number `n`, at most 500.
/// * A note that would get no card gets the first one.
package struct CardGeneration {
  private var parsedFronts: [Int64: [[TemplateNode]]] = [:]

  /// Creates a generator; each note type's templates are parsed once, on first use.
  package init() {}

  /// The template ordinals of the cards Anki makes for `fields` of `noteType`, ascending.
  package mutating func ordinals(for fields: [String], of noteType: NoteType) -> [Int] {
    let ordinals: [Int]
    switch noteType.kind {
    case .cloze:
      ordinals = Array(Set(fields.flatMap(Self.clozeNumbers)).map { min(max($0 - 1, 0), 499) }).sorted()
    case .standard:
      let fronts = parsedFronts[noteType.id] ?? noteType.templates.map { TemplateNode.parse($0.questionFormat) }
      parsedFronts[noteType.id] = fronts
      var nonEmpty = Set<String>()
      for (name, value) in zip(noteType.fieldNames, fields) where !Self.isEmpty(value) { nonEmpty.insert(name) }
      ordinals = fronts.indices.filter { !Self.isEmpty(fronts[$0], nonEmpty: nonEmpty) }
    }
    return ordinals.isEmpty ? [0] : ordinals
  }

  /// Anki's `field_is_empty`: nothing but white space and zero-width spaces.
  package static func isEmpty(_ field: String) -> Bool {
    field.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" }
  }

  /// The cloze numbers in `text`: every `{{c` followed by numbers separated by commas and `::`.
  package static func clozeNumbers(in text: String) -> [Int] {
    guard text.containsUTF8Byte(UInt8(ascii: "{")) else { return [] }
    var numbers: [Int] = []
    let bytes = Array(text.utf8)
    var index = 0
    while index + 3 < bytes.count {
      guard bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "{"),
        bytes[index + 2] == UInt8(ascii: "c") || bytes[index + 2] == UInt8(ascii: "C")
      else {
        index += 1
        continue
      }
      var cursor = index + 3
      var found: [Int] = []
      var current: Int? = nil
      while cursor < bytes.count {
        let byte = bytes[cursor]
        if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
        } else if byte == UInt8(ascii: ","), let number = current {
          found.append(number)
          current = nil
        } else {
          break
        }
        cursor += 1
      }
      if let number = current, cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: ":"),
        bytes[cursor + 1] == UInt8(ascii: ":")
      {
        numbers += found + [number]
        index = cursor + 2
      } else {
        index += 1
      }
    }
    return numbers
  }

  /// Anki's `template_is_empty` with negated conditionals checked.
  private static func isEmpty(_ nodes: [TemplateNode], nonEmpty: Set<String>) -> Bool {
    for node in nodes {
      switch node {
      case .replacement(let key):
        if nonEmpty.contains(key) { return false }
      case .conditional(let key, let children):
        if nonEmpty.contains(key), !isEmpty(children, nonEmpty: nonEmpty) { return false }
      case .negatedConditional(let key, let children):
        if !nonEmpty.contains(key), !isEmpty(children, nonEmpty: nonEmpty) { return false }
      }
    }
    return true
  }
}

/// The parts of a card template that decide whether a card is empty: field replacements and
/// (negated) conditional sections. Text is left out.
indirect enum TemplateNode: Equatable {
  /// `{{Field}}` or `{{filter:…:Field}}`: the key after the last `:`.
  case replacement(String)
  /// `{{#Field}}…{{/Field}}`.
  case conditional(String, [TemplateNode])
  /// `{{^Field}}…{{/Field}}`.
  case negatedConditional(String, [TemplateNode])

  /// The nodes of `template`; an unclosed section runs to the end, a stray closing tag is ignored.
  static func parse(_ template: String) -> [TemplateNode] {
    var tags: [Substring] = []
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      tags.append(rest[open.upperBound..<close.lowerBound])
      rest = rest[close.upperBound...]
    }
    var position = 0
    return parse(tags, &position, closing: nil)
  }

  private static func parse(_ tags: [Substring], _ position: inout Int, closing: String?) -> [TemplateNode] {
    var nodes: [TemplateNode] = []
    while position < tags.count {
      let tag = tags[position].trimmingCharacters(in: .whitespaces)
      position += 1
      if let first = tag.first, first == "#" || first == "^" {
        let key = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
        let children = parse(tags, &position, closing: key)
        nodes.append(first == "#" ? .conditional(key, children) : .negatedConditional(key, children))
      } else if tag.hasPrefix("/") {
        let key = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
        if key == closing { return nodes }
      } else if !tag.hasPrefix("!") {
        let key = tag.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? tag
        nodes.append(.replacement(key.trimmingCharacters(in: .whitespaces)))
      }
    }
    return nodes
  }
}
