import ArgumentParser

/// Options every subcommand shares: how warnings are treated and shown, and whether progress is.
struct DiagnosticOptions: ParsableArguments {
  @Flag(help: "Fail (exit status 1) when anything could not be read or kept faithfully.")
  var strict = false

  @Flag(
    name: .shortAndLong,
    help:
      "Print every warning on standard error, not only the first five and a count of the rest; below an error, its kind, each part of its place and its details."
  )
  var verbose = false

  @Flag(
    name: .shortAndLong,
    help: "Show no progress line. (It is shown only on a terminal, for work longer than a second.)")
  var quiet = false
}
