import ArgumentParser
import DeckConversion
import DeckCore
import Foundation

/// Turns library errors and warnings into what the user sees: one line per problem on standard
/// error, and an exit status (1 for bad input, 64 for bad usage).
enum CommandFailure {
  /// Runs `body`; a ``DeckError`` becomes one line on standard error and exit status 1.
  static func reporting<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DeckError {
      // The package's own maps (`meta`, `media`) have fixed limits no genuine deck comes near.
      let raisable = error.kind == .limitExceeded && !["meta", "media"].contains(error.location.member)
      let hint = raisable ? "; if the deck is genuine, raise the limit with --max-expansion or --max-unpacked" : ""
      StandardError.write("deckport: error: \(error)\(hint)")
      throw ExitCode.failure
    }
  }

  /// Prints warnings (all with `verbose`, else the first few and a count) and, with `strict`,
  /// fails when there are any.
  static func handle(warnings: [Diagnostic], options: DiagnosticOptions) throws {
    guard !warnings.isEmpty else { return }
    let shown = options.verbose || options.strict ? warnings : Array(warnings.prefix(5))
    for warning in shown { StandardError.write("deckport: \(warning)") }
    if shown.count < warnings.count {
      StandardError.write("deckport: \(warnings.count - shown.count) more warnings (--verbose shows all)")
    }
    if options.strict {
      StandardError.write("deckport: error: --strict: \(warnings.count) warning\(warnings.count == 1 ? "" : "s") above")
      throw ExitCode.failure
    }
  }
}

/// Writes lines to standard error.
enum StandardError {
  static func write(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
