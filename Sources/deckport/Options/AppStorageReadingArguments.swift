import ArgumentParser
import DeckAppStorage
import DeckCore

/// Where app storage keeps its records and how they map onto notes: the options every command
/// that reads app storage takes (`convert` and `migrate` within ``AppStorageArguments``, `diff`).
struct AppStorageReadingArguments: ParsableArguments, FormatOptionArguments {
  @Option(
    help:
      "App storage: the plist key (or JSON object key) holding the records; default: the one key that holds records, Cards for a new plist."
  )
  var key: String?

  @Option(help: "App storage: the Core Data entity or SQLite record type to read or write; default: the only one.")
  var entity: String?

  @Option(help: "App storage: the record profile: auto, generic, flashzilla, neomnemo, flashcard-quiz or idealic.")
  var profile: String = "auto"

  @Option(
    help:
      "App storage: how JSON-stored dates are numbers or strings (seconds-since-2001, seconds-since-1970, milliseconds-since-1970, iso8601 without fractions of a second as JSONEncoder writes it, iso8601-fractional with them); default: guessed from the values a file holds, else seconds-since-2001."
  )
  var jsonDates: JSONDateEncoding?

  func validate() throws {
    if AppProfileChoice(argument: profile) == nil {
      throw ValidationError(
        "Unknown profile '\(profile)'; use auto, generic, \(AppRecordProfile.all.map(\.id).joined(separator: ", ")).")
    }
  }

  /// Sets where the records are and the profile, for reading.
  func fill(_ options: inout FormatOptions) throws {
    options[AppStorageOptions.self] = self.options()
  }

  /// The library's options for reading (and, with `plistStyle`, writing) app storage.
  func options(plistStyle: PlistRecordStyle = .json) -> AppStorageOptions {
    AppStorageOptions(
      key: key, entity: entity, profile: AppProfileChoice(argument: profile) ?? .automatic, plistStyle: plistStyle,
      jsonDates: jsonDates)
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
