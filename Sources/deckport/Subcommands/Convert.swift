import ArgumentParser
import DeckCSV
import DeckConversion
import DeckCore

extension Deckport {
  /// `deckport convert IN OUT`: one deck format to another.
  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Convert a deck file to another format.",
      discussion: """
        Formats come from the file extensions (.apkg, .colpkg, .json, .csv, .tsv, .txt, .plist, \
        .sqlite, .db, .store) or the content unless \
        --from or --to name them (an input whose content is another format's than its name \
        says, such as an Anki package named .csv, is read as its content shows, with a \
        warning); the formats command lists them all. Output formats: apkg (Anki's legacy layout, which every Anki \
        version and most tools read), apkg-modern (the latest layout current Anki writes), \
        colpkg and colpkg-modern (whole-collection backups), json (the deckport JSON deck \
        format, media embedded), csv and tsv (Anki's text format: # header lines, then GUID, \
        note type, deck, fields and tags; with --header or --columns a plain spreadsheet). The \
        output is written under a temporary name and renamed when complete; an existing output \
        is replaced only with --force, and the input is never changed.

        - as the input reads standard input (the format from --from, or told from the content); \
        - as the output writes standard output (with --to), once the conversion is complete: \
        deckport convert French.apkg - --to json | jq .notes. Messages and progress stay on \
        standard error, naming the streams <stdin> and <stdout>.

        With --out-dir, every file named is converted into that folder (created when missing) under its own name with \
        the extension of --to (French.apkg becomes DIR/French.json; a folder format, crowdanki or json-dir, \
        gives the folder DIR/French), --jobs at once (default: \
        the number of cores); one line per file (written, or failed with its error) and a total \
        end the run, and the exit status is 1 if any file failed: deckport convert decks/*.apkg \
        --out-dir backup --to json.

        --dry-run reads and converts everything into a scratch location and prints what would be \
        written (counts and size) and every warning, that is, everything that would be changed \
        or not kept, and writes nothing at the output: deckport convert French.apkg French.csv \
        --dry-run. --json prints the result, or the plan, as one JSON object.

        --only-deck NAME converts one deck of a collection, as Anki's export with one deck \
        chosen does: the notes with a card in that deck or its subdecks (or taken from them into \
        a filtered deck, which Anki's export leaves out), each with all its cards, the decks and \
        note types they use, their reviews and the media they refer to; names match ignoring \
        case, and the option repeats for several decks: deckport convert \
        fixtures/anki/latest.colpkg Verbs.apkg --only-deck Languages::French::Verbs. \
        --only-tag TAG (repeatable) keeps the notes Anki's search tag:TAG finds, those with the \
        tag or a subtag of it (case ignored, * and _ as wildcards, none for notes without \
        tags), the same way; with --only-deck, the notes of those decks that have it. A line \
        before the result says how much of the input that is. --without-scheduling shares a \
        deck without the sharer's progress, as Anki's export with "Include scheduling \
        information" off: every card new (at the position it had before it was first studied), \
        no review log, no filtered decks, no marked or leech tags, no FSRS parameters in the \
        option groups, no collapsed decks; --without-deck-presets leaves the option groups out, as Anki's export \
        with "Include deck presets" off, so each deck takes the importing collection's Default; \
        --without-media leaves the media files out, as "Include media" off (the notes still name \
        them).

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
        and what was written is read back and compared before success is reported. A write \
        that fails leaves the file as it was and removes the backup it made. An existing .json \
        output that holds an app's records takes records (--to json replaces it with a deck). \
        Without a profile a deck's fields are text: the destination types them again (a store \
        by its model, a file by the values it holds under each key), and records are matched \
        by that text, so a store or file made into a deck and converted back is unchanged.
        """)

    @Argument(
      help: ArgumentHelp(
        "The deck file to read, then the file to write (- for standard input or output); with --out-dir, every file to read.",
        valueName: "file"))
    var files: [String] = []

    @OptionGroup var from: InputFormatArguments<OneInputDeck>

    @Option(
      help: ArgumentHelp("The output format (\(FormatArguments.outputList)); the formats command lists them."),
      transform: FormatArguments.output)
    var to: FormatName?

    @OptionGroup var writing: OutputWritingArguments

    @Option(
      help:
        "Convert every file named into this folder, each under its own name with the output format's extension (needs --to)."
    )
    var outDir: String?

    @Option(help: "With --out-dir: how many files to convert at once (default: the number of cores).")
    var jobs: Int?

    @OptionGroup(title: "What to keep") var keeping: ExportChoiceArguments

    @Flag(help: "Print the result (or, with --dry-run, the plan) as one JSON object on standard output.")
    var json = false

    @OptionGroup(title: "CSV and TSV options") var csv: CSVArguments

    @OptionGroup(title: "Anki package options") var anki: AnkiPackageArguments

    @OptionGroup(title: "App storage options") var app: AppStorageArguments

    @OptionGroup(title: "Limits") var limits: LimitArguments

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
      if to == .cards, csv.header || csv.columns != nil {
        throw ValidationError(
          "--to cards writes Anki's two columns, the question and the answer; --header and --columns do not apply.")
      }
      if let outDir {
        if files.isEmpty { throw ValidationError("Name the files to convert into \(outDir).") }
        guard let to, let format = FormatArguments.registry.writer(named: to)?.description else {
          throw ValidationError("--out-dir needs the output format: --to FORMAT.")
        }
        if format.newFileExtension == nil && !format.isFolder {
          throw ValidationError(
            "\(to.rawValue) writes into a store the app created, one file at a time; --out-dir makes new files.")
        }
        if files.contains(StandardStreams.dash) {
          throw ValidationError("--out-dir reads files, not standard input (-).")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of 1 or more.") }
        return
      }
      if jobs != nil { throw ValidationError("--jobs is for --out-dir.") }
      guard files.count == 2 else {
        throw ValidationError(
          files.count < 2
            ? "Name the file to read and the file to write (or several files to read and --out-dir)."
            : "Name one file to read and one file to write; to convert several files, give --out-dir.")
      }
      if files[1] == StandardStreams.dash {
        guard let to, let format = FormatArguments.registry.writer(named: to)?.description else {
          throw ValidationError("Writing to standard output (-) needs the output format: --to FORMAT.")
        }
        if format.changesInPlace {
          throw ValidationError("\(to.rawValue) is app storage, written into a file in place; name a file, not -.")
        }
        if format.isFolder { throw ValidationError("\(to.rawValue) is a folder; name a folder to write, not -.") }
        if json && !writing.dryRun {
          throw ValidationError("--json prints on standard output, where the deck goes; use one or the other.")
        }
        if format.textSyntax == nil, !writing.dryRun, StandardStreams.outputIsTerminal {
          throw ValidationError(
            "Standard output is a terminal; redirect it to a file or a pipe for a \(to.rawValue) package.")
        }
      }
    }

    func run() throws {
      var formats = FormatOptions()
      for group: any FormatOptionArguments in [csv, anki, app, limits] { try group.fill(&formats) }
      let options = ConversionOptions(
        from: from.format, to: to, replacing: writing.force, strict: diagnostics.strict, backup: writing.backup,
        formats: formats, dryRun: writing.dryRun, choices: keeping.choices)
      if let outDir {
        try BatchRun(options: options, diagnostics: diagnostics, json: json).run(files, into: outDir, jobs: jobs)
      } else {
        try convertOne(input: files[0], output: files[1], options: options)
      }
    }

    private func convertOne(input: String, output: String, options baseOptions: ConversionOptions) throws {
      var options = baseOptions
      let streams = StandardStreams()
      let shownOutput = output == StandardStreams.dash ? StandardStreams.outputName : output
      var warnings: [Diagnostic] = []
      let warningLines = WarningLines(diagnostics)
      // A dry run and --json list the warnings after the conversion, which a strict failure ends.
      let report = try CommandFailure.reporting(
        verbose: diagnostics.verbose, shownBy: streams, warningsShown: !writing.dryRun && !json
      ) {
        let inputPath = try streams.inputPath(for: input, format: from.format)
        let outputFormat = try Self.outputFormat(named: to, for: output)
        options.to = outputFormat.name
        let outputPath = try streams.outputPath(for: output, format: outputFormat.description)
        return try ProgressLine.showing(quiet: diagnostics.quiet) { progress in
          options.progress = progress.reporter
          let report = try DeckConverter().convert(input: inputPath, output: outputPath, options: options) { warning in
            let shown = streams.shown(warning)
            warnings.append(shown)
            // A dry run lists every warning with its plan; otherwise they are shown as they come.
            if !writing.dryRun && !json { warningLines.show(shown, write: progress.printError) }
          }
          if !writing.dryRun { try streams.finishOutput(outputPath, format: outputFormat.description) }
          return report
        }
      }
      let shownInput = streams.shown(input == StandardStreams.dash ? StandardStreams.inputName : input)
      if json {
        var shownReport = report
        shownReport.warnings = warnings
        StandardOutput.writeJSON(try shownReport.jsonText(input: shownInput, output: shownOutput))
        return
      }
      // When the deck itself goes to standard output, every message goes to standard error.
      let toStandardError = output == StandardStreams.dash && !writing.dryRun
      let say: (String) -> Void = { toStandardError ? StandardError.write($0) : StandardOutput.write($0) }
      if writing.dryRun {
        ConversionText.plan(report, output: shownOutput, warnings: warnings, replacing: writing.force).forEach(say)
        return
      }
      warningLines.finish()
      ConversionText.written(report, output: shownOutput, warningCount: warnings.count).forEach(say)
    }

    /// The output format: the one named, or the one the output's name (or content) shows; an
    /// output of no known format is a usage error (exit status 64) that lists the formats.
    private static func outputFormat(named name: FormatName?, for output: String) throws -> any DeckFormat {
      do {
        return try DeckConverter(registry: FormatArguments.registry).outputFormat(named: name, for: output)
      } catch let error as DeckError where error.kind == .unknownFormat {
        StandardError.write("deckport: error: \(error); name it with --to (one of: \(FormatArguments.outputList))")
        throw ExitCode.validationFailure
      }
    }
  }
}
