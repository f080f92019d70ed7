import DeckCore
import Foundation

/// Maps records to rows: note type, field values, tags, deck and GUID, as the layout says;
/// fails on a cell no field takes when the note type is named, and counts the rows skipped,
/// the cells dropped and the fields no column holds for the warnings.
struct CSVRowMapper {
  let layout: CSVColumnLayout
  let isHTML: Bool
  let globalTags: [String]
  let defaultDeck: String
  /// The days of the due column, in the sheet's time zone.
  let days: CalendarDays
  let location: SourceLocation
  var catalog = CSVNoteTypeCatalog()
  /// The empty values short rows are filled with so far, within their limit; the builder fills
  /// the rest (``CSVCollectionBuilder/collection(rows:catalog:filling:)``).
  private(set) var fieldFilling = FieldFilling()
  /// For a named layout: the field index of each named column, per catalog entry.
  private var resolved: [Int: [Int?]] = [:]
  private var skippedRows = CSVLineSample()
  /// Rows whose deck cell is a number, which Anki's importer takes for a deck id, and the first.
  private var deckIDRows = CSVLineSample()
  private var firstDeckID: String?
  private var checkedEntries = Set<Int>()
  /// Cells left out because no field takes them while the note type is only assumed.
  private var dropped = (count: 0, columns: Set<Int>(), lines: CSVLineSample(), fieldNames: [String]())
  private var unmappedWarnings: [Diagnostic] = []
  private let otherColumnLabels: [String]

  init(
    layout: CSVColumnLayout, isHTML: Bool, globalTags: [String], defaultDeck: String, timeZone: TimeZone,
    location: SourceLocation
  ) {
    self.layout = layout
    self.isHTML = isHTML
    self.globalTags = globalTags
    self.defaultDeck = defaultDeck
    days = CalendarDays(timeZone: timeZone)
    self.location = location
    let meta = layout.metaColumns
    otherColumnLabels = layout.labels.enumerated().filter { !meta.contains($0.offset) }.map(\.element)
  }

  mutating func map(_ record: CSVTokenizer.Record, into rows: inout [CSVCollectionBuilder.Row]) throws {
    let fields = record.fields
    func cell(_ column: Int?) -> String? {
      guard let column, column < fields.count else { return nil }
      return fields[column].text
    }
    let typeName =
      cell(layout.noteTypeColumn).map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
      ?? layout.defaultNoteType
    let meta = layout.metaColumns
    let entry: Int
    var values: [String]
    var supplied: Int
    var fieldColumns = Set<Int>()

    switch layout.fields {
    case .otherColumns:
      entry = catalog.index(named: typeName, labels: otherColumnLabels)
      values = fields.indices.filter { !meta.contains($0) }.map { fields[$0].text }
      supplied = values.count
    case .columns(let columns):
      entry = catalog.index(named: typeName, declaredNames: layout.declaredFieldNames, labels: otherColumnLabels)
      values = columns.map { cell($0) ?? "" }
      supplied = columns.filter { column in column.map { $0 < fields.count } ?? true }.count
      fieldColumns = Set(columns.compactMap { $0 })
      noteUnmappedFields(entry, targets: columns.map { $0 == nil ? nil : 0 }, line: record.line)
    case .named(let named):
      entry = catalog.index(named: typeName, declaredNames: named.map(\.name))
      let targets = fieldTargets(entry)
      values = Array(repeating: "", count: catalog.knownFieldNames(entry)?.count ?? named.count)
      supplied = values.count
      var filled = Array(repeating: false, count: values.count)
      for (offset, target) in targets.enumerated() {
        guard let target else { continue }
        let column = named[offset].column
        fieldColumns.insert(column)
        filled[target] = true
        if let text = cell(column) { values[target] = text } else { supplied -= 1 }
      }
      noteUnmappedFields(entry, targets: filled.map { $0 ? 0 : nil }, line: record.line)
    }

    // Counted before the row is kept: a note type of many fields makes short rows large.
    var textBytes = 0
    for field in fields { textBytes += field.text.utf8.count }
    fieldFilling.countText(bytes: textBytes)
    if values.count > fields.count {
      var place = location
      place.line = record.line
      try fieldFilling.countFill(
        given: fields.count, of: values.count, noteType: catalog.entries[entry].name, at: place)
    }

    if case .otherColumns = layout.fields {
    } else {
      // Columns that are neither meta nor a field of the note type: Anki drops them silently.
      for (column, field) in fields.enumerated()
      where !field.text.isEmpty && !meta.contains(column) && !fieldColumns.contains(column)
        && !layout.skippedColumns.contains(column)
      {
        let names = catalog.knownFieldNames(entry) ?? []
        if layout.noteTypeIsAssumed {
          dropped.count += 1
          dropped.columns.insert(column + 1)
          dropped.lines.add(record.line)
          dropped.fieldNames = names
          continue
        }
        var place = location
        place.line = field.line
        place.column = field.column
        throw DeckError(
          .corrupt, at: place,
          "this row has more fields than note type '\(catalog.entries[entry].name)' has (\(names.count): \(names.joined(separator: ", "))): column \(column + 1) is not one of them (near '\(CSVExcerpt.shortened(field.text))'); say what each column holds with \(setting: .csvColumns), or choose the note type with \(setting: .csvNoteType)"
        )
      }
    }

    values = values.map { CSVReader.normalizedField($0, isHTML: isHTML) }
    if values.first?.isEmpty ?? true {
      skippedRows.add(record.line)
      return
    }
    catalog.use(entry, line: record.line, values: values)
    var tags = cell(layout.tagsColumn).map(CSVHeader.tags(in:)) ?? []
    for tag in globalTags where !tags.contains(tag) { tags.append(tag) }
    // In Anki's layout, an empty or missing deck cell names the empty deck, which Anki stores as
    // `blank` (`#deck:` does not fill it in); a spreadsheet's goes to the default deck.
    let deckCell = cell(layout.deckColumn)
    // Anki's importer reads the deck column of its own layout (a spreadsheet's, it does not).
    if let deckCell, layout.emptyDeckCellIsBlank, CSVDeckCell.isDeckID(deckCell) {
      deckIDRows.add(record.line)
      if firstDeckID == nil { firstDeckID = deckCell }
    }
    let given = deckCell?.trimmingASCIIWhitespace() ?? ""
    let deck = layout.deckColumn == nil || (given.isEmpty && !layout.emptyDeckCellIsBlank) ? defaultDeck : given
    let schedule =
      layout.schedulingColumns.isEmpty
      ? nil
      : try CSVScheduleCells.schedule(
        in: fields, columns: layout.schedulingColumns, days: days, location: location, line: record.line)
    rows.append(
      CSVCollectionBuilder.Row(
        noteType: entry, values: values, supplied: supplied, tags: tags, deck: deck,
        guid: cell(layout.guidColumn) ?? "", schedule: schedule,
        suspended: try CSVScheduleCells.isSuspended(
          in: fields, column: layout.schedulingColumns[.suspended], location: location),
        line: record.line))
  }

