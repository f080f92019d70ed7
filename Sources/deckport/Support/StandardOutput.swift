import DeckCore

/// Writes the command's results to standard output. Summaries name decks, note types, fields,
/// records and files from the input, so every line is escaped with `TerminalText.escaped`:
/// nothing in it can drive the terminal, and a name never breaks its line.
enum StandardOutput {
  /// Writes `line`, its control and bidirectional characters shown visibly (a line break in it
  /// as `\n`), and a line break.
  static func write(_ line: String) {
    print(TerminalText.escaped(line))
  }

  /// Writes JSON text and a line break, every string in it exact: control and bidirectional
  /// characters are written as JSON escapes (`TerminalText.escapedJSON`), not escaped as text.
  static func writeJSON(_ json: String) {
    print(TerminalText.escapedJSON(json))
  }
}
