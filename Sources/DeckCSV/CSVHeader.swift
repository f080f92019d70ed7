import DeckCore
import Foundation

/// The header directives of a file in Anki's text format: the `#key:value` lines at the start
/// (and the legacy first line `tags:…`), read exactly as Anki reads them.
///
/// ```
/// #separator:tab
/// #html:true
/// #notetype column:2
/// #deck column:3
/// #tags column:6
/// ```
///
/// Keys are trimmed and compared ignoring case. The values of `separator`, `html` and the
/// `… column` keys end at the first character after their first that is not a letter or digit
/// (so `#html:true,,` from a spreadsheet is `true`). A directive whose value Anki would not
/// accept is ignored, as Anki ignores it, and reported as a warning; so is an unknown key.
/// Lines with no `:` are comments.
package struct CSVHeader: Sendable, Equatable {
  /// `#separator:`: the separator, by name (`tab`, `comma`, …) or as the character itself.
  package var separator: CSVSeparator?
  /// `#html:`: whether fields are HTML (`true`) or plain text to be escaped (`false`).
  package var isHTML: Bool?
  /// `#tags:` (or the legacy first line `tags:`): tags added to every note.
  package var globalTags: [String] = []
  /// `#columns:`: the column labels, split with the separator in force on that line.
  package var columnLabels: [String]?
  /// `#notetype:`: the note type of every row, by name.
  package var noteType: String?
  /// `#deck:`: the deck of every row, by name.
  package var deck: String?
  /// `#notetype column:`: the 1-based column holding each row's note type.
  package var noteTypeColumn: Int?
  /// `#deck column:`: the 1-based column holding each row's deck.
  package var deckColumn: Int?
  /// `#tags column:`: the 1-based column holding each row's tags.
  package var tagsColumn: Int?
  /// `#guid column:`: the 1-based column holding each row's GUID.
  package var guidColumn: Int?
  /// `#if matches:`: what Anki's importer does with a row matching an existing note
  /// (`update current`, `keep current`, `keep both`); it matters only when importing into Anki.
  package var ifMatches: String?
  /// `#match scope:`: where Anki's importer looks for matches (`notetype`, `notetype + deck`).
  package var matchScope: String?
  /// How many lines the header has.
  package var lineCount = 0
  /// The header's comments: its lines with no `:` (after the legacy `tags:` line).
  package var comments: [CSVTokenizer.HeaderLine] = []

  /// An empty header.
  package init() {}

  /// Whether the header is the one Anki's "Notes in Plain Text" (or "Cards in Plain Text")
  /// export writes without "Include unique identifier": `#separator:tab` and `#html:` come
  /// first, and no `#guid column:`, `#columns:`, `#notetype:` or `#deck:` follows (Anki's
  /// exporter writes none of those three).
  package var isAnkiExportWithoutGUIDs: Bool {
    lineCount >= 2 && separator == .tab && isHTML != nil && guidColumn == nil && columnLabels == nil
      && noteType == nil && deck == nil
  }

  /// Whether any directive describes the file's layout (Anki's dialect, as opposed to a plain
  /// spreadsheet).
  package var hasDirectives: Bool {
    var bare = CSVHeader(lineCount: lineCount)
    bare.comments = comments
    return self != bare
  }

  private init(lineCount: Int) { self.lineCount = lineCount }

  /// Reads `lines` (from ``CSVTokenizer/readHeaderLines()``); warnings name the line of each
  /// directive that was ignored.
  package static func parse(_ lines: [CSVTokenizer.HeaderLine], location: SourceLocation) -> (CSVHeader, [Diagnostic]) {
    var header = CSVHeader()
    var warnings: [Diagnostic] = []
    header.lineCount = lines.count
    for (index, line) in lines.enumerated() {
      var place = location
      place.line = line.number
      func ignore(_ message: String) {
        warnings.append(Diagnostic(.csvDirective, at: place, message + "; ignored, as Anki ignores it"))
      }
      if index == 0, line.text.hasPrefix("tags:") {
        header.globalTags = tags(in: String(line.text.dropFirst(5)))
        continue
      }
      let body = line.text.dropFirst()  // the '#'
      guard let colon = body.firstIndex(of: ":") else {
        header.comments.append(line)
        continue
      }
      let key = String(body[..<colon]).trimmingASCIIWhitespace().lowercased()
      let value = String(body[body.index(after: colon)...])
      switch key {
      case "separator":
        if let separator = CSVSeparator.fromDirective(cut(value)) {
          header.separator = separator
        } else {
          ignore(
            "'#separator:\(value)' names no separator Anki knows (tab, pipe, semicolon, colon, comma, space, or one of | ; : , as the character)"
          )
        }
      case "html":
        switch cut(value).lowercased() {
        case "true": header.isHTML = true
        case "false": header.isHTML = false
        default: ignore("'#html:\(value)' is neither true nor false")
        }
      case "tags":
        header.globalTags = tags(in: value)
      case "columns":
        var tokenizer = CSVTokenizer(data: Data(value.utf8), location: place)
        let labels = (try? tokenizer.nextRecord(separator: header.separator ?? .tab))?.values ?? [""]
        header.columnLabels = labels
      case "notetype":
        header.noteType = value.trimmingASCIIWhitespace()
      case "deck":
        header.deck = value.trimmingASCIIWhitespace()
      case "notetype column", "deck column", "tags column", "guid column":
        guard let number = Int(cut(value).trimmingASCIIWhitespace()), number > 0 else {
          ignore("'#\(key):\(value)' is not a column number (1 is the first column)")
          continue
        }
        switch key {
        case "notetype column": header.noteTypeColumn = number
        case "deck column": header.deckColumn = number
        case "tags column": header.tagsColumn = number
        default: header.guidColumn = number
        }
      case "if matches":
        header.ifMatches = value
      case "match scope":
        header.matchScope = value
      default:
        ignore(
          "'#\(body[..<colon]):' is not a directive Anki knows (separator, html, tags, columns, notetype, deck, notetype column, deck column, tags column, guid column, if matches, match scope)"
        )
      }
    }
    return (header, warnings)
  }

  /// Whether `line` is a directive Anki knows (`#deck:French`), as opposed to a comment or a
  /// spreadsheet's row whose first cell starts with `#`.
  package static func isKnownDirective(_ line: String) -> Bool {
    guard line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return false }
    let key = line[line.index(after: line.startIndex)..<colon]
    return directiveKeys.contains(String(key).trimmingASCIIWhitespace().lowercased())
  }

  /// The keys of the directives Anki knows.
  private static let directiveKeys: Set<String> = [
    "separator", "html", "tags", "columns", "notetype", "deck", "notetype column", "deck column", "tags column",
    "guid column", "if matches", "match scope",
  ]

  /// Tags separated by white space, as Anki splits them.
  static func tags(in text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
  }

  /// The value as Anki reads `separator`, `html` and the column keys: its first character, then
  /// the letters and digits that follow it.
  static func cut(_ value: String) -> String {
    guard let first = value.first else { return "" }
    let rest = value.dropFirst().prefix(while: { $0.isLetter || $0.isNumber })
    return String(first) + rest
  }
}

extension CSVSeparator {
  /// The separator a `#separator:` value names, after ``CSVHeader/cut(_:)``: one of Anki's six
  /// names or their characters.
  static func fromDirective(_ value: String) -> CSVSeparator? {
    let normalized = value.lowercased()
    return ankiSeparators.first {
      normalized.trimmingASCIIWhitespace() == $0.ankiName || Array(normalized.utf8) == [$0.byte]
    }
  }
}
