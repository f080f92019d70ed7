import Foundation

/// A deck option group ("preset"): daily limits, learning steps, intervals.
///
/// deckport keeps the settings exactly as the source stored them, so every setting survives a
/// round trip through formats that do not interpret them.
public struct DeckOptions: Sendable, Equatable, Identifiable {
  /// The option group's id (1 is "Default").
  public var id: Int64
  /// The option group's name.
  public var name: String
  /// Last modification, in seconds since 1970.
  public var modificationTime: Int64
  /// The settings, in the encoding of the collection they came from.
  public var settings: Settings
  /// What Anki keeps of the group outside its settings, under its schema-11 key: the sync
  /// state (`usn`) of a group read from a schema-18 collection, which keeps it in its own
  /// column (a schema-11 group keeps it in its JSON text). Laid over the settings when written
  /// to Anki; a value a new group has (`usn` 0) is not kept.
  public var ankiProperties: [AnkiProperty]

  /// The settings of an option group as stored by Anki.
  public enum Settings: Sendable, Equatable {
    /// The JSON object text of a schema-11 `dconf` entry.
    case anki11JSON(String)
    /// The protobuf `DeckConfig.Config` blob of a schema-18 `deck_config` row.
    case anki18Protobuf(Data)
  }

  /// Creates an option group.
  public init(
    id: Int64, name: String, modificationTime: Int64 = 0, settings: Settings, ankiProperties: [AnkiProperty] = []
  ) {
    self.id = id
    self.name = name
    self.modificationTime = modificationTime
    self.settings = settings
    self.ankiProperties = ankiProperties
  }
}
