import DeckCore
import JSONCore

/// What a package carries besides notes and cards: which note types, decks, option groups and
/// review-log entries.
///
/// A `.colpkg` is a whole collection and carries everything, plus the parent decks Anki needs
/// and would otherwise have to repair (a deck `A::B` without a deck `A` is missing from Anki's
/// deck list until Check Database adds `A`); each added parent is reported. Its notes, cards and
/// reviews with ids in the future get new ones (``FutureIDs``). An `.apkg` carries what Anki's own
/// exporter puts in one and its importer takes from one (`rslib/src/import_export/gather.rs`):
/// the note types the notes use, the decks the cards are in (and were in, for cards in filtered
/// decks) with their parent decks, the option groups those decks use, and the reviews of the
/// written cards. Anything else would be ignored by Anki on import, so it is left out with a
/// warning naming it. The "Default" deck (id 1) and option group 1 are always written: every
/// collection has them, and Anki's importer requires option group 1. The collection's settings
/// are left out too, with a warning (a deck package's are never read back, by Anki or deckport);
/// its deletion records are kept, as a deck package read holds them, with a warning that Anki's
/// import ignores them (only its restore of a collection package takes them). Either kind leaves out a
/// deck's, note type's, field's or template's ``AnkiProperty`` that the writer cannot write
/// (``withWritableProperties(_:location:log:)``).
enum PackageSelection {
  static func selected(
    _ collection: DeckCollection, kind: AnkiPackageKind, location: SourceLocation,
    log: inout DiagnosticLog
  ) -> DeckCollection {
    let collection = withWritableProperties(collection, location: location, log: &log)
    guard kind == .apkg else {
      let expanded = collection.tagRegistry.filter { $0.isCollapsed == false }.count
      if expanded > 0 {
        log.report(
          .tagCollapseDropped, at: location.table("col"),
          "\(expanded) tag\(expanded == 1 ? " is" : "s are") expanded in the browser's sidebar; a collection deckport writes lists its tags as schema 11 does, without that state, so Anki shows \(expanded == 1 ? "it" : "them") collapsed"
        )
      }
      var result = withParentDecks(collection, location: location, log: &log)
      result = withDefaultDeck(result)
      result = FutureIDs.renumbered(result, location: location, log: &log)
      result.settings = kept(
        collection.settings, where: { Schema11Properties.value(of: $0) != nil }, log: &log,
        otherwise: .settingInvalid, at: { location.table("col").item("setting '\($0.key)'") },
        "the setting's value is not JSON text, so it is left out")
      reportRaisedNextPosition(of: result, location: location, log: &log)
      return result
    }
    var result = collection

    let usedNoteTypes = Set(collection.notes.map(\.noteTypeID))
    result.noteTypes = kept(
      collection.noteTypes, where: { usedNoteTypes.contains($0.id) }, log: &log,
      otherwise: .noteTypeUnused, at: { location.item(CollectionValidation.label($0)) },
      "no note uses this note type; an .apkg carries only the note types its notes use (Anki would not import it), so it is left out"
    )

    var usedDeckIDs = Set(collection.cards.map(\.deckID))
    usedDeckIDs.formUnion(collection.cards.map(\.scheduling.originalDeckID).filter { $0 != 0 })
    var keptNames = Set<String>()
    for deck in collection.decks where usedDeckIDs.contains(deck.id) {
      var levels = deck.nameComponents
      while !levels.isEmpty {
        keptNames.insert(CollectionValidation.uniqueKey(levels.joined(separator: Deck.levelSeparator)))
        levels.removeLast()
      }
    }
    result.decks = kept(
      collection.decks,
      where: { deck in
        deck.id == 1 || usedDeckIDs.contains(deck.id) || keptNames.contains(CollectionValidation.uniqueKey(deck.name))
      }, log: &log,
      otherwise: .deckUnused, at: { location.item("deck '\($0.name)' (id \($0.id))") },
      "the deck holds no cards and is no parent of a deck that does; an .apkg carries only those (Anki would not import it), so it is left out"
    )

    var usedOptions: Set<Int64> = [1]
    for deck in result.decks {
      if case .normal(let optionsID) = deck.kind { usedOptions.insert(optionsID) }
    }
    result.deckOptions = kept(
      collection.deckOptions, where: { usedOptions.contains($0.id) }, log: &log,
      otherwise: .deckOptionsUnused, at: { location.item(DeckOptionsConversion.label($0)) },
      "no written deck uses this option group; an .apkg carries only the groups its decks use (Anki would not import it), so it is left out"
    )

    var cardIDs = IDSet(collection.cards.map(\.id))
    result.reviews = collection.reviews.filter { cardIDs.contains($0.cardID) }
    let dropped = collection.reviews.count - result.reviews.count
    if dropped > 0 {
      log.report(
        .reviewsUnused, at: location.table("revlog"),
        "\(dropped) review-log entr\(dropped == 1 ? "y belongs" : "ies belong") to cards the collection does not hold; an .apkg carries only the reviews of its cards, so \(dropped == 1 ? "it is" : "they are") left out"
      )
    }
    if !collection.tagRegistry.isEmpty {
      result.tagRegistry = []
      let count = collection.tagRegistry.count
      log.report(
        .tagRegistryDropped, at: location.table("col"),
        "the collection's list of \(CountedNoun.phrase(count, "tag")) (with each one's sync state and whether it is collapsed in the browser) is not kept: an .apkg holds none (Anki's import lists the notes' tags itself); write a collection package (.colpkg) to keep it"
      )
    }
    if !collection.settings.isEmpty {
      result.settings = []
      let count = collection.settings.count
      log.report(
        .settingsDropped, at: location.table("col"),
        "the collection's \(count) setting\(count == 1 ? " is" : "s are") not kept: an .apkg holds no collection settings (Anki's import ignores them); write a collection package (.colpkg) to keep them"
      )
    }
    if !collection.deletions.isEmpty {
      let count = collection.deletions.count
      log.report(
        .deletionsIgnored, at: location.table("graves"),
        "\(count) deletion record\(count == 1 ? " is" : "s are") kept in the package (notes, cards or decks deleted since the collection last synced, which Anki sends at its next sync), but Anki's import of an .apkg ignores them; write a collection package (.colpkg) for Anki to take them"
      )
    }
    return result
  }

