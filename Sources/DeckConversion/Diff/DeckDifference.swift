import DeckCore

/// What changed from one deck to another, in any two formats: notes (matched by GUID, and
/// notes that share one in their order; where a format holds no note GUIDs, the rest by the text
/// of their non-empty fields) added, removed and changed field by field, note types,
/// decks and their option groups, tags, the scheduling of cards, the review log, media files,
/// deletion records, the collection's settings and list of tags, and what Anki keeps of decks
/// and note types besides, each compared only when both decks' formats can hold it.
///
/// ```swift
/// let loader = DeckLoader()
/// let difference = try DeckDifference(
///   from: loader.load(path: "backup.colpkg"), to: loader.load(path: "current.colpkg"))
/// if !difference.isEmpty { difference.lines.forEach { print(TerminalText.escaped($0)) } }
/// ```
///
/// Every list is sorted (notes and cards by GUID, the rest by name or id), so the same two decks
/// always give the same difference. Strings are exact; ``lines`` shortens long texts, and
/// ``jsonText()`` keeps them whole.
///
/// ## Topics
///
/// ### Comparing
/// - ``init(from:to:fromName:toName:ankiImportOptions:onlyDecks:onlyTags:timeZone:)``
/// - ``AnkiImportOptions``
/// - ``AnkiUpdateCondition``
///
/// ### Reading the result
/// - ``isEmpty``
/// - ``counts``
/// - ``notCompared``
/// - ``ankiImport``
///
/// ### Showing it
/// - ``lines``
/// - ``statLines``
/// - ``jsonText()``
/// - ``statJSONText()``
public struct DeckDifference: Sendable, Equatable, Encodable {
  /// One of the two decks compared.
  public struct Side: Sendable, Equatable, Codable {
    /// How the deck is named (its file), or empty.
    public var name: String
    /// The exact format it was read from, such as `apkg-latest`.
    public var format: String
    /// With `onlyDecks` or `onlyTags`: what of this deck was compared (the decks as it names
    /// them, the tags, and how much of it that is); nil when the whole deck was compared.
    public var selection: DeckSelection?
  }

  /// A part of the decks that was not compared, because one side's format cannot hold it.
  public struct NotCompared: Sendable, Equatable, Codable {
    /// The part left out.
    public var aspect: DeckAspect
    /// The formats (of either side) that cannot hold it.
    public var formats: [String]
    /// The rule in words: `scheduling: not compared (csv holds none)`.
    public var explanation: String
  }

  /// The deck compared from (the older one, as `diff A B` reads A).
  public var from: Side
  /// The deck compared to.
  public var to: Side
  /// The parts not compared, in ``DeckAspect`` order.
  public var notCompared: [NotCompared]
  /// Notes added, removed and changed.
  public var notes: NoteDifferences
  /// Note types added, removed and changed.
  public var noteTypes: NoteTypeDifferences
  /// Decks added, removed and renamed.
  public var decks: DeckDifferences
  /// Deck option groups added, removed and changed, and decks that use another group.
  public var deckOptions: DeckOptionsDifferences
  /// Tags that no note of `from` has and some note of `to` has (added), and the other way round.
  public var tags: ItemDifferences
  /// Cards whose scheduling changed, and cards added to or removed from notes both decks have.
  public var scheduling: SchedulingDifferences
  /// The collection's creation time (Anki's `crt`, in seconds since 1970: the day review cards'
  /// due dates count from) before and after, when it changed; compared with the scheduling.
  public var creationTime: Change<Int64>?
  /// Review log entries added and removed.
  public var reviews: ReviewDifferences
  /// Media files added, removed and changed.
  public var media: MediaDifferences
  /// Deletion records added and removed (`note 1700000000000 (usn -1)`).
  public var deletions: ItemDifferences
  /// The collection's settings added, removed and changed, by key.
  public var settings: PropertyDifferences
  /// Tags added to and removed from the collection's list of tags, and tags whose sync state or
  /// collapse state changed.
  public var tagRegistry: TagRegistryDifferences
  /// Anki's other properties of decks, note types, fields and templates (those both sides have)
  /// added, removed and changed, by owner and key.
  public var ankiProperties: PropertyDifferences
  /// What Anki's import of the `to` deck does to a collection holding the `from` deck, and which
  /// changes it does not take (with `onlyDecks` or `onlyTags`: the `to` deck's part exported
  /// alone, imported into a collection holding the whole `from` deck); nil when either format
  /// holds no note type ids, field names or modification times (CSV, CrowdAnki, app storage).
  public var ankiImport: AnkiImportPreview?

