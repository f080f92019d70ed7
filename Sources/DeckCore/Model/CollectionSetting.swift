/// One of a collection's own settings, as Anki keeps it (a member of the `col` table's `conf`
/// JSON in schema 11, a row of the `config` table later): "Next day starts at" (`rollover`), the
/// learn-ahead limit (`collapseTime`), FSRS on or off (`fsrs`), the browser's saved searches
/// (`savedFilters`) and columns, the time zone the collection was made in (`creationOffset`), ….
///
/// Only a collection package carries them: Anki's deck import ignores a deck package's, and
/// deckport reads none from one.
public struct CollectionSetting: Sendable, Hashable {
  /// The setting's name (`rollover`).
  public var key: String
  /// Its value as compact JSON text (`4`, `true`, `{"Due today":"prop:due=0"}`): the value as
  /// read, members in their order and numbers as written, without the spaces between its parts.
  public var jsonText: String

  /// Creates a setting.
  public init(key: String, jsonText: String) {
    self.key = key
    self.jsonText = jsonText
  }
}