  /// A `setting-changed` warning when the collection's `nextPos` setting (the position Anki gives
  /// the next card added) is not past every new card's position: a collection package is written
  /// with one that is (``Schema11JSON/withSettings(_:_:deckIDs:lastUnburiedDay:)``), so that the cards Anki adds
  /// come after the new cards it holds.
  private static func reportRaisedNextPosition(
    of collection: DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) {
    guard let setting = collection.settings.last(where: { $0.key == "nextPos" }),
      let value = Schema11Properties.value(of: setting)
    else { return }
    let next = CollectionWriter.nextPosition(of: collection)
    guard (value.int64 ?? .min) < next else { return }
    // Past 1, `next` is one past a new card's position (``CollectionWriter/nextPosition(after:)``).
    let reason =
      value.int64 == nil
      ? "is \(value.text), not a whole number"
      : next > 1
        ? "is \(value.text), but a new card already has position \(next - 1)"
        : "is \(value.text), and positions start at 1"
    log.report(
      .settingChanged, at: location.table("col").item("setting 'nextPos'"),
      "the position Anki gives the next card added \(reason); it is written as \(next), so that the cards Anki adds come after every new card (Anki's restore of the original keeps its value)"
    )
  }

  /// `collection` without the properties of its decks, note types, fields and templates that
  /// the writer cannot lay over what it writes (``Schema11Properties/isWritable(_:of:)``): a
  /// key the writer writes from the model itself (a deck's `name`), or a value that is not JSON
  /// text. Each one left out is reported as `anki-property-invalid`.
  static func withWritableProperties(
    _ collection: DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) -> DeckCollection {
    /// `properties` without those the writer cannot write; `ownerName` names what they belong to.
    func writable(_ properties: [AnkiProperty], of owner: Schema11Properties.Owner, _ ownerName: String)
      -> [AnkiProperty]
    {
      properties.filter { property in
        if Schema11Properties.isWritable(property, of: owner) { return true }
        let reason =
          Schema11Properties.ownedKeys(of: owner).contains(property.key)
          ? "deckport writes '\(property.key)' from the model's own data" : "its value is not JSON text"
        log.report(
          .ankiPropertyInvalid, at: location.item("\(ownerName), property '\(property.key)'"),
          "\(reason), so the property is left out")
        return false
      }
    }
    var result = collection
    for index in result.decks.indices where !result.decks[index].ankiProperties.isEmpty {
      let deck = result.decks[index]
      result.decks[index].ankiProperties = writable(
        deck.ankiProperties, of: Schema11Properties.owner(of: deck.kind), "deck '\(deck.name)' (id \(deck.id))")
    }
    for index in result.noteTypes.indices {
      let noteType = result.noteTypes[index]
      let label = CollectionValidation.label(noteType)
      result.noteTypes[index].ankiProperties = writable(noteType.ankiProperties, of: .noteType, label)
      for (fieldIndex, field) in noteType.fields.enumerated() where !field.ankiProperties.isEmpty {
        result.noteTypes[index].fields[fieldIndex].ankiProperties = writable(
          field.ankiProperties, of: .field, "\(label), field '\(field.name)'")
      }
      for (templateIndex, template) in noteType.templates.enumerated() where !template.ankiProperties.isEmpty {
        result.noteTypes[index].templates[templateIndex].ankiProperties = writable(
          template.ankiProperties, of: .template, "\(label), template '\(template.name)'")
      }
    }
    for index in result.deckOptions.indices where !result.deckOptions[index].ankiProperties.isEmpty {
      let options = result.deckOptions[index]
      result.deckOptions[index].ankiProperties = writable(
        options.ankiProperties, of: .optionGroup, DeckOptionsConversion.label(options))
    }
    return result
  }