  /// Whether the decks are the same in everything compared.
  public var isEmpty: Bool { counts.isEmpty && creationTime == nil }

  /// How many things changed in each part.
  public var counts: Counts {
    Counts(
      notes: notes.count, noteTypes: noteTypes.count,
      decks: decks.count,
      deckOptions: deckOptions.count,
      tags: tags.count, cards: scheduling.count, reviews: reviews.count, media: media.count,
      deletions: deletions.count, settings: settings.count, tagRegistry: tagRegistry.count,
      ankiProperties: ankiProperties.count)
  }

  private enum CodingKeys: String, CodingKey {
    case from, to, notCompared, notes, noteTypes, decks, deckOptions, tags, scheduling, creationTime, reviews, media
    case deletions
    case settings, tagRegistry, ankiProperties, ankiImport, equal, counts
  }

  /// Encodes every part, plus `equal` (``isEmpty``) and ``counts``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(from, forKey: .from)
    try container.encode(to, forKey: .to)
    try container.encode(notCompared, forKey: .notCompared)
    try container.encode(notes, forKey: .notes)
    try container.encode(noteTypes, forKey: .noteTypes)
    try container.encode(decks, forKey: .decks)
    try container.encode(deckOptions, forKey: .deckOptions)
    try container.encode(tags, forKey: .tags)
    try container.encode(scheduling, forKey: .scheduling)
    try container.encodeIfPresent(creationTime, forKey: .creationTime)
    try container.encode(reviews, forKey: .reviews)
    try container.encode(media, forKey: .media)
    try container.encode(deletions, forKey: .deletions)
    try container.encode(settings, forKey: .settings)
    try container.encode(tagRegistry, forKey: .tagRegistry)
    try container.encode(ankiProperties, forKey: .ankiProperties)
    try container.encodeIfPresent(ankiImport, forKey: .ankiImport)
    try container.encode(isEmpty, forKey: .equal)
    try container.encode(counts, forKey: .counts)
  }
}

// MARK: - Counts

extension DeckDifference {
  /// How many things were added, removed and changed (renamed, for decks) in one part.
  public struct SectionCount: Sendable, Equatable, Codable {
    /// How many were added.
    public var added: Int
    /// How many were removed.
    public var removed: Int
    /// How many were changed (for decks: renamed).
    public var changed: Int

    /// Whether nothing was added, removed or changed.
    public var isEmpty: Bool { added == 0 && removed == 0 && changed == 0 }
  }

  /// The counts of every part.
  public struct Counts: Sendable, Equatable, Codable {
    /// Notes.
    public var notes: SectionCount
    /// Note types.
    public var noteTypes: SectionCount
    /// Decks (`changed` counts the decks renamed or changed).
    public var decks: SectionCount
    /// Deck option groups (`changed` counts the groups changed and the decks moved to another).
    public var deckOptions: SectionCount
    /// Tags over all notes.
    public var tags: SectionCount
    /// Cards of notes both decks have.
    public var cards: SectionCount
    /// Review log entries.
    public var reviews: SectionCount
    /// Media files.
    public var media: SectionCount
    /// Deletion records.
    public var deletions: SectionCount
    /// The collection's settings.
    public var settings: SectionCount
    /// The collection's list of tags.
    public var tagRegistry: SectionCount
    /// Anki's other properties of decks and note types.
    public var ankiProperties: SectionCount

    /// Whether every part is unchanged.
    public var isEmpty: Bool {
      [
        notes, noteTypes, decks, deckOptions, tags, cards, reviews, media, deletions, settings, tagRegistry,
        ankiProperties,
      ]
      .allSatisfy(\.isEmpty)
    }
  }
}

