/// Which profile records are read with.
public enum AppProfileChoice: Sendable, Hashable {
  /// The built-in profile the records fit, if any (see `detect(in:)`).
  case automatic
  /// No profile: values keep the types the storage gives them.
  case generic
  /// This profile; reading fails when the records do not fit it.
  case named(AppRecordProfile)
}

/// Where in a storage file records are read or written, and how.
public struct AppStorageOptions: Sendable, Hashable {
  /// The plist key (or the key of a JSON file's top-level object); nil finds the one key that
  /// holds records, and writing a new plist then uses `Cards`.
  public var key: String?
  /// The record type of a deckport SQLite file or the entity of a Core Data store; nil takes the
  /// only one (or, when writing, the profile's record type, else the records' name).
  public var entity: String?
  /// Which profile types the records.
  public var profile: AppProfileChoice
  /// How records are stored under a new plist key (an existing key keeps its form).
  public var plistStyle: PlistRecordStyle
  /// The date encoding of JSON-stored records, when it is not to be guessed from the values.
  public var jsonDates: JSONDateEncoding?
  /// Whether ``key`` is only for storage that has keys: a file whose top value is the array of
  /// records is then read whole instead of refused (a migration's `--key` names the key of
  /// whichever side has one).
  var keyOnlyWhereKeyed = false

  /// Creates options.
  public init(
    key: String? = nil, entity: String? = nil, profile: AppProfileChoice = .automatic,
    plistStyle: PlistRecordStyle = .json, jsonDates: JSONDateEncoding? = nil
  ) {
    self.key = key
    self.entity = entity
    self.profile = profile
    self.plistStyle = plistStyle
    self.jsonDates = jsonDates
  }

  /// The key a new plist gets when none is named.
  public static let defaultPlistKey = "Cards"
}