  /// The elements of `items` that `isKept` accepts; each other one is reported as `category` at
  /// the place `place` gives, with `message`.
  private static func kept<Item>(
    _ items: [Item], where isKept: (Item) -> Bool, log: inout DiagnosticLog,
    otherwise category: Diagnostic.Category, at place: (Item) -> SourceLocation, _ message: String
  ) -> [Item] {
    items.filter { item in
      if isKept(item) { return true }
      log.report(category, at: place(item), message)
      return false
    }
  }

  /// `collection` with a deck added for every parent level that no deck names (compared as
  /// Anki compares names, ignoring case), with the next free id and option group 1. Anki's
  /// package import adds such parents itself; a restored collection needs them present.
  static func withParentDecks(
    _ collection: DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) -> DeckCollection {
    var result = collection
    var names = Set(collection.decks.map { CollectionValidation.uniqueKey($0.name) })
    var takenIDs = Set(collection.decks.map(\.id))
    var nextID = freeID(after: collection.decks.map(\.id).max() ?? 1, taken: takenIDs)
    for deck in collection.decks {
      var levels = deck.nameComponents.dropLast()
      var missing: [String] = []
      while !levels.isEmpty {
        let name = levels.joined(separator: Deck.levelSeparator)
        if names.insert(CollectionValidation.uniqueKey(name)).inserted { missing.append(name) }
        levels = levels.dropLast()
      }
      for name in missing.reversed() {
        result.decks.append(Deck(id: nextID, name: name, modificationTime: deck.modificationTime))
        log.report(
          .deckAdded, at: location.item("deck '\(name)' (id \(nextID))"),
          "deck '\(deck.name)' has no parent deck '\(name)'; a collection needs it, so it is added (as Anki's Check Database would)"
        )
        takenIDs.insert(nextID)
        nextID = freeID(after: nextID, taken: takenIDs)
      }
    }
    result.decks.sort { $0.id < $1.id }
    return result
  }

  /// `collection` with the "Default" deck (id 1) it lacks, as a collection package: Anki makes
  /// that deck with every collection and never deletes it (it only hides it while it is empty),
  /// and its restore of a package without it does not add it (checked with the real backend: a
  /// part of a collection restored, then Check Database, has no deck 1). Not added when another
  /// deck is named `Default`, which would clash with it. Nothing of the deck's is changed, so
  /// nothing is reported.
  static func withDefaultDeck(_ collection: DeckCollection) -> DeckCollection {
    let defaultKey = CollectionValidation.uniqueKey("Default")
    guard !collection.decks.contains(where: { $0.id == 1 || CollectionValidation.uniqueKey($0.name) == defaultKey })
    else { return collection }
    var result = collection
    result.decks.insert(Deck(id: 1, name: "Default", modificationTime: 0), at: 0)
    return result
  }

  /// The first id after `id` that `taken` does not hold; past the largest 64-bit id (a deck id
  /// from the input may be `Int64.max`), the smallest positive id that is free.
  static func freeID(after id: Int64, taken: Set<Int64>) -> Int64 {
    let (next, overflow) = id.addingReportingOverflow(1)
    if !overflow, !taken.contains(next) { return next }
    var candidate: Int64 = overflow ? 2 : next
    while taken.contains(candidate) {
      let (following, pastEnd) = candidate.addingReportingOverflow(1)
      candidate = pastEnd ? 2 : following
    }
    return candidate
  }

  /// The option groups to write, as `dconf` entries: group 1 added (as Anki's default) when
  /// missing, decks that name a group that does not exist moved to group 1 with a warning.
  static func deckOptionEntries(
    _ collection: inout DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) throws -> [(id: Int64, json: JSONValue)] {
    let known = Set(collection.deckOptions.map(\.id)).union([1])
    for index in collection.decks.indices {
      guard case .normal(let optionsID) = collection.decks[index].kind, !known.contains(optionsID) else {
        continue
      }
      let deck = collection.decks[index]
      log.report(
        .deckOptionsMissing, at: location.item("deck '\(deck.name)' (id \(deck.id))"),
        "the deck uses option group \(optionsID), which the collection does not define; it is given option group 1 (Default), as Anki would need"
      )
      collection.decks[index].kind = .normal(optionsID: 1)
    }
    var entries: [(id: Int64, json: JSONValue)] = []
    if !collection.deckOptions.contains(where: { $0.id == 1 }) {
      entries.append((1, DeckOptionsConversion.defaultEntry()))
    }
    for options in collection.deckOptions {
      let (json, warnings) = try DeckOptionsConversion.entry(for: options, location: location)
      log.append(contentsOf: warnings)
      entries.append((options.id, json))
    }
    return entries.sorted { $0.id < $1.id }
  }
}