// MARK: - Parts

extension DeckDifference {
  /// A value before and after.
  public struct Change<Value: Sendable & Equatable & Codable>: Sendable, Equatable, Codable {
    /// The value in the `from` deck.
    public var old: Value
    /// The value in the `to` deck.
    public var new: Value
  }

  /// Entries added and removed in one part of the decks.
  public struct AddedRemoved<Entry: Sendable & Equatable & Codable>: Sendable, Equatable, Codable {
    /// Entries only the `to` side has.
    public var added: [Entry] = []
    /// Entries only the `from` side has.
    public var removed: [Entry] = []

    /// How many were added and removed.
    public var count: SectionCount { SectionCount(added: added.count, removed: removed.count, changed: 0) }
  }

  /// Entries added, removed and changed in one part of the decks.
  public struct AddedRemovedChanged<Entry: Sendable & Equatable & Codable, Changed: Sendable & Equatable & Codable>:
    Sendable, Equatable, Codable
  {
    /// Entries only the `to` side has.
    public var added: [Entry] = []
    /// Entries only the `from` side has.
    public var removed: [Entry] = []
    /// Entries both sides have that differ.
    public var changed: [Changed] = []

    /// How many were added, removed and changed.
    public var count: SectionCount {
      SectionCount(added: added.count, removed: removed.count, changed: changed.count)
    }
  }

  /// Names added and removed, sorted.
  public typealias ItemDifferences = AddedRemoved<String>

  /// Names added, removed and renamed (at the same position, another name) in a list such as a
  /// note type's fields or templates.
  public struct ListDifferences: Sendable, Equatable, Codable {
    /// Names only the `to` side has, in its order.
    public var added: [String] = []
    /// Names only the `from` side has, in its order.
    public var removed: [String] = []
    /// Items at the same position with another name.
    public var renamed: [Change<String>] = []

    /// Whether nothing was added, removed or renamed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && renamed.isEmpty }
  }

  /// A field's name and value.
  public struct FieldValue: Sendable, Equatable, Codable {
    /// The field's name (from the note's note type; `field N` when it has none).
    public var name: String
    /// The field's text, exact.
    public var value: String
  }

  /// A note only one side has.
  public struct NoteEntry: Sendable, Equatable, Codable {
    /// The note's GUID.
    public var guid: String
    /// Its note type's name.
    public var noteType: String
    /// Its fields, in order.
    public var fields: [FieldValue]
    /// Its tags.
    public var tags: [String]
  }

  /// A field whose text changed.
  public struct FieldChange: Sendable, Equatable, Codable {
    /// The field's name (in the `to` deck's note type).
    public var name: String
    /// The text in the `from` deck.
    public var old: String
    /// The text in the `to` deck.
    public var new: String
  }

  /// A note both sides have (same GUID; or, against a format that holds no GUIDs, the same
  /// text) that differs.
  public struct NoteChange: Sendable, Equatable, Codable {
    /// The note's GUID.
    public var guid: String
    /// Its note type's name in the `to` deck.
    public var noteType: String
    /// The note type's name before and after, when the note moved to another note type.
    public var noteTypeChange: Change<String>?
    /// The fields whose text changed: compared by position; for notes paired by their plain
    /// text, the fields that hold some, in order; for notes paired by their text, none.
    public var fields: [FieldChange]
    /// Tags the note has only in the `to` deck, sorted.
    public var tagsAdded: [String]
    /// Tags the note has only in the `from` deck, sorted.
    public var tagsRemoved: [String]
    /// Its modification time (seconds since 1970) before and after, when both formats hold one
    /// and it changed; Anki's import takes the change only when the new one is later.
    public var modified: Change<Int64>?
  }

  /// Notes added, removed and changed, each list sorted by GUID.
  public typealias NoteDifferences = AddedRemovedChanged<NoteEntry, NoteChange>

  /// A note type or deck by id and name.
  public struct NamedEntry: Sendable, Equatable, Codable {
    /// Its id in its deck (matched by it unless a format holds none).
    public var id: Int64
    /// Its name.
    public var name: String
  }

