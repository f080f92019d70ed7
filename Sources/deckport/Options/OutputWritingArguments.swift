import ArgumentParser
import DeckCore

/// How `convert` and `migrate` treat what they write: whether an existing output is replaced or
/// changed with its old file kept, or whether nothing is written at all (a dry run).
struct OutputWritingArguments: ParsableArguments {
  @Flag(help: "Replace an existing output (app storage: change it) without keeping the old file.")
  var force = false

  @Flag(
    help:
      "App storage: change an existing output, first keeping the old file beside it as NAME.backup-YYYYMMDD-HHMMSS.")
  var backup = false

  @Flag(
    help:
      "Read and write everything in a scratch location and write nothing at the output: print what would be written and every warning (what would not be kept); into app storage, the records that would be added, updated and left unchanged, verified in the scratch copy."
  )
  var dryRun = false

  /// What these flags do with an existing output: keep a backup, replace it, or refuse.
  var existing: ExistingFilePolicy { backup ? .backup : (force ? .replace : .refuse) }
}
