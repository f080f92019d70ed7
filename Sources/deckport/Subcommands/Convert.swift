import ArgumentParser
import DeckConversion

extension Deckport {
  /// `deckport convert IN OUT`: one deck format to another.
  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Convert a deck file to another format.",
      discussion: """
        Formats come from the file extensions (.apkg, .colpkg, .json, .csv, .tsv, .txt, .plist, \
        .sqlite, .db, .store) or the content unless \
        --from or --to name them. Output formats: apkg (Anki's legacy layout, which every Anki \
        version and most tools read), apkg-modern (the latest layout current Anki writes), \
        colpkg and colpkg-modern (whole-collection backups), json (the deckport JSON deck \
        format, media embedded), csv and tsv (Anki's text format: # header lines, then GUID, \
        note type, deck, fields and tags; with --header or --columns a plain spreadsheet). The \
        output is written under a temporary name and renamed when complete; an existing output \
        is replaced only with --force, and the input is never changed.

        CSV and TSV input is read as Anki's importer reads it: the # header lines decide the \
        separator, HTML, columns, note type and deck; rows naming a stock note type (Basic, \
        Cloze, ...) get its real fields and templates. A spreadsheet export becomes a deck in \
        one command: deckport convert words.csv words.apkg --header --columns front,back \
        --deck Words. A CSV keeps no scheduling, review log or media; converting a deck that \
        has them to CSV warns about each.

        App storage (.plist, a .json array of records, .sqlite/.db, a Core Data or SwiftData \
        .store) converts both ways: records become notes through a profile (Flashzilla, \
        NeoMnemo, Flashcard Quiz, Idealic, or field for key), images stored as data become \
        media; a deck becomes records, e.g. deckport convert French.apkg cards.plist --profile \
        flashzilla. Output formats plist, app-json, sqlite and core-data (which inserts into a \
        store the app created); an existing output is changed only with --backup or --force, \
        and what was written is read back and compared before success is reported.
        """)

    @Argument(help: "The deck file to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "The input format, when the extension does not tell.")
    var from: InputFormat?

    @Option(help: "The output format (apkg, apkg-modern, colpkg, colpkg-modern, json, csv, tsv, plist, app-json, sqlite, core-data).")
    var to: OutputFormat?

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    @OptionGroup(title: "CSV and TSV options") var csv: CSVArguments

    @OptionGroup(title: "Anki package options") var anki: AnkiPackageArguments

    @OptionGroup(title: "App storage options") var app: AppStorageArguments

    @OptionGroup(title: "Limits") var limits: LimitArguments

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
      if app.dryRun, let format = to ?? OutputFormat.detect(path: output), format.appStorageKind == nil {
        throw ValidationError("--dry-run is for app storage outputs (plist, app-json, sqlite, core-data), not \(format.rawValue).")
      }
    }

    func run() throws {
      var options = ConversionOptions(
        from: from, to: to, replacing: force, strict: diagnostics.strict, csv: try csv.options(),
        app: app.options, backup: app.backup, limits: try limits.limits(), matching: app.matching.matching, dryRun: app.dryRun,
        duplicateGUIDs: anki.duplicateGUIDs)
      var warningCount = 0
      let report = try CommandFailure.reporting(verbose: diagnostics.verbose) {
        try ProgressLine.showing(quiet: diagnostics.quiet) { progress in
          options.progress = progress.reporter
          return try DeckConverter().convert(input: input, output: output, options: options) { warning in
            warningCount += 1
            if diagnostics.verbose || diagnostics.strict || warningCount <= 5 {
              progress.printError("deckport: \(warning)")
            }
          }
        }
      }
      if warningCount > 5 && !diagnostics.verbose {
        StandardError.write("deckport: \(warningCount - 5) more warnings (--verbose shows all)")
      }
      let s = report.summary
      if let written = report.appWrite, written.dryRun {
        let records = "\(written.recordCount) record\(written.recordCount == 1 ? "" : "s")"
        StandardOutput.write(
          "Dry run: would write \(records) to \(output) (\(written.kind.displayName), \(written.place)) from \(report.inputFormat): \(written.merge); verified in a scratch copy; nothing was written")
        return
      }
      if let backupPath = report.appWrite?.backupPath { StandardOutput.write("Kept the old \(output) as \(backupPath)") }
      StandardOutput.write(
        "Wrote \(output) (\(report.outputFormat.rawValue)) from \(report.inputFormat): \(s.notes) notes, \(s.cards) cards, \(s.reviews) reviews, \(s.media) media files\(warningCount > 0 ? ", \(warningCount) warning\(warningCount == 1 ? "" : "s")" : "")")
      if let written = report.appWrite { StandardOutput.write("Records in \(output) (\(written.place)): \(written.merge)") }
    }
  }
}