  /// A note type both sides have (same id, or same name) that differs.
  public struct NoteTypeChange: Sendable, Equatable, Codable {
    /// Its id in the `to` deck.
    public var id: Int64
    /// Its name in the `to` deck.
    public var name: String
    /// The name before and after, when it was renamed.
    public var rename: Change<String>?
    /// Fields added, removed and renamed.
    public var fields: ListDifferences
    /// Card templates added, removed and renamed.
    public var templates: ListDifferences
    /// Templates (by their name in the `to` deck) whose question or answer text changed.
    public var templateTextChanged: [String]
    /// Whether the CSS changed.
    public var cssChanged: Bool
    /// The note type's other settings that changed: `kind`, `sortField`, `latexPre`,
    /// `latexPost`, `latexSvg`, `originalStockKind`, `originalId`; a field's (`field 'Front'.font`, `.size`, `.rtl`, `.sticky`,
    /// `.description`, `.plainText`, `.collapsed`, `.excludeFromSearch`, `.tag`,
    /// `.preventDeletion`) and a template's (`template 'Card 1'.browserQuestion`,
    /// `.browserAnswer`, `.browserFont`, `.browserFontSize`, `.deck`), by the names in the `to`
    /// deck; values as JSON text. Compared when both formats hold them
    /// (``DeckAspect/details``).
    public var settings: [SettingChange]
  }

  /// Note types added, removed and changed (both have them and they differ).
  public typealias NoteTypeDifferences = AddedRemovedChanged<NamedEntry, NoteTypeChange>

  /// A deck renamed (same id, other name).
  public struct DeckRename: Sendable, Equatable, Codable {
    /// The deck's id.
    public var id: Int64
    /// Its name before.
    public var old: String
    /// Its name after.
    public var new: String
  }

  /// Decks added, removed and renamed.
  public struct DeckDifferences: Sendable, Equatable, Codable {
    /// Decks only the `to` side has.
    public var added: [NamedEntry] = []
    /// Decks only the `from` side has.
    public var removed: [NamedEntry] = []
    /// Decks both have under another name.
    public var renamed: [DeckRename] = []
    /// Decks both have whose description, or filtered-deck searches, changed.
    public var changed: [DeckChange] = []

    /// How many were added and removed; `changed` counts the decks renamed or changed.
    public var count: SectionCount {
      SectionCount(
        added: added.count, removed: removed.count, changed: Set(renamed.map(\.id) + changed.map(\.id)).count)
    }
  }

  /// A deck both sides have whose settings changed.
  public struct DeckChange: Sendable, Equatable, Codable {
    /// The deck's id in the `to` deck.
    public var id: Int64
    /// Its name in the `to` deck.
    public var name: String
    /// What changed: `description`, `descriptionIsMarkdown`, `kind` (`"normal"` or
    /// `"filtered"`), `filtered.reschedule`, `filtered.searchTerms` (an array of `search`,
    /// `limit`, `order`); values as JSON text.
    public var settings: [SettingChange]
  }

  /// A setting of an option group that differs: its key (a member of `new`, `rev` or `lapse` by
  /// its path, `new.perDay`) and its values as compact JSON text, nil on a side without it.
  public struct SettingChange: Sendable, Equatable, Codable {
    /// The key, or the path of a member of a sub-object (`new.delays`).
    public var key: String
    /// The value in the `from` deck, or nil when it has none.
    public var old: String?
    /// The value in the `to` deck, or nil when it has none.
    public var new: String?
  }

  /// An option group both sides have (same id, or same name) that differs.
  public struct DeckOptionsChange: Sendable, Equatable, Codable {
    /// Its id in the `to` deck.
    public var id: Int64
    /// Its name in the `to` deck.
    public var name: String
    /// The name before and after, when it was renamed.
    public var rename: Change<String>?
    /// The settings that differ (as Anki's schema-11 `dconf` entry has them, values compared by
    /// meaning), sorted by key.
    public var settings: [SettingChange]
  }

