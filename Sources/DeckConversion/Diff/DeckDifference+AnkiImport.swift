import DeckCore

extension DeckDifference {
  /// What Anki's import of the `to` deck, as a deck package, does to a collection that holds the
  /// `from` deck, with the update choices of ``AnkiImportOptions`` (by default those of Anki's
  /// import dialog: notes and note types updated only when the package's are modified later,
  /// note types not merged), and which of the `to` deck's changes it therefore does not take.
  /// Checked against the real Anki backend:
  ///
  /// * A note of the `to` deck whose GUID the collection lacks is added.
  /// * A note the collection has under another note type id, or whose note type Anki imports as
  ///   a new one, is skipped as *conflicting*.
  /// * Otherwise the note is updated (fields and tags) when its modification times meet
  ///   ``AnkiImportOptions/updateNotes``, changed or not, and kept as the collection has it when
  ///   not (Anki's *duplicate*).
  /// * A note type the collection has under the same id is imported as a new note type when its
  ///   fields or templates differ in number or order (each position compared by its Anki id where
  ///   both sides have one, by its name where not), unless the collection holds a copy of it an
  ///   earlier import made with those fields and templates (`Vocab+`, its `originalId` that id):
  ///   Anki then takes the copy (``NoteTypeNotTaken/Reason/copyReused``). Otherwise it is updated
  ///   when its modification times meet ``AnkiImportOptions/updateNoteTypes``.
  /// * The cards of notes the collection has keep their scheduling and deck: Anki imports
  ///   scheduling only with the cards it adds.
  /// * A card of the `to` deck that a note the collection has lacks (same GUID and template
  ///   position) is added, whether Anki updates the note or keeps it as it is; only a
  ///   conflicting note's cards are left out.
  /// * With note types merged (``AnkiImportOptions/mergeNoteTypes``) nothing conflicts: a note
  ///   type whose fields changed is merged with the collection's, a moved note is moved and its
  ///   two note types merged, and the notes of a note type whose fields the merge changes are
  ///   rewritten as Anki imports (``NoteTypeMerge``). A note type whose kind (cloze or standard)
  ///   differs makes Anki refuse the whole import: the counts are then all 0. Merged note types
  ///   whose notes Anki renamed by an earlier import without merging (`Basic+`) are not modelled.
  /// * A note type Anki takes (updated, or merged and updated) whose sort field position is
  ///   another than the collection's (merging too: Anki keeps the position, not the field, of the
  ///   `to` deck's sort field) makes Anki rewrite every note of it the collection holds before it
  ///   reads their modification times, which become the import's (``SortFieldRewrite``).
  /// * Notes that share a GUID: each note of the `to` deck is matched with the collection's last
  ///   note of its GUID (by id), and judged against that note's note type and modification time,
  ///   each on its own; the notes of a GUID the collection lacks are all added. Where several of
  ///   them update that note, the last (by id) wins, and the others that differ from it are named
  ///   (``NoteNotTaken/Reason/overwritten``).
  ///
  /// The collection is taken to hold the `from` deck's modification times, as one restored from
  /// it does. A note type that Anki renamed when it first imported it (`Basic+`, because the
  /// collection had a `Basic` of its own) carries the time of that import instead (seen with the
  /// backend), so a change made before then is not newer for that collection.
  public struct AnkiImportPreview: Sendable, Equatable, Codable {
    /// The update choices the preview follows.
    public var options: AnkiImportOptions
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
    /// Cards the `to` deck adds to notes the collection has (not conflicting ones), as the
    /// scheduling comparison lists them (0 when a format holds no scheduling).
    public var cardsAdded: Int
    /// Of ``cardsAdded``, those added to notes Anki keeps as the collection has them: their
    /// fields may not make the card (Anki adds it even so, and it shows empty).
    public var cardsAddedToKeptNotes: Int
    /// With note types merged (``AnkiImportOptions/mergeNoteTypes``): the collection's note
    /// types whose fields the merge changes, sorted by name, then id; empty otherwise.
    public var noteTypesMerged: [NoteTypeMerge]
    /// The collection's note types whose sort field Anki's import changes, rewriting their
    /// notes (not those a merge of their fields rewrites already), sorted by name, then id.
    public var noteTypesResorted: [SortFieldRewrite]
  }

  /// A note type of the collection whose sort field Anki's import changes: it takes the `to`
  /// deck's note type (its modification time meets ``AnkiImportOptions/updateNoteTypes``; merging,
  /// under ``AnkiUpdateCondition/always`` even at the same time), and that one sorts by another
  /// field. Anki then rewrites every note of it the collection holds before it reads their
  /// modification times, which become the import's (checked with the backend): the `to` deck's
  /// versions of them are not later, and Anki keeps the collection's unless notes are updated
  /// ``AnkiUpdateCondition/always`` (then it updates them all, the times differing).
  public struct SortFieldRewrite: Sendable, Equatable, Codable {
    /// Its id.
    public var id: Int64
    /// Its name in the `to` deck.
    public var name: String
    /// The name of the field it sorts by in the collection, and after the import (merging, the
    /// merged field at the position the `to` deck's sorts by).
    public var sortField: Change<String>
    /// How many notes of it the collection holds, which Anki rewrites.
    public var notesRewritten: Int
  }

