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
    /// The side grew past `limit` bytes (``sideLimit(templateBytes:)``).
    case tooLarge(limit: Int)
  }

  /// The bytes a side may take beyond what its inputs allow (``sideLimit(templateBytes:)``):
  /// enough for a template that names its small fields many times, and small enough that a deck
  /// of many cards cannot be made thousands of times larger as Cards in Plain Text.
  static let baseLimit = 1 << 20
  /// How many times the bytes of the card's fields a side may take: a filter makes a field at
  /// most a few times larger (`furigana`'s ruby markup, a cloze's escaped `data-cloze`).
  static let fieldFactor = 16

  /// The note's fields and the special ones (`Tags`, `Deck`, `c1`, …), by name.
  let fields: CardFields
  /// The rendered front, while the back is rendered; `nil` while the front is.
  var frontSide: String?

  /// The bytes of everything a template can copy in: the note's fields and tags, the deck's,
  /// note type's and template's names.
  private let fieldBytes: Int

  init(fields: CardFields) {
    self.fields = fields
    var bytes =
      fields.note.fields.reduce(0) { $0 + $1.utf8.count } + fields.note.tags.reduce(0) { $0 + $1.utf8.count + 1 }
    bytes += (fields.deck?.name.utf8.count ?? 0) + fields.noteTypeName.utf8.count + fields.templateName.utf8.count
    fieldBytes = bytes
  }

  /// The most bytes a side of a template of `templateBytes` may be rendered to: its own text,
  /// ``fieldFactor`` times the fields' bytes, twice the front's (on the back), and
  /// ``baseLimit``. Each field a template names is copied in where it is named, so a template
  /// naming a large field thousands of times (a few kilobytes once compressed in a package) would
  /// otherwise take gigabytes; no template Anki's users write comes near.
  func sideLimit(templateBytes: Int) -> Int {
    Self.baseLimit + templateBytes + Self.fieldFactor * fieldBytes + 2 * (frontSide?.utf8.count ?? 0)
  }

  /// `nodes` (of a template of `templateBytes`) rendered.
  ///
  /// - Throws: ``Failure``; ``Failure/tooLarge(limit:)`` as soon as the side passes
  ///   ``sideLimit(templateBytes:)``.
  func render(_ nodes: [AnkiTemplate.Node], templateBytes: Int) throws(Failure) -> String {
    var output: String? = ""
    try render(nodes, into: &output, limit: sideLimit(templateBytes: templateBytes))
    return output ?? ""
  }

  /// Checks `nodes` for the errors rendering them reports whatever the fields hold (a field or
  /// section that does not exist), without rendering them: as a section not shown is checked.
  /// The size limit is not looked for.
  func check(_ nodes: [AnkiTemplate.Node]) throws(Failure) {
    var nothing: String? = nil
    try render(nodes, into: &nothing, limit: .max)
  }

  /// Renders `nodes` onto `output`, or, when `output` is nil (a section not shown), only checks
  /// them for the errors Anki reports of what it does not show.
  private func render(_ nodes: [AnkiTemplate.Node], into output: inout String?, limit: Int) throws(Failure) {
    for node in nodes {
      // Checked before each node: what one node adds is bounded by the largest field.
      if let size = output?.utf8.count, size > limit { throw .tooLarge(limit: limit) }
      switch node {
      case .text(let text): output? += text
      case .comment(let text): output? += "<!--" + text + "-->"
      case .replacement(let key, _) where key == "FrontSide": output? += frontSide ?? ""
      case .replacement(let key, let filters):
        if key.isEmpty, !filters.isEmpty { continue }
        guard let text = fields[key] else {
          let written = (filters.reversed() + [""]).joined(separator: ":")
          throw .fieldNotFound(field: String(key), written: written + key)
        }
        if output != nil { output? += applying(filters, to: text, fieldName: String(key)) }
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
        if shows, output != nil {
          try render(children, into: &output, limit: limit)
        } else {
          // Anki still reports the errors of what it does not show.
          var unshown: String? = nil
          try render(children, into: &unshown, limit: limit)
        }
      }
    }
    if let size = output?.utf8.count, size > limit { throw .tooLarge(limit: limit) }
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
      // Byte by byte: a combining mark after the space is the options' own, as in Anki.
      if filter.utf8.starts(with: "tts ".utf8) {
        return TemplateFilters.tts(
          options: String(filter[filter.utf8.index(filter.startIndex, offsetBy: 4)...]), text: text)
      }
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
