import DeckCore
import DeckIO
import Foundation

/// Reads a CSV or TSV file (Anki's text format, or a plain spreadsheet) into the shared model,
/// reading rows as Anki's importer reads them.
///
/// ```swift
/// let (collection, warnings) = try CSVReader().read(path: "French.txt")
/// let sheet = try CSVReader(options: CSVOptions(hasHeaderRow: true, deck: "French")).read(path: "quizlet.csv")
/// ```
///
/// * The header directives are read as ``CSVHeader`` describes. The separator is
///   ``CSVOptions/separator``, else `#separator:`; for a plain spreadsheet (a column mapping,
///   or a header row in a file without Anki's `#` directives) the one the extension names
///   (comma for `.csv`, tab for `.tsv`, `.txt`);
///   otherwise it is detected as Anki detects it (the first of tab, `|`, `;`, `:`, `,` in the
///   8 KiB after the header, else space). Without `#html:` fields are HTML when one of the
///   first five rows looks like HTML (a `<…>`).
/// * Columns are mapped as ``CSVColumnLayout`` describes. Rows naming a stock note type, in any
///   language Anki speaks ("Basic", "Basique", "Einfach"), get it as Anki creates it in that
///   language (``StockNoteType/noteType(named:fieldNames:)``); other names get a note type made
///   from the file, with a warning.
/// * Fields lose their carriage returns; plain text fields are escaped (`&`, `<`, `>`, `"`, `'`) and their line breaks become `<br>`, as Anki does. Tags
///   are split on white space; `#tags:` are added to every note.
/// * A row with fewer fields than its note type is padded with empty ones (counted in one
///   warning); a row whose first field is empty is skipped, as Anki skips it (also a warning).
/// * Each note gets the cards Anki would make (``CardGeneration``), in its row's deck, as new
///   cards in file order. Notes keep the file's order.
///
/// The file is read in chunks; only the model it becomes is held in memory.
package struct CSVReader: Sendable {
  /// How to read.
  package var options: CSVOptions
  /// Where the rows read are counted (as notes read), or nil.
  package var progress: ProgressReporter?

  /// Creates a reader.
  package init(options: CSVOptions = CSVOptions(), progress: ProgressReporter? = nil) {
    self.options = options
    self.progress = progress
  }

  /// Reads the file at `path`. Notes and cards get the file's modification time.
  ///
  /// - Throws: ``DeckError`` with the line and column (and the text there) for an unterminated
  ///   quote, bytes that are not UTF-8, or a row with more fields than its note type; for a
  ///   file with no rows; or when the file cannot be read.
  package func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let location = SourceLocation(file: path)
    let source = try FileByteSource(path: path, location: location)
    let modified = FileManager.default.modificationSeconds(atPath: path) ?? 0
    return try read(source: source, location: location, modificationTime: modified)
  }

  /// Reads CSV text held in memory; errors and warnings name `name`.
  ///
  /// - Throws: as ``read(path:)``.
  package func read(data: Data, name: String, modificationTime: Int64 = 0) throws
    -> (collection: DeckCollection, warnings: [Diagnostic])
  {
    try read(source: DataByteSource(data), location: SourceLocation(file: name), modificationTime: modificationTime)
  }

  /// Reads from `source`; `location` names the file in messages.
  func read(source: any ByteSource, location: SourceLocation, modificationTime: Int64) throws
    -> (collection: DeckCollection, warnings: [Diagnostic])
  {
    var tokenizer = CSVTokenizer(source: source, location: location)
    // A spreadsheet has no comments: its rows start at its first line that is no directive Anki
    // knows (`#,Word,Meaning`, whose first column is named `#`; `#hashtag` in a sheet of one column).
    let headerLines = try tokenizer.readHeaderLines(
      startsRows: options.writesPlainSpreadsheet ? { !CSVHeader.isKnownDirective($0) } : nil)
    let (header, headerWarnings) = CSVHeader.parse(headerLines, location: location)
    var warnings = headerWarnings
    if let joined = tokenizer.headerLineJoinedByLoneCarriageReturn {
      var place = location
      place.line = joined
      warnings.append(
        Diagnostic(
          .csvLineEnds, at: place,
          "this header line ends with a carriage return alone (classic Mac OS line ends), which deckport reads as a line end but Anki's importer does not: it reads on to the next line feed as part of this line, so the # lines and rows up to there are not read as such; save the file with LF or CRLF line ends for Anki"
        ))
    }
    if header.isAnkiExportWithoutGUIDs, options.columns == nil {
      var place = location
      place.line = 1
      warnings.append(
        Diagnostic(
          .csvNoGUID, at: place,
          "the file has the header of Anki's \"Notes in Plain Text\" export without \"Include unique identifier\" (no #guid column): its notes get GUIDs derived from their content, not the ones Anki gave them, so a package made of it and imported into the collection it came from adds every note again; export with \"Include unique identifier\", or import this file itself into Anki, which matches notes by their first field"
        ))
    }
    // A file that starts with Anki's # lines is in Anki's layout, which has no row of column
    // names: `--header` alone (asked for the spreadsheet written from it) does not make its
    // first note one, as Anki's import does not. A column mapping still overrides the # lines.
    let isSpreadsheet = options.columns != nil || (options.hasHeaderRow && header.lineCount == 0)
    let separator = try self.separator(
      header: header, spreadsheet: isSpreadsheet, tokenizer: &tokenizer, location: location, warnings: &warnings)
    // A spreadsheet has no comment lines: a cell may start with '#' (a Brain Brew GUID does).
    tokenizer.skipsCommentLines = !isSpreadsheet

    var preview: [CSVTokenizer.Record] = []
    while preview.count < LateHTMLRows.decidingRows, let record = try tokenizer.nextRecord(separator: separator) {
      preview.append(record)
    }
    var headerRow: CSVTokenizer.Record?
    if options.hasHeaderRow, !isSpreadsheet, let first = preview.first, Self.namesColumns(first.values) {
      var place = location
      place.line = first.line
      warnings.append(
        Diagnostic(
          .csvHeaderRow, at: place,
          "this row names columns (\(ShortList.quoted(first.values))), but the file starts with Anki's # lines, whose layout has no row of column names: it is read as a note, as Anki reads it, though \(setting: .csvHeaderRow) was given (which still shapes a CSV written from it); take the # lines out to read it as column names"
        ))
    }
    if options.hasHeaderRow, isSpreadsheet, !preview.isEmpty {
      headerRow = preview.removeFirst()
      if let record = try tokenizer.nextRecord(separator: separator) { preview.append(record) }
    }
    if isSpreadsheet {
      warnings += Self.directivesReadAsRows(([headerRow].compactMap { $0 } + preview), location: location)
    }
    guard let firstRow = preview.first else {
      let what = headerRow == nil ? "" : " after its header row"
      throw DeckError(
        .corrupt, at: location,
        "has no rows to read\(what) (\(CountedNoun.phrase(header.lineCount, "header line"))); Anki refuses such a file as empty"
      )
    }
    // Anki decides from the file's first rows, a row of column names among them (to Anki, a row).
    let decidingRows = ([headerRow].compactMap { $0 } + preview).prefix(LateHTMLRows.decidingRows)
    let isHTML =
      options.isHTML ?? header.isHTML
      ?? decidingRows.contains { $0.fields.contains { Self.looksLikeHTML($0.text) } }

    let layout: CSVColumnLayout
    if let mapping = options.columns {
      layout = .mapped(mapping, options: options, header: header)
    } else if let headerRow {
      do {
        layout = .mapped(try ColumnMapping(names: headerRow.values), options: options, header: header)
      } catch let problem as ColumnMapping.Problem {
        var place = location
        place.line = headerRow.line
        throw DeckError(.corrupt, at: place, "the header row cannot be used: \(problem)")
      }
    } else {
      layout = .anki(header: header, options: options, firstRowWidth: firstRow.fields.count)
    }

    var mapper = CSVRowMapper(
      layout: layout, isHTML: isHTML, globalTags: header.globalTags,
      defaultDeck: options.deck ?? header.deck ?? "Default", timeZone: options.timeZone, location: location)
    var rows: [CSVCollectionBuilder.Row] = []
    progress?.start(.readingNotes)
    defer { progress?.finish(.readingNotes) }
    // Read as plain text because the first rows hold no HTML, as Anki decides: the first later
    // row that holds some is named, since its HTML is escaped (shown as text).
    var watchesForHTML = options.isHTML == nil && header.isHTML == nil && !isHTML
    var lateHTML: CSVTokenizer.Record?
    func watch(_ record: CSVTokenizer.Record) {
      guard watchesForHTML, record.fields.contains(where: { Self.looksLikeHTML($0.text) }) else { return }
      lateHTML = record
      watchesForHTML = false
    }
    for record in preview.dropFirst(decidingRows.count - (headerRow == nil ? 0 : 1)) { watch(record) }
    for record in preview { try mapper.map(record, into: &rows) }
    while let record = try tokenizer.nextRecord(separator: separator) {
      watch(record)
      try mapper.map(record, into: &rows)
      try Cancellation.check(atItem: rows.count)
      progress?.advance(.readingNotes)
    }
    warnings += mapper.skippedWarning()
    if let lateHTML {
      var place = location
      place.line = lateHTML.line
      warnings.append(
        Diagnostic(
          .csvHTMLLate, at: place,
          "this row holds HTML, but the file has no #html: line and its first \(CountedNoun.phrase(preview.count, "row")) hold none, so it is read as plain text, as Anki's importer reads it: the HTML of this row and any later one is escaped and shows as text; pass \(setting: .csvHTML) true to read it as HTML"
        ))
    }
    warnings += Self.commentRowsWarning(
      header: header, tokenizer: tokenizer, separator: separator, spreadsheet: isSpreadsheet,
      location: location)

    let builder = CSVCollectionBuilder(
      location: location, modificationTime: modificationTime, timeZone: options.timeZone)
    let (collection, buildWarnings) = try builder.collection(
      rows: consume rows, catalog: mapper.catalog, filling: mapper.fieldFilling)
    return (collection, warnings + buildWarnings)
  }

  /// A warning naming the comment lines skipped: those between records, and the header's that
  /// hold the separator. Each may be a row whose first cell starts with `#`, which Anki's
  /// importer skips as a comment too; a header comment without the separator holds no cells and
  /// is taken for a comment.
  private static func commentRowsWarning(
    header: CSVHeader, tokenizer: CSVTokenizer, separator: CSVSeparator, spreadsheet: Bool, location: SourceLocation
  ) -> [Diagnostic] {
    var skipped = CSVLineSample()
    for comment in header.comments where comment.text.utf8.contains(separator.byte) { skipped.add(comment.number) }
    skipped.append(tokenizer.skippedRows)
    guard let first = skipped.lines.first else { return [] }
    var place = location
    place.line = first
    // A spreadsheet's rows after the first are read as data already; its top lines are read as
    // Anki's header lines before its first row.
    let headerRowAdvice: DeckMessage =
      spreadsheet
      ? ""
      : ", or, if the file is a spreadsheet whose first row names its columns, give \(setting: .csvHeaderRow), which reads every later row as data"
    return [
      Diagnostic(
        .csvCommentRows, at: place,
        "\(CountedNoun.phrase(skipped.count, "line")) where a row would start \(skipped.count == 1 ? "begins" : "begin") with '#'; Anki's importer skips such lines as comments, and so does this reading, though \(skipped.count == 1 ? "it may be a row" : "they may be rows") (\(skipped.listed)); quote a first cell that starts with '#' (\"#…\") to keep its row\(headerRowAdvice)"
      )
    ]
  }

  /// The separator: the option, the `#separator:` line; for a plain spreadsheet (a header row
  /// or a column mapping) the one its extension names (comma for `.csv`, tab for `.tsv` and
  /// `.txt`); otherwise Anki's detection, reported when it disagrees with the extension.
  private func separator(
    header: CSVHeader, spreadsheet: Bool, tokenizer: inout CSVTokenizer, location: SourceLocation,
    warnings: inout [Diagnostic]
  ) throws -> CSVSeparator {
    if let separator = options.separator ?? header.separator { return separator }
    let expected = Self.extensionSeparator(location, spreadsheet: spreadsheet)
    if spreadsheet, let expected { return expected }
    let sample = try tokenizer.peekBytes(maximum: 8 * 1024)
    let detected =
      CSVSeparator.ankiSeparators.dropLast().first { sample.contains($0.byte) } ?? .space
    if let expected, expected != detected {
      warnings.append(
        Diagnostic(
          .csvSeparator, at: location,
          "the file has no #separator: line, and the separator found the way Anki finds it is \(detected), not \(expected) as the extension suggests; pass \(setting: .csvSeparator) if that is wrong"
        ))
    }
    return detected
  }

  /// The separator the file's extension names: comma for `.csv`, tab for `.tsv` and `.tab`, and
  /// for `.txt` when the file is a plain spreadsheet.
  private static func extensionSeparator(_ location: SourceLocation, spreadsheet: Bool) -> CSVSeparator? {
    switch (location.file as NSString).pathExtension.lowercased() {
    case "csv": .comma
    case "tsv", "tab": .tab
    case "txt" where spreadsheet: .tab
    default: nil
    }
  }

  /// A warning for each of a spreadsheet's first rows that is one of Anki's directives
  /// (`#separator:…`): a line above it that is none started the rows (a comment), so the
  /// directive is read as a row and does not count.
  private static func directivesReadAsRows(_ records: [CSVTokenizer.Record], location: SourceLocation)
    -> [Diagnostic]
  {
    records.compactMap { record in
      guard let first = record.fields.first?.text, CSVHeader.isKnownDirective(first) else { return nil }
      var place = location
      place.line = record.line
      let message: DeckMessage =
        "this row is Anki's directive '\(first)', but a line above it that is none (a comment) started the spreadsheet's rows, so it is read as a row and does not count; put the directives first, or read the file without \(setting: .csvHeaderRow) and \(setting: .csvColumns)"
      return Diagnostic(.csvDirective, at: place, message)
    }
  }

  /// Whether every cell of `row` names a column a header row may name (guid, notetype, deck,
  /// tags, a part of a schedule, or one of the stock fields Front, Back, Text and Extra).
  static func namesColumns(_ row: [String]) -> Bool {
    !row.isEmpty
      && row.allSatisfy { cell in
        switch ColumnMapping.role(named: cell) {
        case .field(let name): ["front", "back", "text", "extra"].contains(name.lowercased())
        case .skipped: false
        default: true
        }
      }
  }

  /// Anki's `is_html`: the text holds a `<` with a `>` after it.
  static func looksLikeHTML(_ text: String) -> Bool {
    guard let open = text.utf8.firstIndex(of: UInt8(ascii: "<")) else { return false }
    return text.utf8[open...].contains(UInt8(ascii: ">"))
  }

  /// A field as Anki's CSV import stores it: carriage returns removed, and plain text escaped
  /// (see ``escapingHTML(_:)``). The Unicode form is kept (Anki puts text in NFC when it
  /// imports, whatever the format).
  static func normalizedField(_ text: String, isHTML: Bool) -> String {
    var field = text
    if field.containsUTF8Byte(0x0D) {
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: field.unicodeScalars.lazy.filter { $0 != "\r" })
      field = String(scalars)
    }
    return isHTML ? field : escapingHTML(field)
  }

  /// Plain text as Anki stores it: `&`, `<`, `>`, `"` and `'` escaped, line feeds as `<br>`.
  static func escapingHTML(_ text: String) -> String {
    HTMLEntities.escaping(text, quotes: true)
  }
}
