import DeckCore
import Foundation

/// The one way deckport's reports (`inspect --json`, `convert --json`, `formats --json`) become
/// JSON text: keys sorted (stable output), pretty-printed, every string exact, with control and
/// bidirectional characters written as JSON escapes (``TerminalText/escapedJSON(_:)``), so the
/// text is safe to print on a terminal.
enum ReportJSON {
  static func text(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return TerminalText.escapedJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
  }
}
