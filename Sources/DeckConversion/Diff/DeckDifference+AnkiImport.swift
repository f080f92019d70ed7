import DeckCore

extension DeckDifference {
  /// What Anki's import of the `to` deck, as a deck package, does to a collection that holds the
  /// `from` deck, with the options of Anki's import dialog (notes and note types updated only
  /// when the package's are modified later; note types not merged), and which of the `to`
  /// deck's changes it therefore does not take. Checked against the real Anki backend:
  ///
  /// * A note of the `to` deck whose GUID the collection lacks is added.
  /// * A note the collection has under another note type id, or whose note type Anki imports as
  ///   a new one, is skipped as *conflicting*.
  /// * Otherwise the note is updated (fields and tags) when the `to` deck's note was modified
  ///   later, changed or not, and kept as the collection has it when not (Anki's *duplicate*).
  /// * A note type the collection has under the same id is imported as a new note type when its
  ///   fields or templates differ in number or order (each position compared by its Anki id where
  ///   both sides have one, by its name where not); otherwise it is updated when modified later.
  /// * The cards of notes the collection has keep their scheduling and deck: Anki imports
  ///   scheduling only with the cards it adds.
  public struct AnkiImportPreview: Sendable, Equatable, Codable {
    /// How many notes of the `to` deck Anki adds, updates, keeps and skips.
    public var counts: AnkiImportCounts
    /// Notes the collection has whose change Anki does not take: their fields or tags changed
    /// but they were not modified later, or they moved to another note type. Sorted by GUID.
    public var notesNotTaken: [NoteNotTaken]
    /// Note types whose change Anki does not take, or that it imports as new note types (the
    /// collection's notes of them then conflict). Sorted by name, then id.
    public var noteTypesNotTaken: [NoteTypeNotTaken]
    /// Cards of notes the collection has whose scheduling or deck changed: they keep the
    /// collection's.
    public var cardsNotTaken: Int
  }

  /// How many notes of the `to` deck Anki's import adds, updates, keeps and skips: the counts of
  /// its own import log (`new`, `updated`, `duplicate`, `conflicting`).
  public struct AnkiImportCounts: Sendable, Equatable, Codable {
    /// Notes the collection does not have (by GUID).
    public var new: Int
    /// Notes the collection has that the `to` deck modified later.
    public var updated: Int
    /// Notes the collection has that the `to` deck did not modify later (Anki's "duplicate").
    public var kept: Int
    /// Notes the collection has under another note type (Anki's "conflicting").
    public var conflicting: Int
  }

  /// A note whose change Anki's import does not take.
  public struct NoteNotTaken: Sendable, Equatable, Codable {
    /// Why.
    public enum Reason: String, Sendable, Equatable, Codable {
      /// Its fields or tags changed, but its modification time is not later.
      case notNewer = "not-newer"
      /// It uses another note type (by id) in the `to` deck.
      case noteTypeChanged = "note-type-changed"
    }

    /// The note's GUID.
    public var guid: String
    /// Its note type's name in the `to` deck.
    public var noteType: String
    /// Why Anki does not take the change.
    public var reason: Reason
    /// Its modification time (seconds since 1970) in the `from` and the `to` deck.
    public var modified: Change<Int64>
  }

  /// A note type whose change Anki's import does not take, or that it imports as a new one.
  public struct NoteTypeNotTaken: Sendable, Equatable, Codable {
    /// Why.
    public enum Reason: String, Sendable, Equatable, Codable {
      /// It changed (templates, styling, names, settings), but its modification time is not later.
      case notNewer = "not-newer"
      /// Its fields or templates differ in number, order or Anki id: Anki adds it as a new note
      /// type, and the collection's notes of it conflict.
      case layoutChanged = "layout-changed"
    }

    /// Its id.
    public var id: Int64
    /// Its name in the `to` deck.
    public var name: String
    /// Why Anki does not take the change.
    public var reason: Reason
    /// Its modification time (seconds since 1970) in the `from` and the `to` deck.
    public var modified: Change<Int64>
    /// How many notes the collection has that the `to` deck holds under this note type and Anki
    /// skips as conflicting (for ``Reason/layoutChanged``; 0 otherwise).
    public var conflictingNotes: Int
  }
}
