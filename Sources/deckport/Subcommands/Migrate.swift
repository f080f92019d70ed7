import ArgumentParser
import DeckAppStorage
import DeckCore

extension Deckport {
  /// `deckport migrate SRC DEST`: app records from one storage to another.
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move app records between a plist, a JSON file, SQLite and a Core Data/SwiftData store.",
      discussion: """
        The storage kind comes from each file's content, or from its extension when it does not \
        exist yet: .plist (a UserDefaults plist, binary or XML; records under --key as JSON data \
        or an array of dictionaries), .json (an array of records), .sqlite/.sqlite3/.db \
        (deckport's SQLite schema for app records), .store or any SQLite file with Z_PRIMARYKEY \
        (a Core Data/SwiftData store, which is filled, never created). Every record is copied \
        with its keys, their order and their value types. The new file is written under a \
        temporary name, read back and compared record for record before it replaces DEST, and \
        DEST is read back again afterwards. An existing DEST is changed only with --backup \
        (which first keeps a copy as DEST.backup-YYYYMMDD-HHMMSS) or --force; writing into a \
        plist replaces only the --key and keeps every other key. SRC is never changed; SQLite \
        files are read from a private copy with their -wal and -shm, and a store another \
        process has open is refused. --list shows what SRC holds.

        --whole-store copies every entity of one Core Data/SwiftData store into another store \
        the app created: rows first, then every relationship through the map of where each \
        object went, so links reach the copied rows whatever keys they get. Records DEST \
        already holds are matched by --match-key, else by each entity's uniqueness constraint, \
        else by their whole content; a second run changes nothing.
        """)

    @Argument(help: "The storage to read (.plist, .json, .sqlite, .db, .store).")
    var source: String

    @Argument(help: "The storage to write (not needed with --list).")
    var destination: String?

    @OptionGroup var app: AppStorageArguments

    @Option(name: .customLong("dest-key"), help: "The key to write under, when it differs from --key.")
    var destinationKey: String?

    @Option(
      name: .customLong("dest-entity"), help: "The entity or record type to write into, when it differs from --entity.")
    var destinationEntity: String?

    @OptionGroup var writing: OutputWritingArguments

    @Flag(
      help: "Copy every entity of a Core Data/SwiftData store into another, relinking relationships to the copied rows."
    )
    var wholeStore = false

    @Flag(help: "List the record types (plist keys, tables, entities) SRC holds, with counts and fields.")
    var list = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
      if writing.backup && writing.force { throw ValidationError("Use either --backup or --force, not both.") }
      if !list && destination == nil { throw ValidationError("Missing expected argument '<destination>'.") }
      if list && destination != nil { throw ValidationError("--list takes only the source.") }
      if wholeStore {
        let conflicting = [
          ("--entity", app.reading.entity != nil), ("--dest-entity", destinationEntity != nil),
          ("--key", app.reading.key != nil),
          ("--dest-key", destinationKey != nil), ("--list", list), ("--profile", app.reading.profile != "auto"),
          ("--json-dates", app.reading.jsonDates != nil),
        ].filter(\.1).map(\.0)
        if !conflicting.isEmpty {
          throw ValidationError(
            "--whole-store copies every entity as the model has it; it takes no \(conflicting.joined(separator: ", "))."
          )
        }
      }
    }

    func run() throws {
      if list {
        try printList()
        return
      }
      guard let destination else { throw ExitCode.validationFailure }
      if wholeStore {
        try migrateStore(to: destination)
        return
      }
      let storage = app.options
      let options = AppMigrationOptions(
        key: storage.key, destinationKey: destinationKey, entity: storage.entity, destinationEntity: destinationEntity,
        profile: storage.profile, plistStyle: storage.plistStyle, jsonDates: storage.jsonDates,
        existing: writing.existing, dryRun: writing.dryRun, matching: app.matching.matching)
      let report = try runStrictly(options, warnings: \.warnings) {
        try AppMigrator().migrate(source: source, destination: destination, options: $0)
      }
      let read = report.source
      let written = report.destination
      let profileText = read.records.profile.map { ", profile \($0.title)" } ?? ""
      StandardOutput.write(
        "Read \(CountedNoun.phrase(read.records.records.count, "record")) from \(source): \(read.kind.displayName), \(read.place)\(profileText)"
      )
      if written.leftAsItWas {
        StandardOutput.write(
          "\(written.dryRun ? "Dry run: would leave" : "Left") \(destination) as it \(written.dryRun ? "is" : "was"): \(written.kind.displayName), \(written.place); \(written.merge); it already holds every record\(written.dryRun ? "; nothing was written" : "")"
        )
      } else if written.dryRun {
        StandardOutput.write(
          "Dry run: would write \(CountedNoun.phrase(written.recordCount, "record")) to \(destination): \(written.kind.displayName), \(written.place)\(written.created ? " (a new file)" : ""); \(written.merge); verified in a scratch copy; nothing was written"
        )
      } else {
        if let backupPath = written.backupPath { StandardOutput.write("Kept the old \(destination) as \(backupPath)") }
        StandardOutput.write(
          "Wrote \(CountedNoun.phrase(written.recordCount, "record")) to \(destination): \(written.kind.displayName), \(written.place); \(written.merge); verified: read back, every value equal"
        )
      }
      try CommandFailure.handle(warnings: report.warnings, options: diagnostics)
    }

    private func migrateStore(to destination: String) throws {
      let options = AppMigrationOptions(
        existing: writing.existing, dryRun: writing.dryRun, matching: app.matching.matching)
      let report = try runStrictly(options, warnings: \.warnings) {
        try AppMigrator().migrateStore(source: source, destination: destination, options: $0)
      }
      let entities = report.source.entities.count
      StandardOutput.write(
        "Read \(CountedNoun.phrase(report.source.recordCount, "record")) of \(CountedNoun.phrase(entities, "entity", plural: "entities")) from \(source): Core Data/SwiftData store"
      )
      if report.leftAsItWas {
        StandardOutput.write(
          "\(report.dryRun ? "Dry run: would leave" : "Left") \(destination) as it \(report.dryRun ? "is" : "was"): it already holds every record and link\(report.dryRun ? "; nothing was written" : ""):"
        )
      } else if report.dryRun {
        StandardOutput.write(
          "Dry run: would write into \(destination) (verified in a scratch copy; nothing was written):")
      } else {
        if let backupPath = report.backupPath { StandardOutput.write("Kept the old \(destination) as \(backupPath)") }
        StandardOutput.write("Wrote into \(destination) (verified: read back, every value and link as written):")
      }
      for outcome in report.entities {
        StandardOutput.write(
          "  \(outcome.entity) (table \(outcome.table)): \(CountedNoun.phrase(outcome.read, "record")); \(outcome.merge); \(CountedNoun.phrase(outcome.links, "link")) set"
        )
      }
      try CommandFailure.handle(warnings: report.warnings, options: diagnostics)
    }

    /// Runs `migration`; with --strict (and no --dry-run) first in a scratch copy, so that a
    /// warning fails the command before anything is written.
    private func runStrictly<Report>(
      _ options: AppMigrationOptions, warnings: KeyPath<Report, [Diagnostic]>,
      _ migration: (AppMigrationOptions) throws -> Report
    ) throws -> Report {
      if diagnostics.strict && !options.dryRun {
        var trialOptions = options
        trialOptions.dryRun = true
        let trial = try CommandFailure.reporting(verbose: diagnostics.verbose) { try migration(trialOptions) }
        try CommandFailure.handle(warnings: trial[keyPath: warnings], options: diagnostics)
      }
      return try CommandFailure.reporting(verbose: diagnostics.verbose) { try migration(options) }
    }

    private func printList() throws {
      let kind = try CommandFailure.reporting(verbose: diagnostics.verbose) { try AppStorageKind.detect(path: source) }
      let types = try CommandFailure.reporting(verbose: diagnostics.verbose) {
        try AppStorageReader().recordTypes(path: source, kind: kind)
      }
      StandardOutput.write("\(source): \(kind.displayName)")
      for type in types {
        let profileText = type.profile.map { ", profile \($0.id)" } ?? ""
        StandardOutput.write("  \(type.name): \(CountedNoun.phrase(type.count, "record"))\(profileText)")
        StandardOutput.write(
          "    fields: "
            + (type.fields.isEmpty
              ? "(none)" : type.fields.map { "\($0.key) (\($0.type.rawValue))" }.joined(separator: ", ")))
        StandardOutput.write("    \(type.detail)")
      }
    }

  }
}

extension PlistRecordStyle: ExpressibleByArgument {}

extension JSONDateEncoding: ExpressibleByArgument {}
