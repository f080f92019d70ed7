/// A value Anki keeps that the model has no property of its own for, kept as its key and JSON
/// text so that writing to Anki gives it back as it was read.
///
/// Two kinds of things hold them:
///
/// * **The collection's own settings** (``DeckCollection/settings``): the members of the `col`
///   table's `conf` JSON in schema 11, the rows of the `config` table later. "Next day starts
///   at" (`rollover`), the learn-ahead limit (`collapseTime`), FSRS on or off (`fsrs`), the
///   browser's saved searches (`savedFilters`) and columns, the time zone the collection was
///   made in (`creationOffset`), …. Only a collection package carries them: Anki's deck import
///   ignores a deck package's, and deckport reads none from one (but for the date its due days
///   count from, which Anki's import takes from the package's `creationOffset`: a deck package's
///   ``DeckCollection/creationTime`` is read so that it dates them alike).
/// * **The rest of a deck, note type, field or template** (``Deck/ankiProperties``,
///   ``NoteType/ankiProperties``, ``NoteType/Field/ankiProperties``,
///   ``NoteType/CardTemplate/ankiProperties``), under the keys of Anki's schema-11 JSON: a deck's
///   collapse state (`collapsed`, `browserCollapsed`), the day's study counts (`newToday`,
///   `revToday`, `lrnToday`, `timeToday`), its own limits (`extendNew`, `reviewLimit`, …), a
///   note type's last deck (`did`), the sync state (`usn`), and any key a later Anki adds. A
///   value Anki gives a fresh deck or note type is not kept (a deck read with `collapsed` false
///   has no `collapsed` property).
public struct AnkiProperty: Sendable, Hashable {
  /// The key (`rollover`, `collapsed`).
  public var key: String
  /// Its value as compact JSON text (`4`, `true`, `[20000,3]`, `{"Due today":"prop:due=0"}`):
  /// the value as read, members in their order, a whole number kept apart from a fraction
  /// (`1.0` stays a fraction), without the spaces between its parts.
  public var jsonText: String

  /// Creates a property.
  public init(key: String, jsonText: String) {
    self.key = key
    self.jsonText = jsonText
  }
}
