import DeckAnki
import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Writes the shared model as a CrowdAnki folder: `deck.json` and `media/`.
///
/// ```swift
/// let (written, warnings) = try CrowdAnkiWriter().write(collection, to: "French", reportingAs: "French")
/// ```
///
/// The deck tree becomes nested `Deck` objects (`children`, each holding its last name level);
/// note types and option groups are written whole, as Anki's schema-11 objects, at the top.
/// CrowdAnki's import hands each of them to Anki's collection API, so a value Anki would refuse
/// there is written as the nearest one it reads (`value-clamped`, as in a package), and a deck
/// name Anki normalises (`deck-renamed`) and a template it refuses (`template-refused`) are
/// reported, as are what CrowdAnki's import does not take as the folder says: a top deck named
/// `Default` (`deck-renamed`) and a template's deck override (`template-deck-override`).
/// `crowdanki_uuid`s the source had are kept; others are derived from the Anki ids (name-based
/// UUIDs), so writing the same deck twice gives the same folder. Every media file is written, by
/// its name. What CrowdAnki cannot hold (scheduling, the review log, user flags on cards) is
/// reported, naming how much was left out.
package struct CrowdAnkiWriter: DeckFileWriter, Sendable {
  /// Creates a writer.
  package init() {}

  /// Writes `collection` into the folder at `path` (which exists and is empty); warnings and
  /// errors name `destination` when given, else `path`.
  ///
  /// Cards under several top-level decks are written below a new top deck named after the
  /// last component of `destination` (reported as `deck-root-added`).
  ///
  /// - Throws: ``DeckError`` when a media name would not be a single safe file name or two names
  ///   differ only in case, when a deck name has more than ``Deck/maximumLevels`` levels, when a
  ///   note type is one Anki's note type API would refuse or rewrite (as an Anki package's writer
  ///   refuses it), or when writing fails.
  package func write(_ collection: DeckCollection, to path: String, reportingAs destination: String? = nil) throws
    -> (written: DeckCollection, warnings: [Diagnostic])
  {
    let destination = destination ?? path
    let location = SourceLocation(file: destination)
    try Deck.checkDepth(of: collection.decks, at: location)
    // Two decks of one name would be nested in the folder, one under the other.
    let sameNamed = try SameNamedDecks.merged(collection, filteredDecksWritten: false, location: location)
    // CrowdAnki's import hands each note to Anki, which refuses one whose value count differs
    // from its note type's field count (and stops there): such notes are fitted as Anki's Check
    // Database fits them, as every package writer does.
    let fitted = try CollectionRepair.fittingFields(sameNamed.collection, location: location)
    let collection = fitted.collection
    var warnings = sameNamed.warnings + fitted.warnings + lossWarnings(collection, location: location)
    let folderName = URL(fileURLWithPath: destination).standardizedFileURL.lastPathComponent
    let tree = DeckTree(collection, folderName: folderName, location: location, warnings: &warnings)

    var models: [[String: Any]] = []
    var modelUUIDs: [Int64: String] = [:]
    // CrowdAnki keeps what Anki keeps of decks and note types but for a few members
    // (`CrowdAnkiProperties`); those are reported as lost, as is a property no schema-11 object
    // can take. CrowdAnki's import hands each deck, note model and option group to Anki, which
    // refuses a value it cannot read as a package's import does: such values are fitted, as in a
    // package.
    let writable = Schema11Objects.withWritableProperties(CrowdAnkiProperties.kept(collection), location: location)
    warnings += writable.warnings
    let fitting = Schema11ValueFitting.fitted(writable.collection, for: .crowdAnki, location: location)
    let written = fitting.collection
    warnings += fitting.warnings
    for noteType in written.noteTypes {
      // What Anki's note type API would refuse, or rewrite silently (a `"` in a name), is refused
      // as an Anki package's writer refuses it.
      try CollectionValidation.checkNoteType(noteType, at: location.item(CollectionValidation.label(noteType)))
      for (template, problem) in TemplateFieldCheck.problems(in: noteType) {
        warnings.append(
          Diagnostic(
            .templateRefused,
            at: location.item("\(CollectionValidation.label(noteType)), template '\(template)'"),
            "\(problem): Anki's note type API refuses such a template, which stops CrowdAnki's import part way (the folder keeps it as it is; Anki's import of a package would keep it too, and show the error on its cards)"
          ))
      }
      var object = Schema11Objects.noteType(noteType)
      let uuid = noteType.crowdAnkiUUID ?? Self.derivedUUID("note type", noteType.id, in: collection)
      for key in ["id", "mod", "usn", "did"] { object[key] = nil }
      object["__type__"] = "NoteModel"
      object["crowdanki_uuid"] = uuid
      // The id now, never one the note type carries from an earlier folder; none when the reader
      // derives it from the UUID again (a folder that kept none, such as CrowdAnki's own export).
      object[CrowdAnkiProperties.ankiIDKey] =
        noteType.id == CrowdAnkiReader.derivedNoteTypeID(uuid: uuid) ? nil : noteType.id
      modelUUIDs[noteType.id] = uuid
      models.append(object)
    }
    var configs: [[String: Any]] = []
    var configUUIDs: [Int64: String] = [:]
    // Groups whose schema-11 settings hold a sync state other than 0 (a schema-18 group's is an
    // Anki property, which `ankiOnlyLosses` counts).
    var syncStatesDropped = 0
    var unusedGroups: [String] = []
    for (options, source) in zip(written.deckOptions, collection.deckOptions) {
      // CrowdAnki's export writes the groups of its decks; its import adds every group listed,
      // so an unused group would arrive as a second "Default" beside the collection's own.
      guard tree.optionGroupIDs.contains(options.id) else {
        if options.id != 1 { unusedGroups.append("'\(options.name)' (id \(options.id))") }
        continue
      }
      var (object, optionWarnings) = try Schema11Objects.deckOptions(options, location: location)
      warnings += optionWarnings
      if case .anki11JSON(let text) = options.settings,
        let stored = (try? JSONParser.parse(Array(text.utf8)))?.foundationObject as? [String: Any]
      {
        object = CrowdAnkiJSON.keepingFloats(object, from: stored) as? [String: Any] ?? object
      }
      let uuid = (object["crowdanki_uuid"] as? String) ?? Self.derivedUUID("deck config", options.id, in: collection)
      if source.ankiProperties.isEmpty, let usn = object["usn"] as? NSNumber, usn.int64Value != 0 {
        syncStatesDropped += 1
      }
      for key in ["id", "mod", "usn"] { object[key] = nil }
      object["__type__"] = "DeckConfig"
      object["crowdanki_uuid"] = uuid
      object[CrowdAnkiProperties.ankiIDKey] =
        options.id == CrowdAnkiReader.derivedOptionGroupID(uuid: uuid, name: options.name) ? nil : options.id
      configUUIDs[options.id] = uuid
      configs.append(object)
    }

    if !unusedGroups.isEmpty {
      warnings.append(
        Diagnostic(
          .optionGroupsDropped, at: location,
          "\(CountedNoun.phrase(unusedGroups.count, "option group")) that no deck of the folder uses \(unusedGroups.count == 1 ? "is" : "are") not written, as CrowdAnki's export writes only its decks' groups: \(ShortList.text(unusedGroups))"
        ))
    }
    if syncStatesDropped > 0 {
      warnings.append(
        Diagnostic(
          .ankiPropertiesDropped, at: location,
          "the sync state (usn) of \(CountedNoun.phrase(syncStatesDropped, "option group")) is not kept: a CrowdAnki folder has no place for it"
        ))
    }
    warnings += NoteIdentity.sharedGUIDWarnings(
      in: collection.notes, importer: "CrowdAnki's import", location: location)
    let notesByDeck = tree.notesByDeck(collection, location: location, warnings: &warnings)
    warnings += Self.newCardOrderWarnings(collection, tree: tree, notesByDeck: notesByDeck, location: location)
    let deckFile = CrowdAnkiDeckFile(
      collection: collection, written: written, tree: tree, notesByDeck: notesByDeck, models: models,
      modelUUIDs: modelUUIDs, configs: configs, configUUIDs: configUUIDs)
    try deckFile.write(
      to: URL(fileURLWithPath: path).appendingPathComponent(CrowdAnkiFolder.deckFileName).path, location: location)
    warnings += Self.renamedDeckWarnings(tree, location: location)
    warnings += Self.deckOverrideWarnings(written, location: location)
    try writeMedia(
      collection.media, into: URL(fileURLWithPath: path).appendingPathComponent(CrowdAnkiFolder.mediaFolderName).path,
      location: location)
    return (written, warnings)
  }

  /// A `deck-renamed` warning for each deck written whose full name Anki normalises when
  /// CrowdAnki's import saves it (`decks.save`), as it does a package's: the folder keeps the name
  /// as it is, as CrowdAnki's own export would, and says what Anki will call the deck.
  ///
  /// A top deck named `Default` is reported too: CrowdAnki's import finds a deck by its
  /// CrowdAnki UUID, and renames a new deck whose name another deck has (ignoring case) by adding
  /// `_2`. Every collection has a `Default` deck of its own, without a UUID unless CrowdAnki
  /// exported it, so the folder's `Default` and its subdecks arrive as `Default_2`.
  private static func renamedDeckWarnings(_ tree: DeckTree, location: SourceLocation) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    let top = Deck.storedName(tree.writtenName(of: tree.root))
    if top.lowercased() == "default" {
      warnings.append(
        Diagnostic(
          .deckRenamed, at: location.item("deck '\(tree.root.name)' (id \(tree.root.id))"),
          "the top deck is named '\(top)', and every Anki collection has a Default deck of its own, which CrowdAnki's import does not take for the folder's (it finds decks by CrowdAnki UUID, and a collection's Default has none unless CrowdAnki exported it): CrowdAnki imports the folder's deck as '\(top)_2', with its subdecks below it"
        ))
    }
    func visit(_ deck: Deck, parent: String?) {
      let name = parent.map { "\($0)::\(tree.writtenName(of: deck))" } ?? tree.writtenName(of: deck)
      let stored = Deck.storedName(name)
      if !stored.unicodeScalars.elementsEqual(name.unicodeScalars) {
        warnings.append(
          Diagnostic(
            .deckRenamed, at: location.item("deck '\(MediaFileName.visible(deck.name))' (id \(deck.id))"),
            "\(Deck.storedNameRule), so CrowdAnki's import saves it as '\(MediaFileName.visible(stored))'"
          ))
      }
      for child in tree.children(of: deck) { visit(child, parent: name) }
    }
    visit(tree.root, parent: nil)
    return warnings
  }

  /// A `template-deck-override` warning for each template that puts its new cards into a deck of
  /// the collection other than `Default` (Anki's "Deck Override"). The template names the deck
  /// by its Anki id, which a folder does not keep (a deck is found by its CrowdAnki UUID), so
  /// CrowdAnki's import into a collection without a deck of that id adds such cards to the
  /// Default deck, not to their note's deck. The id is written as it is, as CrowdAnki's own
  /// export writes it: imported into the collection it came from, the override still holds.
  private static func deckOverrideWarnings(_ collection: DeckCollection, location: SourceLocation) -> [Diagnostic] {
    let deckNames = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    var warnings: [Diagnostic] = []
    for noteType in collection.noteTypes {
      for template in noteType.templates {
        guard let target = template.targetDeckID, target != 1, let deckName = deckNames[target] else { continue }
        warnings.append(
          Diagnostic(
            .templateDeckOverride,
            at: location.item("\(CollectionValidation.label(noteType)), template '\(template.name)'"),
            "puts new cards into deck '\(deckName)' by its Anki id (\(target)), which a CrowdAnki folder does not keep: CrowdAnki's import into a collection without a deck of that id adds these cards to the Default deck, not to their note's deck (the id is written as CrowdAnki's own export writes it)"
          ))
      }
    }
    return warnings
  }

  /// A UUID derived from an Anki id, the same every time the same collection is written; for id
  /// 1, which every collection has, from the id and ``collectionIdentity(_:)``.
  static func derivedUUID(_ kind: String, _ id: Int64, in collection: DeckCollection) -> String {
    let shared = id == 1 ? "\u{1F}" + collectionIdentity(collection) : ""
    return UUID(nameBasedOn: Data("deckport crowdanki \(kind)\u{1F}\(id)\(shared)".utf8)).uuidString.lowercased()
  }

  /// What tells one collection from another and stays when the same collection is exported
  /// again: its creation day and the GUID of its first note. It goes into the UUIDs of deck 1
  /// ("Default") and option group 1, which every collection has under that id: from the id alone,
  /// every folder deckport wrote gave them the same UUIDs, so CrowdAnki's import of a second
  /// folder took them for the first's, overwrote the first's option group and put both folders'
  /// Default cards in one deck. (CrowdAnki's own export gives each collection's its own random
  /// UUID.)
  static func collectionIdentity(_ collection: DeckCollection) -> String {
    let first = collection.notes.min { $0.id < $1.id }
    return "\(collection.creationTime)\u{1F}\(first?.guid ?? "")"
  }

  /// The files note types use (`_font.ttf` in CSS or templates), which CrowdAnki lists at the top.
  static func modelMedia(_ collection: DeckCollection) -> Set<String> {
    Set(collection.noteTypes.flatMap(MediaReferences.underscoredFileNames(in:)))
  }

  /// Scheduling, the review log, deletion records and card flags: what a CrowdAnki folder has
  /// no place for.
  private func lossWarnings(_ collection: DeckCollection, location: SourceLocation) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    let scheduled = collection.cards.filter { $0.scheduling.type != .new || $0.scheduling.queue != .new }.count
    if scheduled > 0 {
      warnings.append(
        Diagnostic(
          .scheduling, at: location,
          "the scheduling of \(CountedNoun.phrase(scheduled, "card")) is not kept: CrowdAnki holds no scheduling, so its import gives new cards (or keeps the progress a collection already has)"
        ))
    }
    if !collection.reviews.isEmpty {
      warnings.append(
        Diagnostic(
          .reviewLog, at: location,
          "\(CountedNoun.phrase(collection.reviews.count, "review")) of the review log \(collection.reviews.count == 1 ? "is" : "are") not kept: CrowdAnki holds no review log"
        ))
    }
    warnings += CrowdAnkiProperties.leftOut(collection).ankiOnlyLosses(
      at: location, format: "a CrowdAnki folder", propertyExamples: CrowdAnkiProperties.leftOutExamples)
    // CrowdAnki's import makes each new note's cards from its fields, as Anki's CSV importer does.
    let regeneration = CardGeneration.regeneration(of: collection)
    if regeneration.lostCards > 0 {
      let count = regeneration.lostCards
      warnings.append(
        Diagnostic(
          .cardsDropped, at: location,
          "\(CountedNoun.phrase(count, "card")) \(count == 1 ? "is" : "are") not kept: a CrowdAnki folder holds notes, and its import makes a note's cards from its fields; \(count == 1 ? "this card's" : "these cards'") template shows nothing or \(count == 1 ? "its" : "their") cloze number is no longer in the text (Anki keeps such cards until Empty Cards removes them) (\(Self.guids(regeneration.lostGUIDs)))"
        ))
    }
    if regeneration.madeCards > 0 {
      warnings.append(
        Diagnostic(
          .cardsAdded, at: location,
          "\(CountedNoun.phrase(regeneration.madeCards, "card")) the deck does not hold will be made by CrowdAnki's import from the notes' fields (\(Self.guids(regeneration.madeGUIDs)))"
        ))
    }
    let flagged = collection.cards.filter { $0.scheduling.flags & 0b111 != 0 }.count
    if flagged > 0 {
      warnings.append(
        Diagnostic(
          .cardFlags, at: location,
          "the flags of \(CountedNoun.phrase(flagged, "card")) are not kept: CrowdAnki holds no cards"))
    }
    return warnings
  }

  /// `GUID 'a'` or `5 GUIDs 'a', 'b', 'c', 'd', 'e' and 2 more`.
  private static func guids(_ guids: [String]) -> String {
    "\(CountedNoun.noun("GUID", for: guids.count)) \(ShortList.quoted(guids))"
  }

  /// A `scheduling` warning when the deck's new cards are in another order than the one
  /// CrowdAnki's import gives them. The folder holds no positions: a new collection numbers new
  /// cards in the order the import adds their notes (a deck's subdecks first, by name, then its
  /// own notes, in the folder's order; ``NewCardOrder``).
  private static func newCardOrderWarnings(
    _ collection: DeckCollection, tree: DeckTree, notesByDeck: [Int64: [Note]], location: SourceLocation
  ) -> [Diagnostic] {
    var added: [Int64: Int] = [:]
    func visit(_ deck: Deck) {
      for child in tree.children(of: deck) { visit(child) }
      for note in notesByDeck[deck.id] ?? [] where added[note.id] == nil { added[note.id] = added.count }
    }
    visit(tree.root)
    guard let count = NewCardOrder.changedCount(in: collection, addedAt: added) else { return [] }
    return [
      Diagnostic(
        .scheduling, at: location,
        "the order of \(CountedNoun.phrase(count, "new card")) is not kept: CrowdAnki holds no positions, and its import numbers new cards in the order it adds their notes (a deck's subdecks first, then its own notes, in the folder's order), which is not the order the deck shows them in"
      )
    ]
  }

  /// Writes each media file under its name; names that are not one safe path component, or
  /// that clash with another name on a case-insensitive file system, are refused.
  private func writeMedia(_ media: [MediaFile], into folder: String, location: SourceLocation) throws {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot create the media folder (\(error.localizedDescription))")
    }
    var seen: [String: String] = [:]
    for file in media {
      try Cancellation.check()
      guard MediaFileName.isSafe(file.name) else {
        throw DeckError(
          .invalidRequest, at: location.item("media file '\(MediaFileName.visible(file.name))'"),
          "is not a single file name Anki accepts, so it cannot be written into the media folder")
      }
      let folded = file.name.canonicallyComposed.lowercased()
      if let other = seen[folded] {
        throw DeckError(
          .invalidRequest, at: location.item("media file '\(MediaFileName.visible(file.name))'"),
          "differs from '\(MediaFileName.visible(other))' only in case; one would overwrite the other on a case-insensitive file system"
        )
      }
      seen[folded] = file.name
      let target = URL(fileURLWithPath: folder).appendingPathComponent(file.name).path
      try MediaBlob.namingSourceErrors(at: location.item("media file '\(MediaFileName.visible(file.name))'")) {
        try FileSink.writing(to: target) { sink in try file.blob.forEachChunk { try sink.write($0) } }
      }
    }
  }
}
