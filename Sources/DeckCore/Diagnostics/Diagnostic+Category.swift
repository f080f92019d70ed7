extension Diagnostic {
  /// What kind of loss or change a ``Diagnostic`` is: a short, stable tag such as `csv-padded` or
  /// `media-renamed`, the word in brackets in `warning: [csv-padded] …`.
  ///
  /// Every category DeckKit emits is a static constant here, so an app can match the ones it
  /// cares about without spelling them; a string literal is a category too, for a category of
  /// the app's own or a comparison that reads as the warning does:
  ///
  /// ```swift
  /// let padded = report.warnings.filter { $0.category == .csvPadded }
  /// let renamed = report.warnings.filter { $0.category == "media-renamed" }
  /// ```
  ///
  /// A category is its ``rawValue`` wherever it is shown: in the text of a warning, and in JSON,
  /// where it is encoded as that one string.
  public struct Category: RawRepresentable, Sendable, Hashable, Comparable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    /// The tag, as warnings show it (`csv-padded`).
    public var rawValue: String

    /// The category `rawValue` names.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// The category a string literal names (`"csv-padded"`).
    public init(stringLiteral value: String) {
      self.init(rawValue: value)
    }

    /// The tag, ``rawValue``.
    public var description: String { rawValue }

    /// Orders categories by their tags.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }
}

/// The categories DeckKit emits, one constant each, named after the tag (`csv-padded` is
/// ``csvPadded``).
extension Diagnostic.Category {
  /// `anki-properties-dropped`: what Anki keeps of note types, decks or option groups besides their content
  /// (ids, sync states) has no place in the output format.
  public static let ankiPropertiesDropped: Self = "anki-properties-dropped"

  /// `anki-property-invalid`: a property of a note type, deck or option group is not valid for Anki and is
  /// left out of the package.
  public static let ankiPropertyInvalid: Self = "anki-property-invalid"

  /// `boolean-not-0-or-1`: a Core Data Boolean attribute holds a number other than 0 or 1; it is read as
  /// true.
  public static let booleanNot0Or1: Self = "boolean-not-0-or-1"

  /// `card-data-changed`: cards have data beside their schedule that Anki's import of a deck package changes.
  public static let cardDataChanged: Self = "card-data-changed"

  /// `card-flags`: the flags of cards are not kept: a CrowdAnki folder holds no cards.
  public static let cardFlags: Self = "card-flags"

  /// `card-rendering`: a card shows Anki's message instead of its template (a blank front, a missing cloze, a
  /// template error).
  public static let cardRendering: Self = "card-rendering"

  /// `cards-added`: cards the deck does not hold will be made by the importer from the notes' fields.
  public static let cardsAdded: Self = "cards-added"

  /// `cards-dropped`: cards are not kept: the output holds notes, and its importer makes their cards itself.
  public static let cardsDropped: Self = "cards-dropped"

  /// `cards-text`: Cards in Plain Text holds each card's rendered sides only; everything else is not kept.
  public static let cardsText: Self = "cards-text"

  /// `column-missing`: a Core Data model stores a property in a column the table lacks; it is not read.
  public static let columnMissing: Self = "column-missing"

  /// `column-unclaimed`: a Core Data table has columns no property of the model claims; they are not read.
  public static let columnUnclaimed: Self = "column-unclaimed"

  /// `columns-unread`: an SQLite table has columns deckport's metadata does not list; they are not read.
  public static let columnsUnread: Self = "columns-unread"

  /// `crowdanki-anki-id`: a CrowdAnki object gives an Anki id that is not valid or repeats another's; it gets
  /// an id derived from its UUID.
  public static let crowdAnkiAnkiID: Self = "crowdanki-anki-id"

  /// `crowdanki-deck-config-missing`: a CrowdAnki deck uses an option group the file does not hold; it gets
  /// the default options.
  public static let crowdAnkiDeckConfigMissing: Self = "crowdanki-deck-config-missing"

  /// `crowdanki-filtered-deck`: a CrowdAnki deck is marked as filtered but holds no search; it is read as a
  /// normal deck.
  public static let crowdAnkiFilteredDeck: Self = "crowdanki-filtered-deck"

  /// `crowdanki-import-config`: CrowdAnki's import choices (personal fields, tags to add, moving cards) are
  /// not read.
  public static let crowdAnkiImportConfig: Self = "crowdanki-import-config"

  /// `crowdanki-keys-not-kept`: keys of a CrowdAnki object that deckport's model has no place for are not
  /// kept.
  public static let crowdAnkiKeysNotKept: Self = "crowdanki-keys-not-kept"