  /// A note type of the collection that Anki's merge of note types (`merge_notetypes`, checked
  /// against the real backend) changes, or whose notes it empties a field of. The fields of the
  /// collection's and the `to` deck's note type of that id (or, for a note the `to` deck moves to
  /// another note type, of its old and its new one) are joined, each matched by Anki id where
  /// both have one and by name where not. Where that changes the collection's fields, Anki
  /// rewrites the collection's notes of it as it imports. For a note type of the same id, it does
  /// so before it reads their modification times, which become the import's: the `to` deck's
  /// versions of them are then not later, and Anki keeps the collection's unless notes are
  /// updated ``AnkiUpdateCondition/always``.
  public struct NoteTypeMerge: Sendable, Equatable, Codable {
    /// Its id.
    public var id: Int64
    /// Its name in the `to` deck (the collection's, when the `to` deck lacks it).
    public var name: String
    /// Its fields after the merge, in order.
    public var fields: [String]
    /// How many notes of it the collection holds that the merge rewrites (notes moved to it
    /// included); 0 when the merge keeps its fields and moves no note to it.
    public var notesRewritten: Int
    /// Fields the collection's note type has and the `to` deck's lacks: a note Anki updates from
    /// the `to` deck has nothing for them, and loses its text there.
    public var fieldsMissingFromPackage: [String]
    /// How many notes Anki updates that have text in those fields, which the update empties.
    public var notesLosingText: Int
    /// How many of the collection's notes the merge of a moved note's note types rewrites so that
    /// their text stands under other fields than before, and that Anki does not update afterwards
    /// (checked with the backend: merging a moved note's old note type into its new one, Anki
    /// rewrites the new one's notes by the positions of the old one's fields, so their text moves
    /// to the fields merged in, `Front+`, and the fields their templates show are left empty).
    public var notesWithTextMoved: Int = 0
  }

  /// How many notes of the `to` deck Anki's import adds, updates, keeps and skips: the counts of
  /// its own import log (`new`, `updated`, `duplicate`, `conflicting`).
  public struct AnkiImportCounts: Sendable, Equatable, Codable {
    /// Notes the collection does not have (by GUID).
    public var new: Int
    /// Notes the collection has whose modification times meet the update condition (by default:
    /// the `to` deck modified them later).
    public var updated: Int
    /// Notes the collection has whose modification times do not meet it (Anki's "duplicate").
    public var kept: Int
    /// Notes the collection has under another note type (Anki's "conflicting").
    public var conflicting: Int
  }

  /// A note whose change Anki's import does not take.
  public struct NoteNotTaken: Sendable, Equatable, Codable {
    /// Why.
    public enum Reason: String, Sendable, Equatable, Codable {
      /// Its fields or tags changed, but its modification time is not later (notes updated
      /// ``AnkiUpdateCondition/ifNewer``).
      case notNewer = "not-newer"
      /// Its fields or tags changed, but its modification time is the same (notes updated
      /// ``AnkiUpdateCondition/always``, which Anki takes as "when the time differs").
      case sameModificationTime = "same-time"
      /// Its fields or tags changed, and notes are updated ``AnkiUpdateCondition/never``.
      case updatesOff = "updates-off"
      /// It uses another note type (by id) in the `to` deck: Anki skips it as conflicting (note
      /// types not merged).
      case noteTypeChanged = "note-type-changed"
      /// Its fields or tags changed, but with note types merged, Anki's merge of its note type
      /// rewrites the collection's note during the import, which makes the collection's the later
      /// one (notes updated ``AnkiUpdateCondition/ifNewer``; see ``NoteTypeMerge``).
      case rewrittenByMerge = "merge-rewritten"
      /// Its fields or tags changed, but Anki takes its note type's new sort field, which rewrites
      /// the collection's note during the import and makes the collection's the later one (notes
      /// updated ``AnkiUpdateCondition/ifNewer``; see ``SortFieldRewrite``).
      case rewrittenBySortField = "sort-field-rewritten"
      /// Anki updates the collection's note with it, then again with a later note of the `to`
      /// deck (by id) that shares its GUID and differs from it: the collection's note ends with
      /// that one's fields and tags (checked with the backend, which matches every note of a GUID
      /// with the same collection note and logs each as updated).
      case overwritten
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
      /// It changed (templates, styling, names, settings), but its modification time is not later
      /// (note types updated ``AnkiUpdateCondition/ifNewer``).
      case notNewer = "not-newer"
      /// It changed, but its modification time is the same (note types updated
      /// ``AnkiUpdateCondition/always``).
      case sameModificationTime = "same-time"
      /// It changed, and note types are updated ``AnkiUpdateCondition/never``.
      case updatesOff = "updates-off"
      /// Its fields or templates differ in number, order or Anki id: Anki adds it as a new note
      /// type, and the collection's notes of it conflict (note types not merged).
      case layoutChanged = "layout-changed"
      /// It is a cloze note type on one side and a standard one on the other, or the `to` deck
      /// moves a note between two such note types: with note types merged, Anki refuses the
      /// whole import.
      case kindChanged = "kind-changed"
      /// Its fields or templates differ from the collection's note type of its id, but the
      /// collection holds a copy of it that an earlier import made (``NoteTypeNotTaken/reusedCopy``,
      /// its `originalId` this id, its fields and templates the `to` deck's): Anki takes that copy
      /// as this note type, updating the collection's notes of the copy as the update choices
      /// say, and skips the collection's notes of this id as conflicting (note types not merged;
      /// checked with the backend).
      case copyReused = "copy-reused"
    }

