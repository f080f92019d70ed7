/// A part of a deck that some formats cannot hold (``FormatDescription/holds``). `DeckDifference`
/// compares a part only when the formats of both decks hold it, and names the parts it left out,
/// so that a CSV file, which has no scheduling, does not look like a deck whose scheduling was
/// all removed.
///
/// Notes (matched by GUID) and their fields are held by every format and always compared.
public enum DeckAspect: String, Sendable, Equatable, Hashable, Codable, CodingKeyRepresentable, CaseIterable {
  /// The tags of notes.
  case tags
  /// Note types: their names, fields and template names. (App storage makes its note type up
  /// from the record profile.)
  case noteTypes
  /// The names of note types' fields. (CSV and TSV hold them only for Anki's stock note types;
  /// the reader names the fields of any other `Field 1`, `Field 2`, ….)
  case fieldNames
  /// The text of card templates and the note types' CSS.
  case templates
  /// The decks.
  case decks
  /// Deck option groups (presets: daily limits, learning steps, FSRS), and which group each
  /// deck uses.
  case deckOptions
  /// A deck's description and a filtered deck's searches; a note type's kind, sort field and
  /// LaTeX, its fields' editor settings (font, size, sticky, …) and its templates' browser
  /// appearance and deck override.
  case details
  /// Deck and note type ids; without them decks and note types are matched by name only, so a
  /// rename shows as one removed and one added.
  case identities
  /// The GUIDs of notes, by which Anki's import finds the note it updates. App storage holds
  /// none of Anki's (a record's note gets a GUID derived from its values): against a format
  /// that holds them, notes that match by GUID are compared as always, and the rest are paired
  /// by their fields' text, so a note that came through unchanged is not shown as removed and
  /// added again, and one whose text changed is.
  case noteGUIDs
  /// The scheduling state of cards (type, queue, due, interval, ease, reviews, lapses), and
  /// which cards a note has.
  case scheduling
  /// The review log.
  case reviews
  /// Media files.
  case media
  /// Deletion records (Anki's `graves`: notes, cards and decks deleted since the collection
  /// last synced).
  case deletions
  /// The collection's own settings (``DeckCollection/settings``: Anki's `config` table, or the
  /// `col` row's `conf` in schema 11), which only collection packages and the JSON deck hold.
  case settings
  /// The collection's list of tags (``DeckCollection/tagRegistry``), with each tag's sync state
  /// and, where both sides say, whether it is collapsed.
  case tagRegistry
  /// What Anki keeps of decks, note types, fields and templates beyond the model's own
  /// properties (``Deck/ankiProperties``: collapse state, the day's study counts, sync state, …).
  case ankiProperties
  /// When notes and note types were last modified. Anki's import updates a note or note type a
  /// collection has only when the package's is modified later, so `DeckDifference` tells from
  /// them what that import would take (CSV and CrowdAnki hold none: their reader gives every note
  /// the file's modification time).
  case modificationTimes
  /// Note types and media files no note uses, and decks no card uses (a deck package leaves
  /// the first out, as Anki's deck export does, and holds Anki's empty `Default` deck).
  case unusedItems

  /// How the aspect is named in text: `scheduling`, `card templates and styling`, ….
  public var title: String {
    switch self {
    case .tags: "tags"
    case .noteTypes: "note types"
    case .fieldNames: "field names of note types"
    case .templates: "card templates and styling"
    case .decks: "decks"
    case .deckOptions: "deck option groups"
    case .details: "deck descriptions and note type settings"
    case .identities: "deck and note type ids"
    case .noteGUIDs: "note GUIDs"
    case .scheduling: "scheduling"
    case .reviews: "review log"
    case .media: "media"
    case .deletions: "deletion records"
    case .settings: "collection settings"
    case .tagRegistry: "the collection's list of tags"
    case .ankiProperties: "Anki's other properties of decks and note types"
    case .modificationTimes: "modification times of notes and note types"
    case .unusedItems: "note types, media and decks nothing uses"
    }
  }
}