  /// `crowdanki-note-data`: a CrowdAnki note's data text is not kept (Anki does not use it).
  public static let crowdAnkiNoteData: Self = "crowdanki-note-data"

  /// `crowdanki-note-flags`: a CrowdAnki note's flags are not kept (Anki does not use them).
  public static let crowdAnkiNoteFlags: Self = "crowdanki-note-flags"

  /// `csv-cards`: cards a CSV cannot name: not kept, or made anew by Anki's CSV importer from the fields.
  public static let csvCards: Self = "csv-cards"

  /// `csv-carriage-return`: fields hold carriage returns, which Anki's CSV importer removes.
  public static let csvCarriageReturn: Self = "csv-carriage-return"

  /// `csv-columns`: a CSV's columns cannot hold something of the notes (their note types' fields, GUIDs).
  public static let csvColumns: Self = "csv-columns"

  /// `csv-comment-rows`: lines where a CSV row would start begin with `#`; Anki's importer skips them.
  public static let csvCommentRows: Self = "csv-comment-rows"

  /// `csv-deck`: a note's deck as a CSV row can name it: cards in several decks, or no deck at all.
  public static let csvDeck: Self = "csv-deck"

  /// `csv-deck-id`: a CSV deck cell is a number, which Anki's importer takes for a deck's id, not its name.
  public static let csvDeckID: Self = "csv-deck-id"

  /// `csv-directive`: a CSV header line (`#separator:`, `#html:`, …) is one Anki ignores or reads otherwise.
  public static let csvDirective: Self = "csv-directive"

  /// `csv-dropped`: nothing in the CSV names the note type, so rows are read as the default note type's
  /// notes, and cells in columns no field takes are left out.
  public static let csvDropped: Self = "csv-dropped"

  /// `csv-empty-first-field`: notes have an empty first field, which Anki's CSV importer skips.
  public static let csvEmptyFirstField: Self = "csv-empty-first-field"

  /// `csv-guid`: CSV rows repeat the GUID of an earlier row; they get GUIDs of their own.
  public static let csvGUID: Self = "csv-guid"

  /// `csv-header-row`: a row names columns, but the CSV's `#` header lines leave no place for a row of column
  /// names.
  public static let csvHeaderRow: Self = "csv-header-row"

  /// `csv-html-late`: CSV rows hold HTML that the file's first rows gave no sign of, so they are read as
  /// plain text.
  public static let csvHTMLLate: Self = "csv-html-late"

  /// `csv-line-ends`: a CSV header line ends with a carriage return alone, which Anki's importer does not
  /// take for a line end.
  public static let csvLineEnds: Self = "csv-line-ends"

  /// `csv-media`: media files are not kept: a CSV holds no file bytes (the fields still name them).
  public static let csvMedia: Self = "csv-media"

  /// `csv-no-guid`: a CSV from Anki's export without unique identifiers: its notes get GUIDs derived from
  /// their content.
  public static let csvNoGUID: Self = "csv-no-guid"

  /// `csv-note-type`: note types as a CSV holds them: their names only, without fields, templates or styling.
  public static let csvNoteType: Self = "csv-note-type"

  /// `csv-padded`: CSV rows have fewer fields than their note type; they are padded with empty fields.
  public static let csvPadded: Self = "csv-padded"

  /// `csv-plain-text`: notes written as plain text (`html false`) lose their formatting.
  public static let csvPlainText: Self = "csv-plain-text"

  /// `csv-reviews`: the review log is not kept: a CSV holds no review history.
  public static let csvReviews: Self = "csv-reviews"

  /// `csv-scheduling`: scheduling a CSV cannot hold (positions of new cards, schedules) is not kept.
  public static let csvScheduling: Self = "csv-scheduling"

  /// `csv-separator`: a CSV's separator is not the one its extension suggests, or one Anki does not know.
  public static let csvSeparator: Self = "csv-separator"

  /// `csv-skipped`: CSV rows with an empty first field are skipped, as Anki's importer skips them.
  public static let csvSkipped: Self = "csv-skipped"

  /// `csv-unmapped`: no CSV column holds some fields of a note type; they stay empty.
  public static let csvUnmapped: Self = "csv-unmapped"

  /// `date-fraction-dropped`: dates are written without their fraction of a second, as the file's date
  /// encoding holds them.
  public static let dateFractionDropped: Self = "date-fraction-dropped"

  /// `date-precision`: a record's date has more than millisecond precision, which a note's time cannot hold.
  public static let datePrecision: Self = "date-precision"

