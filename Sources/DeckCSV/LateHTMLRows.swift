import DeckCore

/// Whether a spreadsheet being written holds HTML only after its first rows. A spreadsheet has
/// no `#html:` line, so Anki's importer, and deckport's reader, decide from its first rows
/// whether its fields are HTML: when they hold none, every later row's HTML is escaped and
/// shows as text.
struct LateHTMLRows {
  /// How many of a file's first rows decide, as Anki's importer looks (``CSVReader`` looks at
  /// as many after a header row).
  static let decidingRows = 5

  private var watching: Bool
  /// How many notes' rows decide: Anki counts a header row among the first rows.
  private let decidingNotes: Int
  private var firstRowsHoldHTML = false
  /// The first later row that holds HTML, counted from 1 without a header row.
  private var firstLater: Int?
  private var laterCount = 0

  /// Watches the rows when `watching` (fields written as HTML); `headerRow` when the sheet
  /// starts with a row of column names.
  init(watching: Bool, headerRow: Bool) {
    self.watching = watching
    decidingNotes = Self.decidingRows - (headerRow ? 1 : 0)
  }

  /// Notes the cells of row `index` (from 0, not counting a header row).
  mutating func note(_ cells: [String], ofRow index: Int) {
    guard watching, !firstRowsHoldHTML, cells.contains(where: CSVReader.looksLikeHTML) else { return }
    if index < decidingNotes {
      firstRowsHoldHTML = true
      return
    }
    laterCount += 1
    if firstLater == nil { firstLater = index + 1 }
  }

  /// The warning, when rows after the first ones hold HTML and the first ones none.
  func warning(at location: SourceLocation) -> Diagnostic? {
    guard let firstLater, !firstRowsHoldHTML else { return nil }
    return Diagnostic(
      .csvHTMLLate, at: location,
      "\(laterCount == 1 ? "row \(firstLater) holds" : "\(laterCount) rows hold") HTML (\(laterCount == 1 ? "" : "the first, row \(firstLater); ")rows counted from 1, a header row not counted), but a spreadsheet has no #html: line and its first \(Self.decidingRows) rows hold none: Anki's importer decides from those that every field is plain text (deckport's reader likewise), and shows that HTML as text; read the file with \(setting: .csvHTML) true (Anki: \"Allow HTML in fields\"), or write Anki's layout, without \(setting: .csvHeaderRow) and \(setting: .csvColumns)"
    )
  }
}