  /// For a named layout, the field index each named column fills for the entry's note type
  /// (``ColumnMapping/fieldTargets(in:)``).
  private mutating func fieldTargets(_ entry: Int) -> [Int?] {
    if let known = resolved[entry] { return known }
    guard case .named(let named) = layout.fields else { return [] }
    let mapping = ColumnMapping(checkedRoles: named.map { .field($0.name) })
    let targets = mapping.fieldTargets(in: catalog.knownFieldNames(entry) ?? named.map(\.name))
    resolved[entry] = targets
    return targets
  }

  /// Notes once per note type the fields no column holds (`targets[i]` nil for field `i`).
  private mutating func noteUnmappedFields(_ entry: Int, targets: [Int?], line: Int) {
    guard !checkedEntries.contains(entry) else { return }
    checkedEntries.insert(entry)
    let names = catalog.knownFieldNames(entry) ?? []
    let missing = targets.indices.filter { targets[$0] == nil && names.indices.contains($0) }.map { names[$0] }
    guard !missing.isEmpty else { return }
    var place = location
    place.line = line
    unmappedWarnings.append(
      Diagnostic(
        .csvUnmapped, at: place,
        "no column holds the \(CountedNoun.noun("field", for: missing.count)) \(missing.map { "'\($0)'" }.joined(separator: ", ")) of note type '\(catalog.entries[entry].name)'; \(missing.count == 1 ? "it is" : "they are") left empty"
          + (layout.fieldsCutAtFirstRowWidth.map {
            " (Anki's importer takes a file's columns from its first row, which has \(CountedNoun.phrase($0, "column")); a #columns: line names them)"
          } ?? "")
      ))
  }

  /// The warnings about fields no column holds, cells dropped, and rows skipped for an empty
  /// first field.
  func skippedWarning() -> [Diagnostic] {
    unmappedWarnings + droppedWarning() + skippedRowsWarning() + deckIDWarning()
  }

  /// Rows whose deck cell is a number: Anki's importer files their notes in the deck with that
  /// id (1 is Default) or skips them; deckport files them under a deck of that name.
  private func deckIDWarning() -> [Diagnostic] {
    guard let firstDeckID else { return [] }
    var place = location
    place.line = deckIDRows.lines.first
    return [
      Diagnostic(
        .csvDeckID, at: place,
        "the deck cell '\(firstDeckID)' is a number, which Anki's importer takes for a deck's id, not its name: it files the note in the deck with that id (1 is Default) or skips it; deckport files \(deckIDRows.count == 1 ? "it" : "such rows") under a deck of that name (\(deckIDRows.listed))"
      )
    ]
  }

  private func droppedWarning() -> [Diagnostic] {
    guard dropped.count > 0 else { return [] }
    var place = location
    place.line = dropped.lines.lines.first
    let columns = CSVNoteTypeCatalog.rangeList(Array(dropped.columns))
    return [
      Diagnostic(
        .csvDropped, at: place,
        "nothing names the note type, so rows are read as \(layout.defaultNoteType) notes (\(dropped.fieldNames.joined(separator: ", "))) as Anki reads them, and \(CountedNoun.phrase(dropped.count, "non-empty cell")) in \(CountedNoun.noun("column", for: dropped.columns.count)) \(columns), which no field takes, \(dropped.count == 1 ? "is left out as Anki leaves it" : "are left out as Anki leaves them") out (\(dropped.lines.listed)); name the columns with \(setting: .csvColumns) or the note type with \(setting: .csvNoteType) to keep them"
      )
    ]
  }

  private func skippedRowsWarning() -> [Diagnostic] {
    let skippedCount = skippedRows.count
    guard skippedCount > 0 else { return [] }
    var place = location
    place.line = skippedRows.lines.first
    return [
      Diagnostic(
        .csvSkipped, at: place,
        "\(skippedCount) row\(skippedCount == 1 ? " has" : "s have") an empty first field and \(skippedCount == 1 ? "was" : "were") skipped, as Anki's importer skips such rows (\(skippedRows.listed))"
      )
    ]
  }
}