  /// `date-unreadable`: records have a date key that names no date.
  public static let dateUnreadable: Self = "date-unreadable"

  /// `dates-mixed`: an app's dates do not share one encoding; all are read as one of them.
  public static let datesMixed: Self = "dates-mixed"

  /// `deck-added`: a deck's parent deck is missing; it is added, as Anki's Check Database adds it.
  public static let deckAdded: Self = "deck-added"

  /// `deck-dropped`: a deck is not written (a filtered deck, or an empty deck outside the folder's top deck).
  public static let deckDropped: Self = "deck-dropped"

  /// `deck-options-changed`: an option group's settings change to fit the output format's range.
  public static let deckOptionsChanged: Self = "deck-options-changed"

  /// `deck-options-ignored`: an option group's settings that Anki's import of an .apkg does not take.
  public static let deckOptionsIgnored: Self = "deck-options-ignored"

  /// `deck-options-incomplete`: an option group lacks settings Anki requires; Anki's defaults are written.
  public static let deckOptionsIncomplete: Self = "deck-options-incomplete"

  /// `deck-options-missing`: a deck uses an option group the collection does not define; it is given another.
  public static let deckOptionsMissing: Self = "deck-options-missing"

  /// `deck-options-unmapped`: a setting of an option group is unknown to the legacy format and is left out.
  public static let deckOptionsUnmapped: Self = "deck-options-unmapped"

  /// `deck-options-unused`: no written deck uses an option group; an .apkg carries only the groups its decks
  /// use.
  public static let deckOptionsUnused: Self = "deck-options-unused"

  /// `deck-renamed`: a deck's name changes: made valid as Anki stores names, or told apart from another.
  public static let deckRenamed: Self = "deck-renamed"

  /// `deck-root-added`: cards sit under several top-level decks, but a CrowdAnki folder holds one; a top deck
  /// is added.
  public static let deckRootAdded: Self = "deck-root-added"

  /// `deck-unused`: a deck holds no cards and is no parent of one; an .apkg carries only decks that hold
  /// cards.
  public static let deckUnused: Self = "deck-unused"

  /// `decks-dropped`: the cards' decks have no place in the records; a deck made from them puts every note in
  /// one deck.
  public static let decksDropped: Self = "decks-dropped"

  /// `decks-merged`: two decks have the same name ignoring case; Anki's import makes one deck of them.
  public static let decksMerged: Self = "decks-merged"

  /// `default-value`: a record lacks a value the Core Data model requires; it gets the model's default.
  public static let defaultValue: Self = "default-value"

  /// `deletions-dropped`: deletion records (Anki's graves) are not kept: the output format has no place for
  /// them.
  public static let deletionsDropped: Self = "deletions-dropped"

  /// `deletions-ignored`: deletion records are kept in the package, but Anki's import ignores them.
  public static let deletionsIgnored: Self = "deletions-ignored"

  /// `derived-not-written`: records give a derived Core Data attribute a value the store computes itself; it
  /// is not written.
  public static let derivedNotWritten: Self = "derived-not-written"

  /// `entity-not-kept`: records of a Core Data entity are not copied: the destination model has no such
  /// entity.
  public static let entityNotKept: Self = "entity-not-kept"

  /// `field-changed`: a field's text changes to what Anki stores (a NUL or field-separator character
  /// removed).
  public static let fieldChanged: Self = "field-changed"

  /// `field-count`: a note's number of fields differs from its note type's.
  public static let fieldCount: Self = "field-count"

  /// `field-dropped`: a field has no place in the app's records and is left out.
  public static let fieldDropped: Self = "field-dropped"

  /// `field-renamed`: two fields of a note type in a legacy package have names Anki takes for one;
  /// Anki renames the later one (`+` added) as it opens the collection, and so does the reader.
  public static let fieldRenamed: Self = "field-renamed"

  /// `format-from-content`: the input's content shows another format than its name; it is read as its content
  /// shows.
  public static let formatFromContent: Self = "format-from-content"

  /// `formatting-dropped`: notes had HTML formatting, which plain app text cannot keep.
  public static let formattingDropped: Self = "formatting-dropped"

  /// `future-id`: ids (Anki's creation times) lie more than a day in the future.
  public static let futureID: Self = "future-id"

  /// `future-time`: modification or review times lie in the future.
  public static let futureTime: Self = "future-time"

  /// `generated-uuid`: a record lacks a UUID; it gets one derived from its content.
  public static let generatedUUID: Self = "generated-uuid"

  /// `guid-duplicate`: a note has the GUID of another note, which Anki matches notes by.
  public static let guidDuplicate: Self = "guid-duplicate"

