import ArgumentParser
import DeckCSV
import DeckConversion
import DeckCore

/// Options for CSV and TSV files, shared by `convert` and `inspect`.
struct CSVArguments: ParsableArguments, FormatOptionArguments {
  @Option(
    help: ArgumentHelp(
      "CSV/TSV: the separator: tab, comma, semicolon, pipe, colon, space, or one character.",
      discussion:
        "Reading: overrides the file's #separator: line; without either, a spreadsheet read with --header or --columns uses the extension's (comma for .csv, tab for .tsv and .txt) and other files get Anki's detection. Writing: overrides the extension's.",
      valueName: "separator"))
  var separator: String?

  @Flag(
    help: ArgumentHelp(
      "CSV/TSV: a first row of column names.",
      discussion:
        "Reading: the first row names the columns (field names, or guid, notetype, deck, tags, due, interval, ease, reviews, lapses, suspended) and is not a note; a file that starts with Anki's # lines has no such row (its first row is a note, as Anki reads it). Writing: a plain spreadsheet with a row of column names instead of Anki's # lines."
    ))
  var header = false

  @Option(
    help: ArgumentHelp(
      "CSV/TSV: what each column holds, such as front,back,tags,deck.",
      discussion:
        "Field names (matched ignoring case; front and back also mean the first and second field), guid, notetype, deck, tags, or - to skip a column. A schedule: due (the day a card under review is due, YYYY-MM-DD in the local time zone), interval (days), ease (2.5 or 250%), reviews, lapses, empty for new cards; suspended (yes or no). Reading: overrides the file's # column lines; a row's schedule goes to every card of its note. Writing: only these columns, with no # lines; a row holds its note's first card's schedule.",
      valueName: "list"))
  var columns: String?

  @Option(
    name: .customLong("note-type"),
    help: ArgumentHelp(
      "CSV/TSV input: the note type of rows that name none (default: the file's #notetype:, else Basic).",
      valueName: "name"))
  var noteType: String?

  @Option(
    help: ArgumentHelp(
      "CSV/TSV input: the deck of rows that name none (default: the file's #deck:, else Default).",
      valueName: "name"))
  var deck: String?

  @Option(
    help: ArgumentHelp(
      "CSV/TSV: whether fields are HTML (true) or plain text (false). Reading: plain text is escaped; default: the file's #html:, else detected as Anki does. Writing: false writes each field as one line of plain text, as Anki's export with \"Include HTML and media references\" off, and warns naming the notes that lose formatting or media references.",
      valueName: "true|false"))
  var html: Bool?

  func validate() throws {
    _ = try options()
  }

  /// The options for the library, or a usage error naming the bad value.
  /// Sets the CSV options.
  func fill(_ options: inout FormatOptions) throws {
    options[CSVOptions.self] = try self.options()
  }

  func options() throws -> CSVOptions {
    var options = CSVOptions(hasHeaderRow: header, noteType: noteType, deck: deck, isHTML: html)
    if let separator {
      guard let parsed = CSVSeparator(name: separator == "\\t" ? "\t" : separator) else {
        throw ValidationError(
          "--separator '\(separator)' is not a separator: give tab, comma, semicolon, pipe, colon, space, or one ASCII character other than a quote, # or a line break"
        )
      }
      options.separator = parsed
    }
    if let columns {
      do {
        options.columns = try ColumnMapping(parsing: columns)
      } catch let problem as ColumnMapping.Problem {
        throw ValidationError("--columns '\(columns)': \(problem)")
      }
    }
    return options
  }
}
