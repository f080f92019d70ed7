import DeckCore
import Foundation

/// How warnings reach standard error while a command runs: every one with `--verbose` or
/// `--strict`, otherwise the first five, then one line counting the rest. Safe to use from the
/// threads of a batch's conversions.
final class WarningLines: @unchecked Sendable {
  /// How many warnings are shown without `--verbose`.
  static let shownByDefault = 5

  private let showsAll: Bool
  private let lock = NSLock()
  private var count = 0

  init(_ options: some DiagnosticChoices) {
    showsAll = options.verbose || options.strict
  }

  /// Counts `warning` and, unless enough have been shown, writes it with `write` (standard
  /// error, or a progress line's `printError` so the line is not torn).
  func show(_ warning: Diagnostic, write: (String) -> Void = StandardError.write) {
    lock.lock()
    count += 1
    let shown = showsAll || count <= Self.shownByDefault
    lock.unlock()
    if shown { write("deckport: \(warning.namingFlags)") }
  }

  /// Writes how many warnings were not shown, if any.
  func finish() {
    lock.lock()
    let hidden = showsAll ? 0 : count - Self.shownByDefault
    lock.unlock()
    if hidden > 0 { StandardError.write("deckport: \(hidden) more warnings (--verbose shows all)") }
  }
}