  /// A deck both sides have that uses another option group.
  public struct DeckOptionsMove: Sendable, Equatable, Codable {
    /// The deck's name in the `to` deck.
    public var deck: String
    /// The name of the group it used in the `from` deck.
    public var old: String
    /// The name of the group it uses in the `to` deck.
    public var new: String
  }

  /// Option groups added, removed and changed, and decks that use another group.
  public struct DeckOptionsDifferences: Sendable, Equatable, Codable {
    /// Groups only the `to` side has.
    public var added: [NamedEntry] = []
    /// Groups only the `from` side has.
    public var removed: [NamedEntry] = []
    /// Groups both sides have that differ, sorted by name.
    public var changed: [DeckOptionsChange] = []
    /// Decks that use another group, sorted by deck name.
    public var decksMoved: [DeckOptionsMove] = []

    /// How many were added and removed; `changed` counts the groups changed and the decks moved.
    public var count: SectionCount {
      SectionCount(added: added.count, removed: removed.count, changed: changed.count + decksMoved.count)
    }
  }

  /// A card by its note's GUID and its template's position.
  public struct CardEntry: Sendable, Equatable, Codable {
    /// The GUID of the card's note.
    public var guid: String
    /// The card's template position (for a cloze note, the cloze number minus one).
    public var ord: Int
  }

  /// A scheduling or review log value before and after, such as `interval`.
  ///
  /// A card's `due` (or, in a filtered deck, `odue`) that names a day is compared as the date
  /// it names: the day number counts from the collection's creation, so the same number can
  /// name two dates, and two numbers the same date. Such a change carries both dates.
  public struct ValueChange: Sendable, Equatable, Codable {
    /// The value's name: for a card `type`, `queue`, `due`, `interval`, `ease`, `reps`,
    /// `lapses`, `left` (learning steps left), `flags` or `odue` (the due date before a filtered
    /// deck); for a review `ease`, `interval`, `lastInterval`, `factor`, `time` or `type`.
    public var property: String
    /// The value in the `from` deck, as stored (for a card due on a day, the day number).
    public var old: Int64
    /// The value in the `to` deck, as stored.
    public var new: Int64
    /// The date `old` names, `YYYY-MM-DD` in the time zone compared in, when it is the day a
    /// card is due on (Anki's day number counted from the `from` collection's creation); nil
    /// for any other value.
    public var oldDate: String? = nil
    /// The date `new` names, counted from the `to` collection's creation; nil for any other
    /// value.
    public var newDate: String? = nil

    /// `due 2026-12-16 → 2026-12-17`, `interval 3 → 7`: the name and each side as its date
    /// where it names one, else as its number.
    var text: String {
      "\(property) \(oldDate ?? String(old)) → \(newDate ?? String(new))"
    }
  }

  /// A card whose scheduling changed.
  public struct CardChange: Sendable, Equatable, Codable {
    /// The GUID of the card's note.
    public var guid: String
    /// The card's template position.
    public var ord: Int
    /// The values that changed, in the order `type`, `queue`, `due`, `interval`, `ease`, `reps`,
    /// `lapses`, `left`, `flags`, `odue`.
    public var changes: [ValueChange]
    /// The card's deck before and after, when it moved to another deck.
    public var deck: Change<String>?
    /// The deck the card came from, while it sits in a filtered deck, before and after, when it
    /// changed (`(none)` outside a filtered deck).
    public var originalDeck: Change<String>?
    /// Anki's per-card data (FSRS memory state, custom data) before and after, when it changed
    /// in meaning (no data and `{}` are the same).
    public var data: Change<String>?
    /// What changed in ``data``, key by key, when both sides are JSON objects (no data counts as
    /// `{}`): the keys added, removed and changed, each with its value as compact JSON text and
    /// no owner; the members of an object inside, or of a string that is the text of one (Anki
    /// keeps the custom data `cd` so), by a dotted key (`cd.streak`). Nil when ``data`` is nil, a side is not a JSON object, or no key differs
    /// (texts that differ only in a key given twice).
    public var dataChanges: PropertyDifferences? = nil
  }

  /// Cards whose scheduling or deck changed, and cards added to or removed from notes both
  /// decks have (the cards of an added or removed note count with the note).
  public typealias SchedulingDifferences = AddedRemovedChanged<CardEntry, CardChange>

