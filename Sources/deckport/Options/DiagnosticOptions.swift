import ArgumentParser

/// How warnings are treated and shown, and whether progress is: what ``DiagnosticOptions`` and
/// ``DiffDiagnosticOptions`` both give.
protocol DiagnosticChoices {
  /// Whether warnings fail the command.
  var strict: Bool { get }
  /// Whether every warning is shown, and an error in full.
  var verbose: Bool { get }
  /// Whether no progress line is shown.
  var quiet: Bool { get }
}

/// Options every subcommand but `diff` shares: how warnings are treated and shown, and whether
/// progress is.
struct DiagnosticOptions: ParsableArguments, DiagnosticChoices {
  @Flag(help: "Fail (exit status 1) when anything could not be read or kept faithfully.")
  var strict = false

  @Flag(name: .shortAndLong, help: Self.verboseHelp)
  var verbose = false

  @Flag(name: .shortAndLong, help: Self.quietHelp)
  var quiet = false

  static let verboseHelp: ArgumentHelp =
    "Print every warning on standard error, not only the first five and a count of the rest; below an error, its kind, each part of its place and its details."
  static let quietHelp: ArgumentHelp =
    "Show no progress line. (It is shown only on a terminal, for work longer than a second.)"
}

/// `diff`'s options of the same kind: as ``DiagnosticOptions``, but warnings fail it with exit
/// status 2, as an input it cannot read does (1 says the decks differ).
struct DiffDiagnosticOptions: ParsableArguments, DiagnosticChoices {
  @Flag(help: "Fail (exit status 2) when anything could not be read or kept faithfully.")
  var strict = false

  @Flag(name: .shortAndLong, help: DiagnosticOptions.verboseHelp)
  var verbose = false

  @Flag(name: .shortAndLong, help: DiagnosticOptions.quietHelp)
  var quiet = false
}