  /// `guid-empty`: a note's GUID is empty, so Anki cannot tell it from other notes without one.
  public static let guidEmpty: Self = "guid-empty"

  /// `id-not-uuid`: a record's id is no UUID, which the app needs; it is replaced.
  public static let idNotUUID: Self = "id-not-uuid"

  /// `id-repeated`: a note's GUID is the UUID of another note's GUID in another case.
  public static let idRepeated: Self = "id-repeated"

  /// `identity-repeated`: records share the keys that identify them.
  public static let identityRepeated: Self = "identity-repeated"

  /// `invalid-utf8`: text is not valid UTF-8; each invalid byte sequence is read as U+FFFD.
  public static let invalidUTF8: Self = "invalid-utf8"

  /// `key-renamed`: a record key is not a valid Anki field name; its note field is named otherwise.
  public static let keyRenamed: Self = "key-renamed"

  /// `media-dropped`: media files are not kept: the output has no place for them.
  public static let mediaDropped: Self = "media-dropped"

  /// `media-duplicate`: a media file is listed twice, or written under a name another already has; one copy
  /// is left out.
  public static let mediaDuplicate: Self = "media-duplicate"

  /// `media-missing`: a media file is listed or referred to but absent.
  public static let mediaMissing: Self = "media-missing"

  /// `media-renamed`: a media file is renamed (with every reference to it), as Anki renames it on import.
  public static let mediaRenamed: Self = "media-renamed"

  /// `media-skipped`: a file in a media folder is skipped (a link, or not a regular file).
  public static let mediaSkipped: Self = "media-skipped"

  /// `media-unused`: nothing refers to a media file; Anki's import leaves it out.
  public static let mediaUnused: Self = "media-unused"

  /// `model-cache`: a Core Data store's model cache does not decode; names and types come from its columns.
  public static let modelCache: Self = "model-cache"

  /// `model-entity-missing`: a Core Data store's model cache lacks an entity; its properties are named after
  /// its columns.
  public static let modelEntityMissing: Self = "model-entity-missing"

  /// `modification-time`: notes given a modification time in the future get the present time instead.
  public static let modificationTime: Self = "modification-time"

  /// `modification-times-dropped`: modification times are not kept: the output format has no place for them.
  public static let modificationTimesDropped: Self = "modification-times-dropped"

  /// `note-decks-merged`: a CrowdAnki note appears in several decks; it is read as one note.
  public static let noteDecksMerged: Self = "note-decks-merged"

  /// `note-decks-split`: notes have cards in several decks, but a CrowdAnki folder puts each note in one
  /// deck.
  public static let noteDecksSplit: Self = "note-decks-split"

  /// `note-skipped`: notes of note types the app does not take are left out.
  public static let noteSkipped: Self = "note-skipped"

  /// `note-type-unused`: no note uses a note type; an .apkg carries only the note types its notes use.
  public static let noteTypeUnused: Self = "note-type-unused"

  /// `note-type-renamed`: a note type's name changes as Anki changes it (NFC), or Anki may tell it
  /// apart from another of the same name (`_` added) as it opens a legacy package; a package
  /// writer writes it so.
  public static let noteTypeRenamed: Self = "note-type-renamed"

  /// `note-types-dropped`: note types' templates, styling or field settings have no place in app records.
  public static let noteTypesDropped: Self = "note-types-dropped"

  /// `note-types-merged`: notes of several note types become records of one type.
  public static let noteTypesMerged: Self = "note-types-merged"

  /// `note-without-cards`: a note has no cards; Anki's import of a package does not make them.
  public static let noteWithoutCards: Self = "note-without-cards"

  /// `option-groups-dropped`: option groups no deck uses are not written.
  public static let optionGroupsDropped: Self = "option-groups-dropped"

  /// `orphan-card`: a card belongs to a note that does not exist.
  public static let orphanCard: Self = "orphan-card"

  /// `placeholder-collection`: a package holds the placeholder collection modern Anki adds for old versions;
  /// the real one is read.
  public static let placeholderCollection: Self = "placeholder-collection"

  /// `plist-size`: a plist is larger than UserDefaults stores reliably.
  public static let plistSize: Self = "plist-size"

  /// `records-unlike`: the records written share no key with those the file holds.
  public static let recordsUnlike: Self = "records-unlike"

  /// `records-without-keys`: records hold no keys, so no note is made of them.
  public static let recordsWithoutKeys: Self = "records-without-keys"

  /// `relationship-dropped`: a Core Data relationship's link is dropped: its destination is not written.
  public static let relationshipDropped: Self = "relationship-dropped"

