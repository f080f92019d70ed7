import DeckCore

/// Renders a parsed template with a card's fields, as Anki's `render_card` does without its
/// Python front end (`partial_render` off, as its "Cards in Plain Text" export renders).
struct TemplateRendering {
  /// Why a template that parsed cannot be rendered.
  enum Failure: Error, Equatable {
    /// `{{filters:field}}` names no field (`written` is the tag's inside as written).
    case fieldNotFound(field: String, written: String)
    /// `{{#field}}` or `{{^field}}` names no field (`written` is `#field` or `^field`).
    case noSuchSection(field: String, written: String)
  }

  /// The note's fields and the special ones (`Tags`, `Deck`, `c1`, …), by name.
  let fields: CardFields
  /// The rendered front, while the back is rendered; `nil` while the front is.
  var frontSide: String?

  init(fields: CardFields) {
    self.fields = fields
  }

  /// `nodes` rendered.
  func render(_ nodes: [AnkiTemplate.Node]) throws(Failure) -> String {
    var output = ""
    try render(nodes, into: &output)
    return output
  }

  private func render(_ nodes: [AnkiTemplate.Node], into output: inout String) throws(Failure) {
    for node in nodes {
      switch node {
      case .text(let text): output += text
      case .comment(let text): output += "<!--" + text + "-->"
      case .replacement(let key, _) where key == "FrontSide": output += frontSide ?? ""
      case .replacement(let key, let filters):
        if key.isEmpty, !filters.isEmpty { continue }
        guard let text = fields[key] else {
          let written = (filters.reversed() + [""]).joined(separator: ":")
          throw .fieldNotFound(field: String(key), written: written + key)
        }
        output += applying(filters, to: text, fieldName: String(key))
      case .conditional(let key, let children), .negatedConditional(let key, let children):
        let negated: Bool
        if case .negatedConditional = node { negated = true } else { negated = false }
        let shows: Bool
        let value = fields[key]
        if let value, !AnkiTemplate.isEmptyField(value) {
          shows = !negated
        } else if value != nil || Self.isClozeSection(key) {
          shows = negated
        } else {
          throw .noSuchSection(field: String(key), written: (negated ? "^" : "#") + key)
        }
        if shows {
          try render(children, into: &output)
        } else {
          // Anki still reports the errors of what it does not show.
          var discarded = ""
          try render(children, into: &discarded)
        }
      }
    }
  }

  /// `text` through `filters` in order. A chain that ends in `type` is the type-in-the-answer
  /// box alone (`cloze:type` and `nc:type` choose its kind); a filter Anki does not know
  /// leaves the text as it is.
  private func applying(_ filters: [Substring], to text: String, fieldName: String) -> String {
    var chain = filters
    if chain == ["cloze", "type"] {
      chain = ["type-cloze"]
    } else if chain == ["nc", "type"] {
      chain = ["type-nc"]
    } else if chain.last == "type" {
      chain = ["type"]
    }
    var text = text
    for filter in chain {
      text = applying(filter, to: text, fieldName: fieldName)
    }
    return text
  }

  private func applying(_ filter: Substring, to text: String, fieldName: String) -> String {
    switch filter {
    case "text": return AnkiFieldText.strippingHTML(text)
    case "furigana": return TemplateFilters.furigana(text)
    case "kanji": return TemplateFilters.kanji(text)
    case "kana": return TemplateFilters.kana(text)
    case "type": return TemplateFilters.typeAnswer(fieldName: fieldName)
    case "type-cloze": return TemplateFilters.typeAnswerCloze(fieldName: fieldName)
    case "type-nc": return TemplateFilters.typeAnswerNoCombining(fieldName: fieldName)
    case "hint": return TemplateFilters.hint(text, fieldName: fieldName)
    case "cloze": return AnkiCloze.rendering(text, clozeNumber: fields.clozeNumber, isAnswer: frontSide != nil)
    case "cloze-only": return AnkiCloze.renderingOnly(text, clozeNumber: fields.clozeNumber, isAnswer: frontSide != nil)
    default:
      if filter.hasPrefix("tts ") { return TemplateFilters.tts(options: String(filter.dropFirst(4)), text: text) }
      return text
    }
  }

  /// Whether `key` is `c` and a number, a section Anki allows whether or not it is a field.
  static func isClozeSection(_ key: Substring) -> Bool {
    guard key.first == "c" else { return false }
    var digits = key.dropFirst()
    if digits.first == "+" { digits = digits.dropFirst() }
    return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) && UInt32(digits) != nil
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
