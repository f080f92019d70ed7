import DeckCore

/// What each column of a file holds, decided once from the header directives, the options and
/// the first row, the way Anki's importer decides it (`get_csv_metadata`).
///
/// Anki's dialect (no `--columns`, no header row):
/// * `#guid column:`, `#notetype column:`, `#deck column:` and `#tags column:` are meta columns;
/// * with a note type column, every other column is a field, in order;
/// * otherwise one note type (`--note-type`, `#notetype:`, else Basic) takes its fields from
///   the columns whose `#columns:` label is the field's name, or else from the other columns in
///   order that the first row (or `#columns:`) has; its first field falls back to column 1; and
///   when no tags column is named, the first
///   other column after the last field column becomes the tags column if the first row (or
///   `#columns:`) reaches it.
///
/// A plain spreadsheet (`--columns`, or a header row of names): each column has the role its
/// name gives (see ``ColumnMapping``).
struct CSVColumnLayout {
  /// How a row's field values are found.
  enum Fields {
    /// Every column that is not a meta column, in order (a note type column names the type).
    case otherColumns
    /// The column of each field of the one note type (nil: the field has no column).
    case columns([Int?])
    /// Columns named by a mapping, matched to each note type's fields by name.
    case named([(column: Int, name: String)])
  }

  /// The 0-based column naming each row's note type, if any.
  var noteTypeColumn: Int?
  /// The note type of rows that name none.
  var defaultNoteType: String
  /// The 0-based deck column, if any.
  var deckColumn: Int?
  /// The 0-based tags column, if any (named, or Anki's fallback).
  var tagsColumn: Int?
  /// The 0-based GUID column, if any.
  var guidColumn: Int?
  /// Where field values come from.
  var fields: Fields
  /// Column labels (from `#columns:` or the header row), used to name the fields of note types
  /// the file does not define; may be shorter than a row.
  var labels: [String]
  /// The field names decided for the default note type when it is not a stock one (Anki's
  /// dialect with one note type), in field order.
  var declaredFieldNames: [String]?
  /// Whether the tags column is Anki's guess rather than a directive or a name.
  var tagsColumnIsFallback = false
  /// How many columns the first row has, when fields past them have no column because of it
  /// (Anki's dialect by position, without `#columns:`).
  var fieldsCutAtFirstRowWidth: Int?
  /// Whether nothing names the note type (no option, `#notetype:`, note type column or column
  /// mapping), so rows are Basic notes only because Anki assumes so. Extra columns are then
  /// dropped with a warning, as Anki drops them, instead of failing the read.
  var noteTypeIsAssumed = false

  /// Columns a mapping skips (`-`): never read, never a field.
  var skippedColumns: Set<Int> = []
  /// Whether a row whose deck cell is empty (or missing) names the empty deck, which Anki stores
  /// as `blank`, as Anki's import of `#deck column:` takes it; otherwise (a spreadsheet's
  /// `--columns`) the row goes to the default deck.
  var emptyDeckCellIsBlank = false

  /// The 0-based column of each part of a card's schedule a mapping names.
  var schedulingColumns: [ColumnMapping.SchedulingColumn: Int] = [:]

  /// The meta columns (GUID, note type, deck, tags, the schedule's).
  var metaColumns: Set<Int> {
    Set([noteTypeColumn, deckColumn, tagsColumn, guidColumn].compactMap { $0 }).union(schedulingColumns.values)
  }

  /// The layout Anki's importer would use for a file with `header` whose first row has
  /// `firstRowWidth` fields (the first row after a header row, if any).
  static func anki(header: CSVHeader, options: CSVOptions, firstRowWidth: Int) -> CSVColumnLayout {
    var layout = CSVColumnLayout(
      noteTypeColumn: header.noteTypeColumn.map { $0 - 1 },
      defaultNoteType: options.noteType ?? header.noteType ?? StockNoteType.basic.rawValue,
      deckColumn: header.deckColumn.map { $0 - 1 }, tagsColumn: header.tagsColumn.map { $0 - 1 },
      guidColumn: header.guidColumn.map { $0 - 1 }, fields: .otherColumns, labels: header.columnLabels ?? [])
    layout.emptyDeckCellIsBlank = true
    if layout.noteTypeColumn != nil { return layout }
    layout.noteTypeIsAssumed = options.noteType == nil && header.noteType == nil

    let meta = layout.metaColumns
    let labels = header.columnLabels ?? []
    let labelCount = header.columnLabels?.count ?? firstRowWidth
    let otherColumns = (0..<max(labelCount, 1)).filter { !meta.contains($0) }
    guard let stock = StockNoteType.noteType(named: layout.defaultNoteType, fieldNames: labels) else {
      // A note type the file does not define: every other column is one of its fields.
      let columns = otherColumns.isEmpty ? [0] : otherColumns
      layout.declaredFieldNames = columns.map { labels.indices.contains($0) ? labels[$0] : "" }
      layout.fields = .columns(columns)
      return layout
    }

    var fieldColumns = [Int?](repeating: nil, count: stock.fields.count)
    fieldColumns[0] = 0
    if labels.allSatisfy(\.isEmpty) {
      // By position: the n-th other column is the n-th field, among the columns the first row
      // (or `#columns:`) has, as Anki's importer takes its columns from them. A field past them
      // has no column (empty, as Anki leaves it), and a later row's cells there are dropped
      // with a warning, as Anki drops them. The first field falls back to the first other
      // column wherever it is.
      var next = 0
      for index in fieldColumns.indices {
        while meta.contains(next) { next += 1 }
        fieldColumns[index] = index == 0 || next < labelCount ? next : nil
        next += 1
      }
      if header.columnLabels == nil, fieldColumns.contains(nil) { layout.fieldsCutAtFirstRowWidth = firstRowWidth }
    } else {
      // By name: Anki takes the last column with the field's exact name.
      var byLabel: [String: Int] = [:]
      for (index, label) in labels.enumerated() where !meta.contains(index) { byLabel[label] = index }
      for (index, field) in stock.fieldNames.enumerated() {
        if let column = byLabel[field] { fieldColumns[index] = column }
      }
    }
    layout.fields = .columns(fieldColumns)
    if layout.tagsColumn == nil {
      let lastField = fieldColumns.compactMap { $0 }.max() ?? 0
      if let fallback = ((lastField + 1)..<max(labelCount, lastField + 1)).first(where: { !meta.contains($0) }) {
        layout.tagsColumn = fallback
        layout.tagsColumnIsFallback = true
      }
    }
    return layout
  }

  /// The layout of a plain spreadsheet whose columns `mapping` describes.
  static func mapped(_ mapping: ColumnMapping, options: CSVOptions, header: CSVHeader) -> CSVColumnLayout {
    var layout = CSVColumnLayout(
      noteTypeColumn: mapping.column(of: .noteType),
      defaultNoteType: options.noteType ?? header.noteType ?? StockNoteType.basic.rawValue,
      deckColumn: mapping.column(of: .deck), tagsColumn: mapping.column(of: .tags),
      guidColumn: mapping.column(of: .guid), fields: .named(mapping.fieldColumns),
      labels: mapping.roles.map(ColumnMapping.name(of:)))
    layout.skippedColumns = Set(mapping.roles.indices.filter { mapping.roles[$0] == .skipped })
    layout.schedulingColumns = mapping.schedulingColumns
    return layout
  }
}
