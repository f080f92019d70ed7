import ArgumentParser
import CBuildInfo
import DeckCore
import DeckIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `deckport` command: moves flashcard decks between formats without losing anything.
@main
struct Deckport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deckport",
    abstract: "Move flashcard decks between formats without losing anything.",
    discussion: """
      Reads Anki packages (.apkg, .colpkg) of every generation: Anki 2.0 (collection.anki2), \
      Anki 2.1 (collection.anki21) and the latest zstd-compressed layout (collection.anki21b).

      Exit status: 0 on success, 1 when an input is damaged or unreadable (or, with --strict, \
      when anything could not be kept), 64 for a usage error; diff exits as diff(1) does: 0 \
      when the decks are the same, 1 when they differ, 2 when an input cannot be read.

      Interrupted (Ctrl-C, SIGTERM, SIGHUP), deckport stops, removes the output it was writing \
      and its scratch files, leaves an existing output as it was (or, when the new one was \
      already in place, whole, says so), and exits with 128 + the \
      signal's number (130 for Ctrl-C). Work that cannot stop within two seconds (opening a \
      named pipe nobody writes to, say), or a second signal, ends it at once, after the same \
      clean-up.
      """,
    version: "\(version) (commit \(String(cString: deckport_build_commit())))",
    subcommands: [Convert.self, Inspect.self, Render.self, Diff.self, Migrate.self, Formats.self])

  /// deckport's version; `--version` adds the commit it was built from.
  static let version = "0.1.0"

  /// Runs the command. A reader that goes away early (`deckport … | head -1`) must not kill
  /// deckport with SIGPIPE: writes to it fail quietly instead, and the work finishes (or fails)
  /// with its own exit status. SIGINT, SIGTERM and SIGHUP stop the work without leaving
  /// anything half written (``Interruption``), and whatever way the command ends, a temporary
  /// item still registered then (one a thread that has not ended yet still held) is removed.
  ///
  /// What ArgumentParser's own `main` does, except that an error message (which may quote an
  /// argument, such as a file name holding control characters) reaches standard error through
  /// ``StandardError``, escaped; help, version and completion text (deckport's own) is printed
  /// as it is.
  static func main() {
    signal(SIGPIPE, SIG_IGN)
    Interruption.install()
    do {
      var command = try parseAsRoot(nil)
      try command.run()
      exit(0)
    } catch is CancellationError {
      let (line, status) = Interruption.ending(after: Cancellation.processStopSignal ?? SIGINT)
      StandardError.write(line)
      exit(status)
    } catch {
      let status = exitCode(for: error)
      let text = fullMessage(for: error)
      if status.isSuccess {
        if !text.isEmpty { print(text) }
      } else if !text.isEmpty {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { StandardError.write(String(line)) }
      }
      exit(status.rawValue)
    }
  }

  /// Ends the process with `status`, once every temporary item still registered is removed.
  private static func exit(_ status: Int32) -> Never {
    TemporaryItems.removeAllAndHold()
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
  }
}
