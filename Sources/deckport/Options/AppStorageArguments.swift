import ArgumentParser
import DeckAppStorage
import DeckCore

/// The options `convert` and `migrate` take for writing app storage (plists, JSON files of
/// records, SQLite, Core Data): where the records go, their profile, the plist style and how
/// they are matched with those the output already holds.
struct AppStorageArguments: ParsableArguments, FormatOptionArguments {
  @OptionGroup var reading: AppStorageReadingArguments

  @Option(
    help:
      "App storage: how records go under a new plist key: json (JSON data, Flashzilla's way) or native (an array of dictionaries)."
  )
  var plistStyle: PlistRecordStyle = .json

  @OptionGroup(title: "Matching records the output already holds") var matching: RecordMatchingArguments

  /// The library's options for these arguments.
  var options: AppStorageOptions { reading.options(plistStyle: plistStyle) }

  /// Sets where the records are, the profile, the plist style and how records are matched.
  func fill(_ options: inout FormatOptions) throws {
    options[AppStorageOptions.self] = self.options
    options[AppRecordMatching.self] = matching.matching
  }
}
