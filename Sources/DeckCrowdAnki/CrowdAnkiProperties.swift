import DeckCore

/// What a CrowdAnki folder keeps of what Anki keeps of decks and note types besides their content
/// (their ``AnkiProperty`` values). CrowdAnki's export writes every member of Anki's deck and note
/// type objects but a few, and its import hands them back to Anki (`decks.save`, `models.update`),
/// so a deck's own limits (`extendNew`, `newLimit`, ...), a note model's last-used `tags` and any
/// member a later Anki adds travel in the folder; the members below do not.
enum CrowdAnkiProperties {
  /// Deck members CrowdAnki's export leaves out: the sync state, the day's study counts and
  /// whether the deck is collapsed (`id`, `mod` and `conf` too, which the model holds). Also
  /// `mid`, the note type last used in the deck, which older exports wrote: it names a note type
  /// by an Anki id, which a folder does not keep.
  static let deckKeysLeftOut: Set<String> = [
    "usn", "newToday", "revToday", "lrnToday", "timeToday", "collapsed", "browserCollapsed", "mid",
  ]
  /// The members of a folder's `Deck` objects that hold the model's own deck or make the
  /// folder's tree, which no property can take.
  static let folderDeckKeys: Set<String> = [
    "__type__", "children", "crowdanki_uuid", "deck_config_uuid", "deck_configurations", "desc", "md", "dyn",
    "media_files", "name", "note_models", "notes",
  ]
  /// Note model members CrowdAnki's export leaves out: the sync state and `did`, the deck last
  /// used with it, which names a deck by an Anki id; and `__type__`, the folder's own.
  static let noteTypeKeysLeftOut: Set<String> = ["usn", "did", "__type__"]
  /// The member of a note model or an option group in which deckport keeps its Anki id, which
  /// CrowdAnki's export leaves out (and which its import must not be given as `id`: Anki's note
  /// type API stops on a new note type that has one). Anki's import of a package matches note
  /// types and option groups by id, so a package made from the folder needs the ids the
  /// collection has: otherwise the collection's notes of a note type are skipped as conflicting,
  /// and each option group arrives as a second one. CrowdAnki's import hands the member to Anki
  /// with the rest of the object, which keeps it; the writer writes the current id over whatever
  /// an object carries.
  static let ankiIDKey = "deckport_anki_id"

  /// Whether a folder keeps a deck's member or property `key` (see the type's description).
  static func keepsDeckMember(_ key: String) -> Bool {
    !deckKeysLeftOut.contains(key) && !folderDeckKeys.contains(key)
  }

  /// What a folder leaves out, in words: the warning's examples, and what the format description
  /// says it cannot hold.
  static let leftOutExamples = "whether a deck is collapsed, the day's study counts and the sync state"

  /// `collection` with the properties a folder keeps: those of decks and note types but for the
  /// members left out, and all those of fields and templates. Option groups keep none (their
  /// settings are written whole), nor does the collection keep its settings, list of tags or
  /// deletion records.
  static func kept(_ collection: DeckCollection) -> DeckCollection {
    var result = collection.withoutAnkiOnlyData()
    for index in result.decks.indices {
      result.decks[index].ankiProperties = collection.decks[index].ankiProperties.filter { keepsDeckMember($0.key) }
    }
    for index in result.noteTypes.indices {
      let source = collection.noteTypes[index]
      result.noteTypes[index].ankiProperties = source.ankiProperties.filter { !noteTypeKeysLeftOut.contains($0.key) }
      for field in source.fields.indices {
        result.noteTypes[index].fields[field].ankiProperties = source.fields[field].ankiProperties
      }
      for template in source.templates.indices {
        result.noteTypes[index].templates[template].ankiProperties = source.templates[template].ankiProperties
      }
    }
    return result
  }

  /// `collection` with only what a folder does not keep of what only Anki has a place for (see
  /// ``kept(_:)``), for the writer's warnings.
  static func leftOut(_ collection: DeckCollection) -> DeckCollection {
    var result = collection
    for index in result.decks.indices {
      result.decks[index].ankiProperties.removeAll { keepsDeckMember($0.key) }
    }
    for index in result.noteTypes.indices {
      result.noteTypes[index].ankiProperties.removeAll { !noteTypeKeysLeftOut.contains($0.key) }
      for field in result.noteTypes[index].fields.indices { result.noteTypes[index].fields[field].ankiProperties = [] }
      for template in result.noteTypes[index].templates.indices {
        result.noteTypes[index].templates[template].ankiProperties = []
      }
    }
    return result
  }
}
