import ArgumentParser
import DeckAppStorage

/// How `convert` and `migrate` match the records they write with those an app storage
/// destination already holds, so that a second import changes nothing.
struct RecordMatchingArguments: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "App storage: what to do with a record the destination already holds (matched by identity): update (when changed; the default), skip, add, or fail.",
      valueName: "policy"))
  var existing: ExistingRecordPolicy = .update

  @Option(
    name: .customLong("match-key"),
    help: ArgumentHelp(
      "App storage: a key that identifies a record (repeat for several); default: a note made from a record or a store's row goes back into it (its GUID says which); other records by the profile's keys (Flashzilla id, NeoMnemo keyword, Flashcard Quiz word, Idealic title and text), else a Core Data/SwiftData entity's uniqueness constraint, else the whole record.",
      valueName: "key"))
  var matchKeys: [String] = []

  /// The library's matching rule.
  var matching: AppRecordMatching {
    AppRecordMatching(policy: existing, keys: matchKeys.isEmpty ? nil : matchKeys)
  }
}

extension ExistingRecordPolicy: ExpressibleByArgument {}
