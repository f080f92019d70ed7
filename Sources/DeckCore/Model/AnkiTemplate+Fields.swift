import Foundation

extension AnkiTemplate {
  /// Whether Anki takes a field holding `text` as empty (its `field_is_empty`): nothing but ASCII
  /// white space and `<br>`, `<div>` or `</div>` tags (with an optional space and `/`, in any
  /// case). A zero-width space, a non-breaking space or `&nbsp;` is not empty.
  package static func isEmptyField(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    func at(_ position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x20 || (0x09...0x0D).contains(byte) {
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "<") else { return false }
      var cursor = index + 1
      if at(cursor) == UInt8(ascii: "/") { cursor += 1 }
      let name = [at(cursor), at(cursor + 1), at(cursor + 2)].map { $0.map { $0 | 0x20 } }
      if name[0] == UInt8(ascii: "b"), name[1] == UInt8(ascii: "r") {
        cursor += 2
      } else if name == [UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "v")] {
        cursor += 3
      } else {
        return false
      }
      if at(cursor) == 0x20 { cursor += 1 }
      if at(cursor) == UInt8(ascii: "/") { cursor += 1 }
      guard at(cursor) == UInt8(ascii: ">") else { return false }
      index = cursor + 1
    }
    return true
  }

  /// Whether the template shows a field when exactly the fields for which `isNonEmpty` holds
  /// have content: a replacement of one, inside sections whose fields are not empty (`{{#F}}`)
  /// or empty (`{{^F}}`). Anki's `template_is_empty` with negated sections checked, which
  /// decides both whether a card is made and whether its front is blank.
  package func showsAField(whereNonEmpty isNonEmpty: (Substring) -> Bool) -> Bool {
    Self.showsAField(nodes, isNonEmpty)
  }

  private static func showsAField(_ nodes: [Node], _ isNonEmpty: (Substring) -> Bool) -> Bool {
    nodes.contains { node in
      switch node {
      case .text, .comment: false
      case .replacement(let key, _): isNonEmpty(key)
      case .conditional(let key, let children): isNonEmpty(key) && showsAField(children, isNonEmpty)
      case .negatedConditional(let key, let children): !isNonEmpty(key) && showsAField(children, isNonEmpty)
      }
    }
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
}
