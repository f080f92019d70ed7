import DeckCore
import Foundation

/// The progress line a long command shows on a terminal's standard error, and the way other
/// lines reach standard error without tearing it.
///
/// It exists only when standard error is a terminal and `--quiet` was not given; nothing of it
/// ever reaches a pipe or a file. It appears after a second (so quick commands stay silent), or
/// after `DECKPORT_PROGRESS_DELAY` seconds when that variable is set (the tests use 0).
final class ProgressLine: Sendable {
  private let renderer: TerminalProgressRenderer?

  /// A progress line on standard error, unless `quiet` or standard error is not a terminal.
  init(quiet: Bool) {
    let delay = ProcessInfo.processInfo.environment["DECKPORT_PROGRESS_DELAY"].flatMap(TimeInterval.init) ?? 1
    renderer = quiet ? nil : TerminalProgressRenderer.forStandardError(delay: delay)
  }

  /// The reporter to hand to the library, or nil when nothing is shown.
  var reporter: ProgressReporter? { renderer?.reporter }

  /// Writes `line` on standard error, above the progress line.
  func printError(_ line: String) {
    guard let renderer else { return StandardError.write(line) }
    renderer.printAbove { StandardError.write(line) }
  }

  /// Erases the line and shows no more.
  func finish() {
    renderer?.finish()
  }

  /// Runs `body` with a progress line, erased when it returns or throws (before any error is
  /// printed).
  static func showing<T>(quiet: Bool, _ body: (ProgressLine) throws -> T) rethrows -> T {
    let line = ProgressLine(quiet: quiet)
    defer { line.finish() }
    return try body(line)
  }
}