  /// `relationship-missing`: a Core Data relationship's storage is missing from the store; it is not read.
  public static let relationshipMissing: Self = "relationship-missing"

  /// `relationship-moved`: a Core Data to-one relationship's target moves from another row to this one.
  public static let relationshipMoved: Self = "relationship-moved"

  /// `required-link-empty`: a Core Data relationship the model requires is left empty.
  public static let requiredLinkEmpty: Self = "required-link-empty"

  /// `review-log`: the review log is not kept: a CrowdAnki folder holds none.
  public static let reviewLog: Self = "review-log"

  /// `reviews-unused`: review-log entries belong to cards the collection does not hold; an .apkg leaves them
  /// out.
  public static let reviewsUnused: Self = "reviews-unused"

  /// `rows-of-no-entity`: rows of a Core Data table belong to no entity of the store; they are not read.
  public static let rowsOfNoEntity: Self = "rows-of-no-entity"

  /// `scheduler-unknown`: which scheduler kept the collection cannot be told; its scheduling is kept as
  /// stored.
  public static let schedulerUnknown: Self = "scheduler-unknown"

  /// `scheduler-v1-upgraded`: the collection was kept by Anki's v1 scheduler; its scheduling is upgraded as
  /// Anki upgrades it.
  public static let schedulerV1Upgraded: Self = "scheduler-v1-upgraded"

  /// `scheduling`: scheduling is not kept: a CrowdAnki folder holds none.
  public static let scheduling: Self = "scheduling"

  /// `scheduling-dropped`: scheduling and reviews are not kept: the app records hold none.
  public static let schedulingDropped: Self = "scheduling-dropped"

  /// `setting-changed`: a collection setting is written with another value (the next new card's position).
  public static let settingChanged: Self = "setting-changed"

  /// `setting-invalid`: a collection setting's value is not JSON text and is left out.
  public static let settingInvalid: Self = "setting-invalid"

  /// `setting-unreadable`: a collection setting (or all of them) cannot be read and is not kept.
  public static let settingUnreadable: Self = "setting-unreadable"

  /// `settings-dropped`: the collection's settings are not kept: the output holds none.
  public static let settingsDropped: Self = "settings-dropped"

  /// `tag-changed`: a tag changes to what Anki stores (spaces and control characters are separators).
  public static let tagChanged: Self = "tag-changed"

  /// `tag-collapse-dropped`: whether tags are expanded in the browser's sidebar is not kept.
  public static let tagCollapseDropped: Self = "tag-collapse-dropped"

  /// `tag-registry-dropped`: the collection's list of tags (sync states, collapsed) is not kept.
  public static let tagRegistryDropped: Self = "tag-registry-dropped"

  /// `tag-registry-unreadable`: the collection's list of tags, or a tag in it, cannot be read and is not
  /// kept.
  public static let tagRegistryUnreadable: Self = "tag-registry-unreadable"

  /// `tags-dropped`: notes have tags, which the app records cannot hold.
  public static let tagsDropped: Self = "tags-dropped"

  /// `template-deck-override`: a card template puts new cards into a deck by its Anki id, which a CrowdAnki
  /// folder does not keep.
  public static let templateDeckOverride: Self = "template-deck-override"

  /// `template-refused`: a card template is one Anki's note type API refuses.
  public static let templateRefused: Self = "template-refused"

  /// `template-renamed`: two card templates of a note type in a legacy package have names Anki takes
  /// for one; Anki renames the later one (`+` added) as it opens the collection, and so does the
  /// reader.
  public static let templateRenamed: Self = "template-renamed"

  /// `type-changed`: values change type to fit the app's records.
  public static let typeChanged: Self = "type-changed"

  /// `type-to-text`: values of a type other than text become note text.
  public static let typeToText: Self = "type-to-text"

  /// `unknown-deck`: a card is in a deck the collection does not define.
  public static let unknownDeck: Self = "unknown-deck"

  /// `unknown-key`: a key of a JSON deck is not one deckport's format has there; what it holds is not read.
  public static let unknownKey: Self = "unknown-key"

  /// `unknown-note-type`: a note uses a note type the collection does not define.
  public static let unknownNoteType: Self = "unknown-note-type"

  /// `value-clamped`: a value lies outside the range Anki accepts and is brought into it.
  public static let valueClamped: Self = "value-clamped"

  /// `word-type-mapped`: text that names none of an app's choices (Flashcard Quiz's word types) becomes one
  /// of them.
  public static let wordTypeMapped: Self = "word-type-mapped"
}
