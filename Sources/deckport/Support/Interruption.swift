import DeckCore
import DeckIO
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `deckport` does on SIGINT (Ctrl-C), SIGTERM and SIGHUP: it stops without leaving
/// anything half written.
///
/// The first signal asks the work to stop (``Cancellation/requestProcessStop(signal:)``): it
/// stops at its next check, removes the output it was writing and its scratch files on the
/// way out, and the command exits with status 128 + the signal's number (130 for Ctrl-C). Work
/// that does not reach a check within ``grace`` (blocked opening a named pipe nobody writes to,
/// say), or a second signal, ends the process at once: every temporary file and folder
/// still registered (``TemporaryItems``) is removed first, after an output being renamed into
/// place is wholly in place.
enum Interruption {
  /// The signals handled.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// How long the work has to stop on its own after the first signal.
  static let grace: DispatchTimeInterval = .seconds(2)

  private static let queue = DispatchQueue(label: "deckport.interruption")
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
  nonisolated(unsafe) private static var signalsReceived = 0

  /// Handles the signals from now on (call it once, first thing).
  static func install() {
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { received(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// The line printed when the work stopped on `signal`, and the exit status. Outputs already
  /// put in place, whole, are named (one being read back to be checked when the signal came was
  /// written all the same).
  static func ending(after signal: Int32) -> (line: String, status: Int32) {
    let (placed, more) = TemporaryItems.placedOutputs
    let written =
      switch placed.count + more {
      case 0: ""
      case 1: "; \(TerminalText.escaped(placed.first ?? "an output")) was already written, whole, and stays"
      default: "; \(placed.count + more) outputs were already written, whole, and stay"
      }
    return ("deckport: interrupted by \(name(of: signal))\(written); nothing was left half written", 128 + signal)
  }

  /// On the serial queue: the first signal asks the work to stop and arms the deadline, the
  /// next one ends the process.
  private static func received(_ number: Int32) {
    signalsReceived += 1
    guard signalsReceived == 1 else { exitNow(after: number) }
    Cancellation.requestProcessStop(signal: number)
    queue.asyncAfter(deadline: .now() + grace) { exitNow(after: number) }
  }

  /// Removes every registered temporary item and exits with the signal's status. A progress
  /// line on the terminal is erased first (the work had no time to erase it).
  private static func exitNow(after number: Int32) -> Never {
    TemporaryItems.removeAllAndHold()
    let (line, status) = ending(after: Cancellation.processStopSignal ?? number)
    if isatty(STDERR_FILENO) == 1 {
      let erase = Array("\r\u{1B}[K".utf8)
      _ = erase.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    StandardError.write(line)
    _exit(status)
  }

  private static func name(of signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }
}
