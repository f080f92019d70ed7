import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows a conversion's progress on one line of a terminal's standard error, rewritten in place
/// (`\r`), for the `deckport` command.
///
/// ```swift
/// let renderer = quiet ? nil : TerminalProgressRenderer.forStandardError()
/// defer { renderer?.finish() }
/// try DeckConverter().convert(input: a, output: b, progress: renderer?.reporter)
/// ```
///
/// Nothing is shown when standard error is not a terminal (a pipe, a file): ``forStandardError(delay:)``
/// returns nil then. Nothing is shown either during the first `delay` seconds, so quick
/// conversions stay silent; after that the line shows every unfinished phase, such as
/// `Writing cards 120,000/200,000 · Copying media 35/400`, redrawn at most ten times a second.
/// ``finish()`` erases the line. Print other messages through ``printAbove(_:)`` so they do not
/// land in the middle of the line.
final class TerminalProgressRenderer: Sendable {
  /// The reporter to hand to readers and writers.
  let reporter: ProgressReporter
  private let screen: Screen

  /// A renderer on standard error when it is a terminal, else nil.
  ///
  /// - Parameter delay: how long a conversion runs before its progress is shown, in seconds.
  static func forStandardError(delay: TimeInterval = 1) -> TerminalProgressRenderer? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return TerminalProgressRenderer(descriptor: STDERR_FILENO, delay: delay)
  }

  /// A renderer writing to `descriptor`, whatever it is (for tests; the command uses
  /// ``forStandardError(delay:)``).
  init(descriptor: Int32, delay: TimeInterval = 1, columns: Int? = nil) {
    let screen = Screen(
      descriptor: descriptor, delay: delay, columns: columns ?? Self.terminalColumns(descriptor))
    self.screen = screen
    reporter = ProgressReporter(minimumInterval: 0.1) { [weak screen] phases in
      screen?.draw(phases)
    }
  }

  /// Erases the line, if one is shown, and shows no more.
  func finish() {
    reporter.close()
    screen.finish()
  }

  /// Runs `body` (which prints something on the terminal) with the progress line erased first;
  /// the line comes back with the next update.
  func printAbove(_ body: () -> Void) {
    screen.printAbove(body)
  }

  private static func terminalColumns(_ descriptor: Int32) -> Int {
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }

  /// The line on the terminal; every call holds one lock.
  private final class Screen: @unchecked Sendable {
    private let lock = NSLock()
    private let descriptor: Int32
    private let started = ProcessInfo.processInfo.systemUptime
    private let delay: TimeInterval
    private let columns: Int
    /// Whether a line is on the screen now.
    private var drawn = false
    private var finished = false

    init(descriptor: Int32, delay: TimeInterval, columns: Int) {
      self.descriptor = descriptor
      self.delay = delay
      self.columns = columns
    }

    func draw(_ phases: [ConversionProgress]) {
      lock.lock()
      defer { lock.unlock() }
      guard !finished else { return }
      guard !phases.isEmpty else { return erase() }
      guard ProcessInfo.processInfo.systemUptime - started >= delay else { return }
      var line = TerminalText.escaped(phases.map(\.description).joined(separator: " · "))
      let width = max(columns - 1, 10)
      if line.count > width { line = String(line.prefix(width - 1)) + "…" }
      // Back to the start of the line, the text, then erase whatever a longer line left.
      write("\r" + line + "\u{1B}[K")
      drawn = true
    }

    func finish() {
      lock.lock()
      defer { lock.unlock() }
      erase()
      finished = true
    }

    func printAbove(_ body: () -> Void) {
      lock.lock()
      defer { lock.unlock() }
      erase()
      body()
    }

    private func erase() {
      guard drawn else { return }
      write("\r\u{1B}[K")
      drawn = false
    }

    private func write(_ text: String) {
      let bytes = Array(text.utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
          systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

/// The C library's `write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
  Glibc.write(descriptor, buffer, count)
  #else
  Darwin.write(descriptor, buffer, count)
  #endif
}
