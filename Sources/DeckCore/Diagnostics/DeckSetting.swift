/// A setting a caller can change to get past an error or a warning: what a message means when
/// it says what to do, kept typed so that each front end names it in its own words (the
/// `deckport` command by its option, an app by its control), while ``libraryName`` names it as
/// the library spells it.
public enum DeckSetting: String, Sendable, Hashable, CaseIterable {
  /// Replace an output that exists (``ExistingFilePolicy/replace``, `ConversionOptions.replacing`).
  case replaceExisting
  /// Keep a copy of an output that exists before changing it (``ExistingFilePolicy/backup``,
  /// `ConversionOptions.backup`).
  case keepBackup
  /// Fail when anything could not be kept faithfully (`ConversionOptions.strict`).
  case strict
  /// The key that holds the records in a plist or a JSON object (`AppStorageOptions.key`).
  case recordKey
  /// Which app's profile types the records (`AppStorageOptions.profile`).
  case recordProfile
  /// The Core Data entity or SQLite record type (`AppStorageOptions.entity`).
  case recordEntity
  /// How records go under a new plist key (`AppStorageOptions.plistStyle`).
  case plistStyle
  /// What to do with a record the destination already holds (`AppRecordMatching.policy`).
  case existingRecords
  /// What each column of a CSV file holds (`CSVOptions.columns`).
  case csvColumns
  /// The note type of CSV rows that name none (`CSVOptions.noteType`).
  case csvNoteType
  /// The separator of a CSV file (`CSVOptions.separator`).
  case csvSeparator
  /// Whether a CSV file's first row names its columns (`CSVOptions.hasHeaderRow`).
  case csvHeaderRow
  /// Whether a CSV file's fields are HTML (`CSVOptions.isHTML`).
  case csvHTML
  /// What to do with notes that share a GUID when writing an Anki package (`DuplicateGUIDPolicy`).
  case duplicateGUIDs
  /// The format an input is read as, when neither its name nor its content is to decide
  /// (`ConversionOptions.from`, the `format` of `DeckLoader.load`).
  case inputFormat
  /// How an app's JSON file or plist stores dates (`AppStorageOptions.jsonDates`).
  case jsonDates

  /// The setting as the library spells it: `AppStorageOptions.key`, `CSVOptions.columns`; an
  /// existing output's, as the conversion and export calls take it (`replacing: true`) and as the
  /// app-storage calls do (`ExistingFilePolicy.replace`).
  public var libraryName: String {
    switch self {
    case .replaceExisting: "replacing: true (ExistingFilePolicy.replace)"
    case .keepBackup: "backup: true (ExistingFilePolicy.backup)"
    case .strict: "ConversionOptions.strict"
    case .recordKey: "AppStorageOptions.key"
    case .recordProfile: "AppStorageOptions.profile"
    case .recordEntity: "AppStorageOptions.entity"
    case .plistStyle: "AppStorageOptions.plistStyle"
    case .existingRecords: "AppRecordMatching.policy"
    case .csvColumns: "CSVOptions.columns"
    case .csvNoteType: "CSVOptions.noteType"
    case .csvSeparator: "CSVOptions.separator"
    case .csvHeaderRow: "CSVOptions.hasHeaderRow"
    case .csvHTML: "CSVOptions.isHTML"
    case .duplicateGUIDs: "DuplicateGUIDPolicy"
    case .inputFormat: "ConversionOptions.from (DeckLoader's format:)"
    case .jsonDates: "AppStorageOptions.jsonDates"
    }
  }
}
