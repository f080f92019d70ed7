import Foundation

/// How deckport reads and writes CSV and TSV files.
///
/// The defaults follow Anki: when reading, the file's own header directives decide, the
/// separator is detected as Anki detects it, rows are Basic notes in the Default deck; when
/// writing, the layout is the one Anki's "Notes in Plain Text" export uses.
///
/// ```swift
/// // A Quizlet or spreadsheet export with a header row, into one deck:
/// let options = CSVOptions(hasHeaderRow: true, columns: try ColumnMapping(parsing: "front,back"), deck: "French")
/// ```
public struct CSVOptions: Sendable, Equatable {
  /// The separator. Reading: overrides `#separator:` and detection. Writing: overrides the
  /// one the file name implies (comma for `.csv`, tab for `.tsv` and `.txt`).
  public var separator: CSVSeparator?
  /// Reading: the first row names the columns and is not a note, unless the file starts with
  /// Anki's `#` directives, whose layout has no such row (its first row is a note, as Anki reads
  /// it; a `[csv-header-row]` warning says so when that row looks like column names). Writing: a
  /// first row of column names is written instead of Anki's `#` directives (a plain spreadsheet).
  public var hasHeaderRow: Bool
  /// What each column holds. Reading: overrides the `#… column:` directives and the header
  /// row's names. Writing: only these columns are written, with no `#` directives.
  public var columns: ColumnMapping?
  /// Reading: the note type of rows that do not name one (instead of `#notetype:` or Basic).
  public var noteType: String?
  /// Reading: the deck of rows that do not name one (instead of `#deck:` or Default).
  public var deck: String?
  /// Reading: whether fields are HTML (instead of `#html:` or Anki's detection). Plain text is
  /// escaped (`<` becomes `&lt;`) and its line breaks become `<br>`, as Anki does. Writing:
  /// `false` writes each field as one line of plain text
  /// (``AnkiFieldText/noteExportPlainText(_:)``, `#html:false`), as Anki's "Notes in Plain Text"
  /// export with "Include HTML and media references" off; otherwise fields are written as
  /// stored.
  public var isHTML: Bool?
  /// The time zone whose calendar the ``ColumnMapping/SchedulingColumn/due`` column's days
  /// are in (the user's, as Anki's own days are); the one the system is set to unless chosen.
  public var timeZone: TimeZone

  /// Creates options; every default follows Anki.
  public init(
    separator: CSVSeparator? = nil, hasHeaderRow: Bool = false, columns: ColumnMapping? = nil,
    noteType: String? = nil, deck: String? = nil, isHTML: Bool? = nil, timeZone: TimeZone = .current
  ) {
    self.timeZone = timeZone
    self.separator = separator
    self.hasHeaderRow = hasHeaderRow
    self.columns = columns
    self.noteType = noteType
    self.deck = deck
    self.isHTML = isHTML
  }

  /// Whether the writer makes a plain spreadsheet (a header row or chosen columns) rather than
  /// Anki's layout with `#` directives.
  public var writesPlainSpreadsheet: Bool { hasHeaderRow || columns != nil }
}
