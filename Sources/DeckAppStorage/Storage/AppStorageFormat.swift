import DeckCore
import DeckIO
import Foundation

extension FormatName {
  /// App storage: a UserDefaults property list holding records.
  public static let plist: FormatName = "plist"
  /// App storage: a JSON file holding an array of records.
  public static let appJSON: FormatName = "app-json"
  /// App storage: deckport's SQLite schema for app records.
  public static let sqlite: FormatName = "sqlite"
  /// App storage: a Core Data or SwiftData store the app created.
  public static let coreData: FormatName = "core-data"
  /// Any app storage, told by content (what `--from app` names).
  public static let app: FormatName = "app"
}

extension AppStorageOptions: FormatOptionGroup {
  /// No key or entity named, the profile told from the records.
  public init() { self.init(key: nil) }
}

extension AppRecordMatching: FormatOptionGroup {
  /// Records matched by the profile's key, updated when changed.
  public init() { self.init(policy: .update) }
}

/// An app's own storage as a format (`plist`, `app-json`, `sqlite`, `core-data`; `--from app`
/// reads any of them): records become notes through a record profile and notes become records.
/// Reading takes ``AppStorageOptions``; writing takes it and ``AppRecordMatching``, and changes
/// the destination in place, with `AppStorageWriter`'s backup and read-back verification; its
/// ``DeckWriteResult/details`` is the ``AppWriteReport``.
public struct AppStorageFormat: DeckFormat {
  /// The storage kind written (reading takes whichever kind the content shows).
  public var kind: AppStorageKind
  public let description: FormatDescription

  /// What an app's storage cannot hold: it keeps records (notes of a profile), nothing else.
  private static let losses = [
    "scheduling", "review log", "tags", "HTML formatting", "card templates and styling", "decks",
    "fields and media the record profile has no place for", "deletion records",
    "collection settings", "the collection's list of tags", "Anki's other deck and note type properties",
    "the times notes and note types were last changed",
  ]

  /// A UserDefaults-style property list holding app records.
  public static let plist = AppStorageFormat(
    kind: .plist, name: .plist, summary: "app storage: a UserDefaults property list holding records",
    extensions: ["plist"])
  /// A JSON file holding an array of app records.
  public static let appJSON = AppStorageFormat(
    kind: .jsonFile, name: .appJSON, summary: "app storage: a JSON file holding an array of records (read by content)",
    extensions: [], namingExtension: "json")
  /// deckport's SQLite schema for app records.
  public static let sqlite = AppStorageFormat(
    kind: .sqlite, name: .sqlite, summary: "app storage: deckport's SQLite schema for app records",
    extensions: ["sqlite", "sqlite3", "db"])
  /// Records inserted into an existing Core Data / SwiftData store the app created.
  public static let coreData = AppStorageFormat(
    kind: .coreData, name: .coreData,
    summary: "app storage: a Core Data or SwiftData store the app created (records are inserted into it)",
    extensions: ["store"])

  private init(
    kind: AppStorageKind, name: FormatName, summary: String, extensions: [String], namingExtension: String? = nil
  ) {
    self.kind = kind
    description = FormatDescription(
      name: name, summary: summary, extensions: extensions, reads: true, writes: true, cannotHold: Self.losses,
      holds: [.media], layout: kind == .coreData ? .existingFile : .fileInPlace, namingExtension: namingExtension)
  }

  /// Every kind answers to `--from app`.
  public var inputAliases: [FormatName] { [.app] }

  /// A `.json` file may hold an app's records instead of a deckport deck.
  public var sharedExtensions: [String] { ["json"] }

  /// Storage of this kind that holds records.
  public func recognizes(path: String) -> Bool {
    (try? AppStorageKind.detect(path: path)) == kind && AppStorageKind.recognize(path: path) == kind
  }

  /// A Core Data store is written as one whatever its name (Xcode names it `<Model>.sqlite`),
  /// when the name says SQLite or nothing: only then is the file's first page read. An existing
  /// `.json` file that holds an app's records, not a deckport deck, takes records, as it is read:
  /// a deck written over it would leave the app nothing to decode (`--to json` replaces it).
  public func claimsExistingOutput(path: String, namedFormat: FormatName?) -> Bool {
    if kind == .jsonFile {
      return namedFormat == "json" && AppStorageKind.recognize(path: path) == .jsonFile
    }
    guard kind == .coreData, namedFormat == nil || namedFormat == .sqlite else { return false }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      return false
    }
    return (try? AppStorageKind.detect(path: path)) == .coreData
  }

  /// Reads the records (of whichever kind the content shows) and maps them onto notes.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    let options = context.options[AppStorageOptions.self]
    let content = try AppStorageReader().read(path: path, options: options)
    // When the store last changed: its file's time, or its write-ahead log's when later (a
    // store's committed changes may be there alone). Not the `-shm` index's, which changes
    // whenever any reader opens the store.
    let modified = ["", "-wal"].compactMap { FileManager.default.modificationSeconds(atPath: path + $0) }.max()
    let mapped = try AppRecordMapping.collection(
      from: content.records, profile: options.profile, modificationTime: modified ?? 0, file: path)
    return LoadedDeck(
      collection: mapped.collection, formatName: "app-\(content.kind.rawValue)",
      warnings: content.warnings + mapped.warnings)
  }

  /// Maps the notes onto records of the profile and writes them into `path` (the destination
  /// itself), keeping the storage writer's all-or-nothing write, backup and verification.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    var storage = context.options[AppStorageOptions.self]
    // A deck of no profile's note type, written with the profile told automatically, takes the
    // profile the destination is made for, as reading the destination would.
    let fromDestination =
      storage.profile == .automatic && AppRecordMapping.profile(ofNoteTypesIn: collection) == nil
      ? AppStorageReader().destinationProfile(path: path, kind: kind, options: storage) : nil
    if let fromDestination { storage.profile = .named(fromDestination) }
    var mapped = try AppRecordMapping.records(from: collection, profile: storage.profile, file: path)
    if let dates = storage.jsonDates { mapped.records.jsonDates = dates }
    let options = AppWriteOptions(
      storage: storage, existing: context.existingOutput, dryRun: context.dryRun,
      matching: context.options[AppRecordMatching.self])
    var report = try AppStorageWriter().write(mapped.records, to: path, kind: kind, options: options)
    if let fromDestination { report.place += ", profile \(fromDestination.title), the destination's" }
    let written = try AppRecordMapping.collection(from: mapped.records, profile: storage.profile).collection
    return DeckWriteResult(written: written, warnings: mapped.warnings + report.warnings, details: report)
  }
}