    /// A note type of the collection, by id and name.
    public struct Reference: Sendable, Equatable, Codable {
      /// Its id.
      public var id: Int64
      /// Its name.
      public var name: String

      /// A note type by id and name.
      public init(id: Int64, name: String) {
        self.id = id
        self.name = name
      }
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
    /// skips as conflicting (for ``Reason/layoutChanged`` and ``Reason/copyReused``; 0 otherwise).
    public var conflictingNotes: Int
    /// For ``Reason/copyReused``: the collection's copy Anki takes as this note type; nil otherwise.
    public var reusedCopy: Reference?

    /// A note type whose change Anki's import does not take.
    public init(
      id: Int64, name: String, reason: Reason, modified: Change<Int64>, conflictingNotes: Int,
      reusedCopy: Reference? = nil
    ) {
      self.id = id
      self.name = name
      self.reason = reason
      self.modified = modified
      self.conflictingNotes = conflictingNotes
      self.reusedCopy = reusedCopy
    }
  }

  /// The choices of Anki's import dialog that decide what an import takes of the notes and note
  /// types a collection has (`ImportAnkiPackageOptions.update_notes`, `update_notetypes` and
  /// `merge_notetypes`).
  public struct AnkiImportOptions: Sendable, Equatable, Codable {
    /// When a note the collection has (by GUID, under the same note type) is updated.
    public var updateNotes: AnkiUpdateCondition
    /// When a note type the collection has (by id, with the same fields and templates) is updated.
    public var updateNoteTypes: AnkiUpdateCondition
    /// Whether note types are merged ("Merge note types"): a note type whose fields or templates
    /// changed is merged with the collection's instead of added as a new one, and a note moved to
    /// another note type is moved in the collection too, its two note types merged, instead of
    /// skipped (``NoteTypeMerge``).
    public var mergeNoteTypes: Bool

    /// Update choices; by default the import dialog's (if newer, both; note types not merged).
    public init(
      updateNotes: AnkiUpdateCondition = .ifNewer, updateNoteTypes: AnkiUpdateCondition = .ifNewer,
      mergeNoteTypes: Bool = false
    ) {
      self.updateNotes = updateNotes
      self.updateNoteTypes = updateNoteTypes
      self.mergeNoteTypes = mergeNoteTypes
    }
  }

  /// When Anki's import updates something the collection has, by the modification times of the
  /// collection's version (`old`) and the package's (`new`).
  public enum AnkiUpdateCondition: String, Sendable, Equatable, Codable, CaseIterable {
    /// When the package's was modified later (the import dialog's default).
    case ifNewer = "if-newer"
    /// When the two modification times differ, later or earlier: the backend does not update a
    /// note or note type whose time is the same, whatever changed (checked with it).
    case always
    /// Never.
    case never

    /// Whether Anki updates the collection's version, modified at `modified.old`, with the
    /// package's, modified at `modified.new`.
    public func updates(_ modified: Change<Int64>) -> Bool {
      switch self {
      case .ifNewer: modified.new > modified.old
      case .always: modified.new != modified.old
      case .never: false
      }
    }

    /// Whether Anki, merging note types, takes the package's version of a note type (merged
    /// with the collection's) rather than the collection's: under ``always`` even at the same
    /// modification time.
    func takesWhenMerging(_ modified: Change<Int64>) -> Bool {
      self == .always || updates(modified)
    }
  }
}

/// The reasons a note's or a note type's change is not taken when an update condition refuses it
/// (``DeckDifference/AnkiUpdateCondition/refusal()``).
protocol UpdateRefusal {
  static var notNewer: Self { get }
  static var sameModificationTime: Self { get }
  static var updatesOff: Self { get }
}

extension DeckDifference.NoteNotTaken.Reason: UpdateRefusal {}
extension DeckDifference.NoteTypeNotTaken.Reason: UpdateRefusal {}

extension DeckDifference.AnkiUpdateCondition {
  /// Why a changed note or note type is kept when this condition does not update it.
  func refusal<Reason: UpdateRefusal>() -> Reason {
    switch self {
    case .ifNewer: .notNewer
    case .always: .sameModificationTime
    case .never: .updatesOff
    }
  }
}
