import DeckCore
import JSONCore

extension DeckComparison {
  /// What changed in a deck's own settings (``DeckAspect/details``): its description,
  /// whether it is Markdown, whether it is filtered, and a filtered deck's searches and
  /// rescheduling. Empty when a format holds no such details.
  func detailChanges(from before: Deck, to after: Deck) -> [DeckDifference.SettingChange] {
    guard compared.contains(.details) else { return [] }
    func filtered(_ deck: Deck) -> FilteredDeck? {
      if case .filtered(let settings) = deck.kind { return settings }
      return nil
    }
    func terms(_ settings: FilteredDeck?) -> JSONValue {
      .array(
        (settings?.searchTerms ?? []).map {
          .object([
            ("search", .string($0.search)), ("limit", .integer(Int64($0.limit))), ("order", .integer(Int64($0.order))),
          ])
        })
    }
    let (oldFiltered, newFiltered) = (filtered(before), filtered(after))
    var values: [(String, JSONValue, JSONValue)] = [
      ("description", .string(before.description), .string(after.description)),
      ("descriptionIsMarkdown", .bool(before.descriptionIsMarkdown), .bool(after.descriptionIsMarkdown)),
      (
        "kind", .string(oldFiltered == nil ? "normal" : "filtered"), .string(newFiltered == nil ? "normal" : "filtered")
      ),
    ]
    if oldFiltered != nil || newFiltered != nil {
      values += [
        ("filtered.reschedule", .bool(oldFiltered?.reschedule ?? false), .bool(newFiltered?.reschedule ?? false)),
        ("filtered.searchTerms", terms(oldFiltered), terms(newFiltered)),
      ]
    }
    return Self.settingChanges(values)
  }

  /// What changed in a note type's settings besides its names, template text and CSS
  /// (``DeckAspect/details``): its kind, sort field, LaTeX and origin (the stock note type
  /// and the note type it was copied from); each field's editor
  /// settings and each template's browser appearance and deck override, fields and templates
  /// paired by name, then position. Empty when a format holds no such details.
  func detailChanges(from before: NoteType, to after: NoteType) -> [DeckDifference.SettingChange] {
    guard compared.contains(.details) else { return [] }
    func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }
    func optional(_ value: Int64?) -> JSONValue { value.map { .integer($0) } ?? .null }
    var values: [(String, JSONValue, JSONValue)] = [
      ("kind", .string(before.kind.rawValue), .string(after.kind.rawValue)),
      ("sortField", int(before.sortFieldIndex), int(after.sortFieldIndex)),
      ("latexPre", .string(before.latexPreamble), .string(after.latexPreamble)),
      ("latexPost", .string(before.latexPostamble), .string(after.latexPostamble)),
      ("latexSvg", .bool(before.latexSVG), .bool(after.latexSVG)),
      ("originalStockKind", int(before.originalStockKind), int(after.originalStockKind)),
      ("originalId", optional(before.originalID), optional(after.originalID)),
    ]
    for (oldIndex, newIndex) in Self.listDifferences(before.fieldNames, after.fieldNames).pairs {
      let (a, b) = (before.fields[oldIndex], after.fields[newIndex])
      let prefix = "field '\(b.name)'."
      values += [
        (prefix + "font", .string(a.fontName), .string(b.fontName)),
        (prefix + "size", int(a.fontSize), int(b.fontSize)),
        (prefix + "rtl", .bool(a.rightToLeft), .bool(b.rightToLeft)),
        (prefix + "sticky", .bool(a.sticky), .bool(b.sticky)),
        (prefix + "description", .string(a.description), .string(b.description)),
        (prefix + "plainText", .bool(a.plainText), .bool(b.plainText)),
        (prefix + "collapsed", .bool(a.collapsed), .bool(b.collapsed)),
        (prefix + "excludeFromSearch", .bool(a.excludeFromSearch), .bool(b.excludeFromSearch)),
        (prefix + "tag", optional(a.tag.map(Int64.init)), optional(b.tag.map(Int64.init))),
        (prefix + "preventDeletion", .bool(a.preventDeletion), .bool(b.preventDeletion)),
      ]
    }
    let templateNames = (before.templates.map(\.name), after.templates.map(\.name))
    for (oldIndex, newIndex) in Self.listDifferences(templateNames.0, templateNames.1).pairs {
      let (a, b) = (before.templates[oldIndex], after.templates[newIndex])
      let prefix = "template '\(b.name)'."
      values += [
        (prefix + "browserQuestion", .string(a.browserQuestionFormat), .string(b.browserQuestionFormat)),
        (prefix + "browserAnswer", .string(a.browserAnswerFormat), .string(b.browserAnswerFormat)),
        (prefix + "browserFont", .string(a.browserFontName), .string(b.browserFontName)),
        (prefix + "browserFontSize", int(a.browserFontSize), int(b.browserFontSize)),
        (prefix + "deck", optional(a.targetDeckID), optional(b.targetDeckID)),
      ]
    }
    return Self.settingChanges(values)
  }

  /// The values (key, before, after) that differ, as setting changes with JSON text.
  private static func settingChanges(_ values: [(String, JSONValue, JSONValue)]) -> [DeckDifference.SettingChange] {
    values.filter { $0.1 != $0.2 }.map {
      DeckDifference.SettingChange(key: $0.0, old: JSONWriter.text(of: $0.1), new: JSONWriter.text(of: $0.2))
    }
  }
}
