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
  /// Each standard note type's template fronts, parsed once, their field names resolved to
  /// the positions of the note's fields of that name.
  private var fronts: [Int64: [[FieldNode]]] = [:]

  /// Creates a generator; each note type's templates are parsed once, on first use.
  package init() {}

  /// The template ordinals of the cards Anki makes for `fields` of `noteType`, ascending.
  package mutating func ordinals(for fields: [String], of noteType: NoteType) -> [Int] {
    let ordinals: [Int]
    switch noteType.kind {
    case .cloze:
      ordinals = Array(Set(fields.flatMap(Self.clozeNumbers)).map { min(max($0 - 1, 0), 499) }).sorted()
    case .standard:
      let parsed: [[FieldNode]]
      if let known = fronts[noteType.id] {
        parsed = known
      } else {
        parsed = Self.fronts(of: noteType)
        fronts[noteType.id] = parsed
      }
      ordinals = parsed.indices.filter { !Self.isEmpty(parsed[$0], fields: fields) }
    }
    return ordinals.isEmpty ? [0] : ordinals
  }

  /// Anki's `field_is_empty`: nothing but white space and zero-width spaces.
  package static func isEmpty(_ field: String) -> Bool {
    // Most fields start with a printable ASCII character, which is neither.
    if let first = field.utf8.first, first > 0x20, first < 0x80 { return false }
    return field.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" }
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

  /// Anki's `template_is_empty` with negated conditionals checked, a field's emptiness looked
  /// at only when the template asks for it.
  private static func isEmpty(_ nodes: [FieldNode], fields: [String]) -> Bool {
    /// Whether a field of that name (at `positions`) is not empty.
    func shows(_ positions: [Int]) -> Bool {
      positions.contains { $0 < fields.count && !isEmpty(fields[$0]) }
    }
    for node in nodes {
      switch node {
      case .replacement(let positions):
        if shows(positions) { return false }
      case .conditional(let positions, let children):
        if shows(positions), !isEmpty(children, fields: fields) { return false }
      case .negatedConditional(let positions, let children):
        if !shows(positions), !isEmpty(children, fields: fields) { return false }
      }
    }
    return true
  }

  /// The fronts of `noteType`'s templates, their field names resolved to field positions.
  private static func fronts(of noteType: NoteType) -> [[FieldNode]] {
    var positions: [String: [Int]] = [:]
    for (position, name) in noteType.fieldNames.enumerated() { positions[name, default: []].append(position) }
    func resolved(_ nodes: [TemplateNode]) -> [FieldNode] {
      nodes.map { node in
        switch node {
        case .replacement(let key): .replacement(positions[key] ?? [])
        case .conditional(let key, let children): .conditional(positions[key] ?? [], resolved(children))
        case .negatedConditional(let key, let children): .negatedConditional(positions[key] ?? [], resolved(children))
        }
      }
    }
    return noteType.templates.map { resolved(TemplateNode.parse($0.questionFormat)) }
  }

  /// A ``TemplateNode`` whose field name is replaced by the positions of the fields of that name
  /// (none when the note type has no such field).
  private indirect enum FieldNode {
    case replacement([Int])
    case conditional([Int], [FieldNode])
    case negatedConditional([Int], [FieldNode])
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
    let tags = tagRanges(in: template).map { template[$0] }
    var position = 0
    return parse(tags, &position, closing: nil)
  }

  /// `template` with the fields its tags name renamed (`renames`: old name to new name), as Anki
  /// renames them when a field is renamed: `{{F}}`, `{{filter:F}}`, `{{#F}}`, `{{^F}}`, `{{/F}}`.
  static func renamingFields(in template: String, _ renames: [String: String]) -> String {
    var result = ""
    var copied = template.startIndex
    for range in tagRanges(in: template) {
      result += template[copied..<range.lowerBound]
      let tag = template[range]
      let marker = tag.first.flatMap { "#^/".contains($0) ? String($0) : nil } ?? ""
      var parts = tag.dropFirst(marker.count).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      if let key = parts.last, let renamed = renames[key] { parts[parts.count - 1] = renamed }
      result += marker + parts.joined(separator: ":")
      copied = range.upperBound
    }
    return result + template[copied...]
  }

  /// Where the inside of each `{{…}}` tag of `template` is, in order (a tag left open ends the list).
  private static func tagRanges(in template: String) -> [Range<String.Index>] {
    var ranges: [Range<String.Index>] = []
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      ranges.append(open.upperBound..<close.lowerBound)
      rest = rest[close.upperBound...]
    }
    return ranges
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
