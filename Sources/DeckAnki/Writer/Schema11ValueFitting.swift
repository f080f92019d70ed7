import DeckCore
import JSONCore

/// Brings every value a writer puts into schema-11 JSON (decks, note types, fields, templates,
/// option groups) into what Anki reads (``Schema11ValueKinds``), so that one member out of range
/// does not make Anki refuse the whole package, or stop CrowdAnki's import of a folder.
///
/// Values come into the model from any input: a JSON deck's `ankiProperties` and option-group
/// settings, a CrowdAnki deck's note type, another package. deckport's own JSON keeps them
/// exactly. An Anki package and a CrowdAnki folder are read by Anki (CrowdAnki's importer hands
/// each option group, note type and deck to Anki's collection API, which decodes it into the same
/// types as a package's import), so in those each value Anki would refuse is written as the
/// nearest value it reads, and each setting outside Anki's own bounds (which Anki would read as
/// its default) as the nearest value it keeps, with a `value-clamped` warning naming the item,
/// the member, what was there and what is written (`--strict` turns it into a failure).
package struct Schema11ValueFitting: Sendable {
  /// Who reads the values: what Anki does with a value it refuses differs, and a CrowdAnki folder
  /// holds no filtered decks.
  package enum Reader: Sendable {
    /// Anki's import of a package, which refuses the whole package.
    case ankiPackage
    /// CrowdAnki's import of a folder, whose call into Anki for that deck, note type or option
    /// group is refused, which stops the import part way.
    case crowdAnki
  }

  /// Who reads the values.
  let reader: Reader

  /// `collection` with every such value fitted for `reader`, and a `value-clamped` warning for
  /// each change.
  package static func fitted(_ collection: DeckCollection, for reader: Reader, location: SourceLocation)
    -> (collection: DeckCollection, warnings: [Diagnostic])
  {
    var log = DiagnosticLog()
    let result = Schema11ValueFitting(reader: reader).fitted(collection, location: location, log: &log)
    return (result, log.finished())
  }

  /// `collection` with every such value fitted; each change is reported in `log`.
  func fitted(
    _ collection: DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) -> DeckCollection {
    var result = collection
    for index in result.decks.indices {
      // A CrowdAnki folder holds no filtered decks: their searches are not written at all.
      if reader == .crowdAnki, case .filtered = result.decks[index].kind { continue }
      fitDeck(&result.decks[index], location: location, log: &log)
    }
    for index in result.noteTypes.indices {
      fitNoteType(&result.noteTypes[index], location: location, log: &log)
    }
    for index in result.deckOptions.indices {
      fitOptionGroup(&result.deckOptions[index], location: location, log: &log)
    }
    return result
  }

  // MARK: - Items

  private func fitDeck(_ deck: inout Deck, location: SourceLocation, log: inout DiagnosticLog) {
    let owner = Schema11Properties.owner(of: deck.kind)
    let item = location.item("deck '\(deck.name)' (id \(deck.id))")
    fitProperties(&deck.ankiProperties, of: owner, at: item, log: &log)
    guard case .filtered(var filtered) = deck.kind else { return }
    var changed = false
    for index in filtered.searchTerms.indices {
      let term = filtered.searchTerms[index]
      let limit = Self.fittedInteger(term.limit, Schema11ValueKinds.int32)
      let order = Self.fittedInteger(term.order, Schema11ValueKinds.int32)
      if limit != term.limit {
        report(
          "search \(index + 1)'s limit", .integer(Int64(term.limit)), .integer(Int64(limit)),
          .init(kind: Schema11ValueKinds.searchLimit, fallback: .integer(0)), at: item, log: &log)
      }
      if order != term.order {
        report(
          "search \(index + 1)'s order", .integer(Int64(term.order)), .integer(Int64(order)),
          .init(kind: Schema11ValueKinds.searchOrder, fallback: .integer(0)), at: item, log: &log)
      }
      filtered.searchTerms[index].limit = limit
      filtered.searchTerms[index].order = order
      changed = changed || limit != term.limit || order != term.order
    }
    if changed { deck.kind = .filtered(filtered) }
  }

  private func fitNoteType(_ noteType: inout NoteType, location: SourceLocation, log: inout DiagnosticLog) {
    let label = CollectionValidation.label(noteType)
    let item = location.item(label)
    fitProperties(&noteType.ankiProperties, of: .noteType, at: item, log: &log)
    fitSortField(&noteType, at: item, log: &log)
    noteType.originalStockKind = fittedNumber(
      noteType.originalStockKind, "'originalStockKind'", in: Schema11ValueKinds.int32, fallback: 0, at: item, log: &log)
    for index in noteType.fields.indices {
      let field = noteType.fields[index]
      let fieldItem = location.item("\(label), field '\(field.name)'")
      noteType.fields[index].fontSize = fittedNumber(
        field.fontSize, "font size ('size')", in: Schema11ValueKinds.uint16, fallback: 20, at: fieldItem, log: &log)
      fitProperties(&noteType.fields[index].ankiProperties, of: .field, at: fieldItem, log: &log)
    }
    for index in noteType.templates.indices {
      let template = noteType.templates[index]
      let templateItem = location.item("\(label), template '\(template.name)'")
      noteType.templates[index].browserFontSize = fittedNumber(
        template.browserFontSize, "browser font size ('bsize')", in: Schema11ValueKinds.browserFontSize, fallback: 0,
        unread: .readAsFallback, at: templateItem, log: &log)
      fitProperties(&noteType.templates[index].ankiProperties, of: .template, at: templateItem, log: &log)
    }
  }

  private func fitOptionGroup(_ options: inout DeckOptions, location: SourceLocation, log: inout DiagnosticLog) {
    let item = location.item(DeckOptionsConversion.label(options))
    fitProperties(&options.ankiProperties, of: .optionGroup, at: item, log: &log)
    // A schema-18 group's settings are typed by their protobuf fields; their conversion fits them.
    guard case .anki11JSON(let text) = options.settings,
      let settings = try? JSONParser.parse(Array(text.utf8), options: .anki), let members = settings.members
    else { return }
    var changed = false
    /// `members` with each value fitted to its member's kind, the member named as `prefix` + key.
    func fittedMembers(_ members: [(key: String, value: JSONValue)], prefix: String) -> [(
      key: String, value: JSONValue
    )] {
      members.map { key, value in
        let name = prefix + key
        if prefix.isEmpty, Schema11ValueKinds.optionGroupSettingObjects.contains(key), let inner = value.members {
          return (key, .object(fittedMembers(inner, prefix: key + ".")))
        }
        let member = Self.member(name, of: .optionGroup)
        let fitted = Schema11ValueKinds.fitted(value, as: member)
        let bounded = Schema11ValueKinds.bounded(fitted, as: member)
        let written = bounded?.written ?? fitted
        guard written != value else { return (key, value) }
        changed = true
        if fitted != value {
          // Brought into what Anki reads, and then into what it keeps: both are said.
          let keeps = bounded == nil ? nil : member.bounds.map(\.description)
          report("setting '\(name)'", value, written, member, keeps: keeps, at: item, log: &log)
        } else if let bounded, case .some(let bounds) = member.bounds {
          reportBounded("setting '\(name)'", value, bounded, bounds, at: item, log: &log)
        }
        return (key, written)
      }
    }
    let fitted = fittedMembers(members, prefix: "")
    if changed { options.settings = .anki11JSON(JSONWriter.text(of: .object(fitted))) }
  }

  /// A sort field that names no field. Anki's note type API (CrowdAnki's import) takes one past
  /// the last field as the last, silently, and refuses one outside 16 bits. An Anki package never
  /// gets here with one: its writer refuses it first (``CollectionValidation``), as Anki's import
  /// of a package would keep it and sort by nothing.
  private func fitSortField(_ noteType: inout NoteType, at item: SourceLocation, log: inout DiagnosticLog) {
    let last = max(noteType.fields.count - 1, 0)
    let index = noteType.sortFieldIndex
    guard !(0...last).contains(index) else { return }
    let fitted = min(max(index, 0), last)
    let refused = !Schema11ValueKinds.uint16.contains(Int64(index))
    report(
      "sort field ('sortf')", .integer(Int64(index)), .integer(Int64(fitted)),
      .init(
        kind: .integer(0...Int64(last)), fallback: .integer(Int64(last)),
        unread: refused ? .refusesPackage : .readAsFallback),
      at: item, log: &log)
    noteType.sortFieldIndex = fitted
  }

  // MARK: - Members

  /// Each property of `properties` fitted to its member's kind; a property whose text is not JSON
  /// is left for ``PackageSelection/withWritableProperties(_:location:log:)`` to report.
  private func fitProperties(
    _ properties: inout [AnkiProperty], of owner: Schema11Properties.Owner, at item: SourceLocation,
    log: inout DiagnosticLog
  ) {
    let owned = Schema11Properties.ownedKeys(of: owner)
    for index in properties.indices where !owned.contains(properties[index].key) {
      let property = properties[index]
      guard let value = Schema11Properties.value(of: property) else { continue }
      let member = Self.member(property.key, of: owner)
      let fitted = Schema11ValueKinds.fitted(value, as: member)
      guard fitted != value else { continue }
      report("property '\(property.key)'", value, fitted, member, at: item, log: &log)
      properties[index].jsonText = JSONWriter.text(of: fitted)
    }
  }

  /// The member `key` of `owner`, or one Anki reads whatever it holds.
  private static func member(_ key: String, of owner: Schema11Properties.Owner) -> Schema11ValueKinds.Member {
    Schema11ValueKinds.member(key, of: owner) ?? .init(kind: .anything, fallback: .null)
  }

  /// `value`, a whole number of the model, brought into `range` (what Anki reads there, or else
  /// reads as `fallback` or refuses, as `unread` says); a change is reported as `what` at `item`.
  private func fittedNumber(
    _ value: Int, _ what: String, in range: ClosedRange<Int64>, fallback: Int64,
    unread: Schema11ValueKinds.Unread = .refusesPackage, at item: SourceLocation, log: inout DiagnosticLog
  ) -> Int {
    let fitted = Self.fittedInteger(value, range)
    if fitted != value {
      report(
        what, .integer(Int64(value)), .integer(Int64(fitted)),
        .init(kind: .integer(range), fallback: .integer(fallback), unread: unread), at: item, log: &log)
    }
    return fitted
  }

  /// `value` inside `range`.
  private static func fittedInteger(_ value: Int, _ range: ClosedRange<Int64>) -> Int {
    Int(AnkiValueRanges.clamp(Int64(value), to: range))
  }

  /// Reports that `what` held `value`, which Anki does not read as `member`, and that `written`
  /// is written in its place.
  private func report(
    _ what: String, _ value: JSONValue, _ written: JSONValue, _ member: Schema11ValueKinds.Member,
    keeps: String? = nil, at item: SourceLocation, log: inout DiagnosticLog
  ) {
    let consequence =
      switch member.unread {
      case .refusesPackage:
        switch reader {
        case .ankiPackage: "would refuse the whole package"
        case .crowdAnki: "would refuse it, which stops CrowdAnki's import part way"
        }
      case .resetsSettings(let settings): "would reset all the group's \(settings) to its defaults"
      case .readAsFallback: "would read \(Self.excerpt(member.fallback)) instead"
      }
    let reads =
      [member.kind.description + (keeps.map { ", and keeps \($0)" } ?? ""), member.meaning].compactMap { $0 }
      .joined(separator: "; ")
    log.report(
      .valueClamped, at: item,
      "\(what) is \(Self.excerpt(value)), which Anki cannot read there (it reads \(reads)) and \(consequence); \(Self.excerpt(written)) is written"
    )
  }

  /// Reports that `what` held `value`, which Anki reads but keeps only within `bounds`, what
  /// Anki would read instead, and that the nearest value it keeps is written.
  private func reportBounded(
    _ what: String, _ value: JSONValue, _ bounded: (written: JSONValue, ankiReads: String),
    _ bounds: Schema11ValueKinds.Bounds, at item: SourceLocation, log: inout DiagnosticLog
  ) {
    log.report(
      .valueClamped, at: item,
      "\(what) is \(Self.excerpt(value)), outside what Anki keeps there (\(bounds.description)), and Anki would read \(bounded.ankiReads) instead; \(Self.excerpt(bounded.written)) is written"
    )
  }

  /// A value's JSON text, shortened to `limit` characters, for a message.
  static func excerpt(_ value: JSONValue, limit: Int = 60) -> String {
    let text = JSONWriter.text(of: value)
    return text.count > limit ? "\(text.prefix(limit))…" : text
  }
}
