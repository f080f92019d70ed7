import ArgumentParser
import DeckAppStorage

/// The options `convert` takes for app storage (plists, JSON files of records, SQLite, Core Data).
struct AppStorageArguments: ParsableArguments {
  @Option(help: "App storage: the plist key (or JSON object key) holding the records.")
  var key: String?

  @Option(help: "App storage: the Core Data entity or SQLite record type to read or write.")
  var entity: String?

  @Option(help: "App storage: the record profile (auto, generic, flashzilla, neomnemo, flashcard-quiz, idealic).")
  var profile: String = "auto"

  @Option(help: "App storage: how records go under a new plist key: json (JSON data) or native.")
  var plistStyle: PlistRecordStyle = .json

  @Flag(help: "App storage: change an existing output, keeping the old file beside it.")
  var backup = false

  @OptionGroup var matching: RecordMatchingArguments

  func validate() throws {
    if AppProfileChoice(argument: profile) == nil {
      throw ValidationError(
        "Unknown profile '\(profile)'; use auto, generic, \(AppRecordProfile.all.map(\.id).joined(separator: ", ")).")
    }
  }

  /// The library's options for these arguments.
  var options: AppStorageOptions {
    AppStorageOptions(
      key: key, entity: entity, profile: AppProfileChoice(argument: profile) ?? .automatic, plistStyle: plistStyle)
  }
}

extension AppProfileChoice {
  /// The profile a command-line value names: `auto`, `generic`, or a named profile's id.
  init?(argument: String) {
    switch argument.lowercased() {
    case "auto": self = .automatic
    case "generic": self = .generic
    default:
      guard let profile = AppRecordProfile.named(argument) else { return nil }
      self = .named(profile)
    }
  }
}