  /// A review log entry.
  public struct ReviewEntry: Sendable, Equatable, Codable {
    /// The entry's id: when the review happened, in milliseconds since 1970.
    public var id: Int64
    /// The GUID of the reviewed card's note, or empty when the card is not in the deck.
    public var guid: String
    /// The reviewed card's template position, or -1 when the card is not in the deck.
    public var ord: Int
    /// The answer button (1 Again … 4 Easy; 0 for a manual reschedule).
    public var ease: Int
  }

  /// A review log entry both sides have (same id) whose values or card differ.
  public struct ReviewChange: Sendable, Equatable, Codable {
    /// The entry's id.
    public var id: Int64
    /// The GUID of the reviewed card's note in the `to` deck, or empty.
    public var guid: String
    /// The reviewed card's template position in the `to` deck, or -1.
    public var ord: Int
    /// The values that changed, in the order `ease`, `interval`, `lastInterval`, `factor`,
    /// `time`, `type`.
    public var changes: [ValueChange]
    /// The reviewed card before and after (`card GUID #1`), when the entry names another card.
    public var card: Change<String>?
  }

  /// Review log entries added, removed and changed, matched by id.
  public typealias ReviewDifferences = AddedRemovedChanged<ReviewEntry, ReviewChange>

  /// A media file by name and content.
  public struct MediaEntry: Sendable, Equatable, Codable {
    /// The file's name.
    public var name: String
    /// The SHA-1 of its bytes, in hex.
    public var sha1: String
    /// Its size in bytes.
    public var size: Int64
  }

  /// Media files added, removed and changed, matched by name (in Unicode NFC, as Anki keeps
  /// names); a changed file has other bytes, or the same bytes under another name (a file only
  /// one side has under each name), the `from` file as `old`, the `to` file as `new`.
  public typealias MediaDifferences = AddedRemovedChanged<MediaEntry, Change<MediaEntry>>

  /// A collection setting, or a property of a deck, note type, field or template, with its
  /// value.
  public struct PropertyEntry: Sendable, Equatable, Codable {
    /// What the property belongs to: `deck 'Spanish'`, `note type 'Basic'`,
    /// `note type 'Basic', field 'Front'`, `note type 'Basic', template 'Card 1'` (named as in
    /// the `to` deck when both have it); nil for a collection setting.
    public var owner: String?
    /// The key (`rollover`, `collapsed`).
    public var key: String
    /// The value as compact JSON text.
    public var value: String
  }

  /// A setting or property both sides have with values that differ (values that mean the same
  /// to Anki, such as an object's members in another order, do not differ).
  public struct PropertyChange: Sendable, Equatable, Codable {
    /// What the property belongs to, as in ``PropertyEntry/owner``; nil for a setting.
    public var owner: String?
    /// The key.
    public var key: String
    /// The value in the `from` deck, as compact JSON text.
    public var old: String
    /// The value in the `to` deck.
    public var new: String
  }

  /// Settings or properties added, removed and changed, sorted by owner and key.
  public typealias PropertyDifferences = AddedRemovedChanged<PropertyEntry, PropertyChange>

  /// A tag of the collection's list of tags.
  public struct RegisteredTagEntry: Sendable, Equatable, Codable {
    /// The tag.
    public var name: String
    /// Its update sequence number (-1 while it waits to be synced).
    public var usn: Int64
    /// Whether it is collapsed in the browser, when its collection says.
    public var collapsed: Bool?
  }

  /// A tag both lists have whose state changed.
  public struct RegisteredTagChange: Sendable, Equatable, Codable {
    /// The tag.
    public var name: String
    /// Its update sequence number before and after, when it changed.
    public var usn: Change<Int64>?
    /// Whether it is collapsed, before and after, when it changed (compared only when both
    /// collections say; a schema-11 collection does not).
    public var collapsed: Change<Bool>?
  }

  /// Tags added to, removed from and changed in the collection's list of tags, sorted by name.
  public typealias TagRegistryDifferences = AddedRemovedChanged<RegisteredTagEntry, RegisteredTagChange>
}
