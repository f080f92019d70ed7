import ArgumentParser
import DeckConversion
import DeckCore
import Foundation

/// Turns library errors and warnings into what the user sees: one line per problem on standard
/// error, and an exit status (1 for bad input, 64 for bad usage).
enum CommandFailure {
  /// Runs `body`; a ``DeckError`` becomes one line on standard error and exit status
  /// `failureStatus`, 1 unless said otherwise (with `verbose`, followed by indented lines: what
  /// the kind of error means, each part of its location, and the error's details).
  /// `streams`, when given, names standard input and output in the message instead of the
  /// temporary files that stand for them. A strict conversion's failure says its warnings are
  /// listed above: `body` showed them as they came, or, when `warningsShown` is false, they are
  /// written first.
  static func reporting<T>(
    verbose: Bool = false, shownBy streams: StandardStreams? = nil, failureStatus: ExitCode = .failure,
    warningsShown: Bool = true, _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch let thrown as DeckError {
      let shown = (streams?.shown(thrown) ?? thrown).namingFlags
      if shown.isStrictFailure && !warningsShown {
        for warning in shown.diagnostics { StandardError.write("deckport: \(warning)") }
      }
      let error = shown.shownAfterItsWarnings()
      // The package's own maps (`meta`, `media`) have fixed limits no genuine deck comes near.
      let raisable = error.kind == .limitExceeded && !["meta", "media"].contains(error.location.member)
      let hint =
        raisable
        ? "; if the deck is genuine, raise the limit with --max-expansion or --max-unpacked"
        : FormatArguments.hint(for: error)
      StandardError.write("deckport: error: \(error)\(hint)")
      if verbose { for line in detailLines(of: error) { StandardError.write("deckport:   \(line)") } }
      throw failureStatus
    }
  }

  /// What `--verbose` adds below an error line.
  static func detailLines(of error: DeckError) -> [String] {
    let place = error.location
    var lines = [
      "kind: \(error.kind.rawValue) (\(error.kind.explanation.text(naming: \.flag)))", "file: \(place.file)",
    ]
    if let member = place.member { lines.append("zip member: \(member)") }
    if let table = place.table { lines.append("table: \(table)") }
    if let row = place.row { lines.append("row: \(row)") }
    if let line = place.line { lines.append("line: \(line)") }
    if let column = place.column { lines.append("column: \(column)") }
    if let offset = place.byteOffset { lines.append("byte offset: \(offset)") }
    if let path = place.jsonPath { lines.append("JSON path: \(path)") }
    if let item = place.item { lines.append("item: \(item)") }
    return lines + error.details
  }

  /// Prints warnings (all with `verbose`, else the first few and a count) and, with `strict`,
  /// fails with `failureStatus` (1 unless said otherwise) when there are any.
  static func handle(
    warnings: [Diagnostic], options: some DiagnosticChoices, failureStatus: ExitCode = .failure
  ) throws {
    guard !warnings.isEmpty else { return }
    let lines = WarningLines(options)
    for warning in warnings { lines.show(warning) }
    lines.finish()
    if options.strict {
      StandardError.write("deckport: error: --strict: \(CountedNoun.phrase(warnings.count, "warning")) above")
      throw failureStatus
    }
  }
}
