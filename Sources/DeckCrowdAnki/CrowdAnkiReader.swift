import DeckAnki
import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Reads a CrowdAnki folder (`deck.json` and `media/`) into the shared model.
///
/// ```swift
/// let (collection, warnings) = try CrowdAnkiReader().read(path: "Ultimate_Geography")
/// ```
///
/// Nested decks (`children`) get their full `A::B` names back; note models and option groups
/// keep their `crowdanki_uuid`; each note gets the new cards Anki would make for it, in its
/// deck. Anki ids, which CrowdAnki leaves out, are derived from the UUIDs and GUIDs, so the same
/// folder always gives the same deck; but a note model keeps the Anki id a folder deckport wrote
/// gives it (``CrowdAnkiProperties/ankiIDKey``), and so does an option group: Anki's import
/// matches both by id. Notes, cards and note types get the deck file's
/// modification time, so a newer version of the folder updates them when imported into Anki. Keys deckport's model has no place for are reported, one
/// warning per object, never dropped silently.
package struct CrowdAnkiReader: DeckFileReader, Sendable {
  /// Creates a reader.
  package init() {}

  /// The id a note model gets from its CrowdAnki UUID when the folder keeps no Anki id for it
  /// (the same every time the same folder is read).
  package static func derivedNoteTypeID(uuid: String) -> Int64 {
    DerivedID.id(for: "crowdanki note model\u{1F}" + uuid)
  }

  /// The id an option group gets from its CrowdAnki UUID (or its name, without one) when the
  /// folder keeps no Anki id for it.
  package static func derivedOptionGroupID(uuid: String, name: String) -> Int64 {
    DerivedID.id(for: "crowdanki deck config\u{1F}" + (uuid.isEmpty ? name : uuid))
  }

  /// Reads the CrowdAnki folder at `path`.
  ///
  /// - Throws: ``DeckError`` naming the deck file and the JSON path of the first problem (a
  ///   missing key, a value of the wrong type, a note whose `note_model_uuid` names no note model),
  ///   or the media file that cannot be read.
  package func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    guard let deckFile = CrowdAnkiFolder.deckFile(in: path) else {
      throw DeckError(
        .missingPart, at: SourceLocation(file: path),
        "holds no \(CrowdAnkiFolder.deckFileName), so it is not a CrowdAnki folder")
    }
    // A named pipe would keep the read waiting, a link to a device such as /dev/zero never end it.
    if let kind = FileManager.default.notRegularFileKind(atPath: deckFile) {
      throw DeckError(.unreadableFile, at: SourceLocation(file: deckFile), "cannot be read (it is \(kind), not a file)")
    }
    // A folder cloned from someone else's repository must not bring a file of this machine's in.
    let boundary = FolderBoundary(folder: path)
    if let link = boundary.outsideLink(at: deckFile) {
      throw DeckError(
        .unreadableFile, at: SourceLocation(file: deckFile),
        "cannot be read (it is \(link); only the folder's own files are read)")
    }
    let parsed = try Self.parsed(deckFile)
    guard let members = parsed.members else {
      throw DeckError(.wrongFormat, at: SourceLocation(file: deckFile), "expected a JSON object (a CrowdAnki Deck)")
    }
    // The deck file's modification time stands for when its notes last changed: CrowdAnki keeps
    // none, and a later version of the folder (a git pull rewrites the file) is then newer, so
    // Anki's import updates the notes it already has.
    let modified = FileManager.default.modificationSeconds(atPath: deckFile) ?? 0
    var state = ReadState(file: deckFile, modificationTime: modified)
    let root = JSONPathObject(members: members, path: "", file: deckFile)
    try state.readDeck(root, parentName: nil)
    state.readMedia(
      folder: URL(fileURLWithPath: path).appendingPathComponent(CrowdAnkiFolder.mediaFolderName).path,
      inside: boundary)
    let importConfig = URL(fileURLWithPath: path).appendingPathComponent(CrowdAnkiFolder.importConfigFileName).path
    if FileManager.default.fileExists(atPath: importConfig) {
      state.warnings.append(
        Diagnostic(
          .crowdAnkiImportConfig, at: SourceLocation(file: importConfig),
          "CrowdAnki's import choices (personal fields, tags to add on import, whether cards move between decks) are not read, and a folder deckport writes has no such file: the deck is converted as the folder holds it; copy the file into a folder written from it to keep them"
        ))
    }
    return (try state.collection(), state.warnings)
  }

  /// The JSON value of `deckFile`, parsed from its bytes where they were read (not from a copy),
  /// which are let go before the deck is read from the value.
  private static func parsed(_ deckFile: String) throws -> JSONValue {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: deckFile))
    } catch {
      throw DeckError(
        .unreadableFile, at: SourceLocation(file: deckFile), "cannot be read (\(error.localizedDescription))")
    }
    // A key twice in an object (a field given twice by hand) is refused: a dictionary keeps one.
    var options = JSONParser.Options()
    options.rejectsDuplicateKeys = true
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(buffer: bytes, options: options) }
    }
    do {
      return try result.get()
    } catch {
      var place = SourceLocation(file: deckFile)
      place.line = error.line
      place.column = error.column
      throw DeckError(.wrongFormat, at: place, "invalid JSON: \(error.message) (\(error.near))")
    }
  }
}

/// What the reader has gathered so far while walking the deck tree.
private struct ReadState {
  let file: String
  var warnings: [Diagnostic] = []
  var decks: [Deck] = []
  var deckOptions: [DeckOptions] = []
  var optionsIDs: [String: Int64] = [:]
  var noteTypes: [NoteType] = []
  var noteTypeIDs: [String: Int] = [:]
  /// The position in ``noteTypes`` of each note type id given so far.
  var noteTypePositions: [Int64: Int] = [:]
  /// Notes in file order, with the deck each one sits in.
  var notes: [(guid: String, noteType: Int, fields: [String], tags: [String], deckID: Int64)] = []
  /// The position in ``notes`` of each GUID's first note.
  var notePositions: [ExactKey: Int] = [:]
  /// The empty values the notes that give fewer fields than their note model are filled with.
  var fieldFilling = FieldFilling()
  var listedMedia: [(name: String, place: SourceLocation)] = []
  var media: [MediaFile] = []
  /// The new names of the media files renamed as Anki would store them.
  var renamedMedia: [String] = []

  /// The deck file's modification time, given to notes, cards and note types.
  let modificationTime: Int64

  init(file: String, modificationTime: Int64) {
    self.file = file
    self.modificationTime = modificationTime
  }

  static let noteKeys: Set<String> = ["__type__", "guid", "note_model_uuid", "fields", "tags", "flags", "data"]

  mutating func readDeck(_ deck: JSONPathObject, parentName: String?) throws {
    for config in try deck.objects("deck_configurations") { try readDeckConfig(config) }
    for model in try deck.objects("note_models") { try readNoteModel(model) }
    let shortName = try deck.string("name")
    let name = parentName.map { "\($0)\(Deck.levelSeparator)\(shortName)" } ?? shortName
    let uuid = try deck.optionalString("crowdanki_uuid")
    let id = DerivedID.id(for: "crowdanki deck\u{1F}" + (uuid ?? name))
    var optionsID: Int64 = 1
    if let configUUID = try deck.optionalString("deck_config_uuid") {
      if let known = optionsIDs[configUUID] {
        optionsID = known
      } else {
        warnings.append(
          Diagnostic(
            .crowdAnkiDeckConfigMissing, at: deck.location("deck_config_uuid"),
            "deck '\(name)' uses option group \(configUUID), which the file does not hold; it gets the default options")
        )
      }
    }
    if (try? deck.optionalInt("dyn")) ?? 0 != 0 {
      warnings.append(
        Diagnostic(
          .crowdAnkiFilteredDeck, at: deck.location("dyn"),
          "deck '\(name)' is marked as a filtered deck, but the file holds no search; it is read as a normal deck"))
    }
    // The deck's other members are what Anki keeps of it besides (its own limits, ...), but for
    // those CrowdAnki's export leaves out (older exports have some) and `id`, `mod` and `conf`.
    let properties = Schema11Objects.deckProperties(deck.members.filter { CrowdAnkiProperties.keepsDeckMember($0.key) })
    decks.append(
      Deck(
        id: id, name: name, description: try deck.optionalString("desc") ?? "",
        descriptionIsMarkdown: ((try? deck.optionalInt("md")) ?? 0) != 0, kind: .normal(optionsID: optionsID),
        crowdAnkiUUID: uuid, ankiProperties: properties))
    for (index, name) in try deck.strings("media_files").enumerated() {
      listedMedia.append((name, deck.location("media_files[\(index)]")))
    }
    for note in try deck.objects("notes") { try readNote(note, deckID: id) }
    for child in try deck.objects("children") { try readDeck(child, parentName: name) }
  }

  mutating func readDeckConfig(_ config: JSONPathObject) throws {
    let uuid = try config.optionalString("crowdanki_uuid") ?? ""
    let name = try config.optionalString("name") ?? "Default"
    guard optionsIDs[uuid] == nil else { return }
    let taken = Dictionary(
      deckOptions.map { ($0.id, "option group '\($0.name)'") }, uniquingKeysWith: { first, _ in first })
    var id =
      keptAnkiID(of: config, label: "option group '\(name)'", taken: taken)
      ?? CrowdAnkiReader.derivedOptionGroupID(uuid: uuid, name: name)
    var attempt = 0
    while taken[id] != nil {
      attempt += 1
      id = DerivedID.id(for: "crowdanki deck config\u{1F}\(uuid)\u{1F}\(name)\u{1F}\(attempt)")
    }
    var settings = config.foundationObject
    settings["__type__"] = nil
    settings[CrowdAnkiProperties.ankiIDKey] = nil
    // CrowdAnki leaves out Anki's sync counter; a new option group has 0 (id and mod come from the model).
    if settings["usn"] == nil { settings["usn"] = 0 }
    // Kept as text, floats as floats (`"mult": 0.0`), so writing the folder again keeps them.
    let text = (try? CrowdAnkiJSON.compactText(settings)) ?? "{}"
    optionsIDs[uuid] = id
    deckOptions.append(DeckOptions(id: id, name: name, settings: .anki11JSON(text)))
  }

  mutating func readNoteModel(_ model: JSONPathObject) throws {
    let name = try model.string("name")
    let uuid =
      try model.optionalString("crowdanki_uuid")
      ?? UUID(nameBasedOn: Data("crowdanki note model\u{1F}\(name)".utf8)).uuidString.lowercased()
    guard noteTypeIDs[uuid] == nil else { return }
    let taken = noteTypePositions.mapValues { "note model '\(noteTypes[$0].name)'" }
    var id =
      keptAnkiID(of: model, label: "note model '\(name)'", taken: taken)
      ?? CrowdAnkiReader.derivedNoteTypeID(uuid: uuid)
    // A derived id an earlier note model keeps as its Anki id (one pasted there) is derived again.
    var attempt = 0
    while noteTypePositions[id] != nil {
      attempt += 1
      id = DerivedID.id(for: "crowdanki note model\u{1F}\(uuid)\u{1F}\(attempt)")
    }
    var noteType = try Schema11Objects.noteType(
      from: model.foundationObject, members: model.members.filter { $0.key != "__type__" }, id: id,
      label: "note model '\(name)'", at: model.location())
    noteType.ankiProperties.removeAll {
      CrowdAnkiProperties.noteTypeKeysLeftOut.contains($0.key) || $0.key == CrowdAnkiProperties.ankiIDKey
    }
    noteType.crowdAnkiUUID = uuid
    noteType.modificationTime = modificationTime
    noteTypeIDs[uuid] = noteTypes.count
    noteTypePositions[id] = noteTypes.count
    noteTypes.append(noteType)
  }

  /// The Anki id a folder deckport wrote keeps for a note model or an option group
  /// (``CrowdAnkiProperties/ankiIDKey``), or nil when there is none, or, with a warning naming
  /// `label`, when it is not an id Anki gives (a positive whole number) or `taken` has it (an
  /// earlier object of the file: a copied note model, say).
  mutating func keptAnkiID(of object: JSONPathObject, label: String, taken: [Int64: String]) -> Int64? {
    let key = CrowdAnkiProperties.ankiIDKey
    guard let value = object.value(key), !value.isNull else { return nil }
    guard let id = value.writtenInteger, id > 0 else {
      warnings.append(
        Diagnostic(
          .crowdAnkiAnkiID, at: object.location(key),
          "\(label) gives the Anki id \(JSONWriter.text(of: value).prefix(40)), which is not one Anki gives (a positive whole number); it gets an id derived from its UUID"
        ))
      return nil
    }
    if let other = taken[id] {
      warnings.append(
        Diagnostic(
          .crowdAnkiAnkiID, at: object.location(key),
          "\(label) gives the Anki id \(id) of \(other) before it; it gets an id derived from its UUID, so a package made from the folder no longer matches what the collection has under that id"
        ))
      return nil
    }
    return id
  }

  mutating func readNote(_ note: JSONPathObject, deckID: Int64) throws {
    let guid = try note.string("guid")
    let modelUUID = try note.string("note_model_uuid")
    guard let typeIndex = noteTypeIDs[modelUUID] else {
      throw note.problem("note_model_uuid", "names note model \(modelUUID), which the file does not hold")
    }
    var fields = try note.strings("fields")
    let expected = noteTypes[typeIndex].fields.count
    fieldFilling.countText(of: fields)
    if fields.count != expected {
      try fieldFilling.countFill(
        given: fields.count, of: expected, noteType: noteTypes[typeIndex].name, at: note.location("fields"))
      // Fitted as Anki's Check Database fits a note (and as deckport's writers do): no value is lost.
      let model = noteTypes[typeIndex]
      let change =
        if expected == 0 {
          "the values are kept as they are (a note model needs a field)"
        } else if fields.count < expected {
          "empty fields were added"
        } else {
          "the values from field \(expected) on are joined with \"\(CollectionRepair.joinedFieldSeparator)\" into the last field, '\(model.fields[expected - 1].name)', as Anki's Check Database joins them"
        }
      warnings.append(
        Diagnostic(
          .fieldCount, at: note.location("fields"),
          "note \(guid) has \(CountedNoun.phrase(fields.count, "field")) but its note model '\(model.name)' has \(expected); \(change)"
        ))
      fields = CollectionRepair.fitted(fields, count: expected)
    }
    if let flags = try note.optionalInt("flags"), flags != 0 {
      warnings.append(
        Diagnostic(
          .crowdAnkiNoteFlags, at: note.location("flags"),
          "note \(guid): the note flags (\(flags)) are not kept; Anki does not use them"))
    }
    if let data = try note.optionalString("data"), !data.isEmpty {
      warnings.append(
        Diagnostic(
          .crowdAnkiNoteData, at: note.location("data"),
          "note \(guid): the note's data text is not kept; Anki does not use it"))
    }
    reportUnknownKeys(note, known: Self.noteKeys, what: "note \(guid)")
    let tags = try note.strings("tags")
    // CrowdAnki writes a note into every deck one of its cards is in; the same note again is
    // one note. (A different note under the same GUID is kept, for the writer's GUID policy.)
    // Compared exactly: GUIDs or text that differ only in Unicode composition are another note.
    if let first = notePositions[ExactKey(guid)], notes[first].noteType == typeIndex,
      notes[first].fields.elementsEqual(fields, by: { $0.isExactly($1) }),
      notes[first].tags.elementsEqual(tags, by: { $0.isExactly($1) })
    {
      if notes[first].deckID != deckID {
        let known = decks
        let name = { (id: Int64) in known.first { $0.id == id }.map { "'\(TerminalText.escaped($0.name))'" } ?? "\(id)"
        }
        warnings.append(
          Diagnostic(
            .noteDecksMerged, at: note.location("guid"),
            "note \(guid) is in deck \(name(notes[first].deckID)) and again in deck \(name(deckID)) (CrowdAnki writes a note into each deck its cards were in); it is read once, its cards in the first deck"
          ))
      }
      return
    }
    if notePositions[ExactKey(guid)] == nil { notePositions[ExactKey(guid)] = notes.count }
    notes.append((guid, typeIndex, fields, tags, deckID))
  }

  /// One warning naming the keys of `object` the model cannot hold (neither `known` nor null).
  mutating func reportUnknownKeys(_ object: JSONPathObject, known: Set<String>, what: String) {
    let lost = object.keysWithValues.subtracting(known).sorted()
    guard !lost.isEmpty else { return }
    warnings.append(
      Diagnostic(
        .crowdAnkiKeysNotKept, at: object.location(),
        "\(what): \(lost.map { "'\($0)'" }.joined(separator: ", ")) \(lost.count == 1 ? "is" : "are") not kept; deckport's model has no place for \(lost.count == 1 ? "it" : "them")"
      ))
  }

  /// Every file in the media folder, by its name; names listed in `media_files` without a file
  /// are reported, a name Anki would store otherwise is renamed so (with the notes' references
  /// to it, in ``collection()``), a name with nothing Anki accepts is refused, as are entries that are not
  /// regular files (a folder, a named pipe, a link to a device or to nothing), whose reading
  /// would fail, wait forever or never end, and entries that lead outside the CrowdAnki folder
  /// (`boundary`), whose file is not the deck's: the media folder itself, or one of its files.
  mutating func readMedia(folder: String, inside boundary: FolderBoundary) {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    if let link = boundary.outsideLink(at: folder) {
      warnings.append(
        Diagnostic(
          .mediaSkipped, at: SourceLocation(file: folder),
          "is \(link); its \(names.count) \(names.count == 1 ? "entry is" : "entries are") skipped (copy the files into the folder to keep them)"
        ))
      return
    }
    var present = Set<String>()
    var storedNames = Set<[Unicode.Scalar]>()
    for name in names {
      let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
      if let kind = FileManager.default.notRegularFileKind(atPath: path) {
        warnings.append(
          Diagnostic(.mediaSkipped, at: SourceLocation(file: path), "is \(kind), not a media file; skipped"))
        continue
      }
      if let link = boundary.outsideLink(at: path) {
        warnings.append(
          Diagnostic(
            .mediaSkipped, at: SourceLocation(file: path),
            "is \(link); skipped (copy the file into the folder to keep it)"))
        continue
      }
      // A name Anki would store otherwise (decomposed Unicode, as a Mac's folder may hold it,
      // `a:b.png`, `con.jpg`) is renamed with the notes' references, as Anki's import of such a
      // package renames them.
      let stored = MediaFileName.normalized(name)
      guard !stored.isEmpty else {
        warnings.append(
          Diagnostic(
            .mediaSkipped, at: SourceLocation(file: path),
            "the name '\(MediaFileName.visible(name))' has nothing Anki accepts in a file name; skipped (rename the file to keep it)"
          ))
        continue
      }
      present.insert(name)
      guard storedNames.insert(Array(stored.unicodeScalars)).inserted else {
        warnings.append(
          Diagnostic(
            .mediaDuplicate, at: SourceLocation(file: path),
            "Anki stores this file as '\(MediaFileName.visible(stored))', the name of another file of the folder; this one is left out"
          ))
        continue
      }
      if !MediaFileName.isUnchanged(name, by: stored) {
        warnings.append(MediaFileName.renamedWarning(name, as: stored, at: SourceLocation(file: path)))
        renamedMedia.append(stored)
        present.insert(stored)
      }
      media.append(MediaFile(name: stored, blob: MediaBlob(source: FileMediaSource(path: path))))
    }
    for (name, place) in listedMedia where !present.contains(name) {
      warnings.append(
        Diagnostic(
          .mediaMissing, at: place, "'\(MediaFileName.visible(name))' is listed but the media folder has no such file"
        ))
    }
  }

  /// The collection: notes and their new cards numbered in file order from bases derived from
  /// the GUIDs, so the same folder gives the same ids.
  func collection() throws -> DeckCollection {
    let (modelNotes, cards) = try NewNotes.assemble(
      notes.map {
        NewNotes.Draft(guid: $0.guid, noteTypeIndex: $0.noteType, fields: $0.fields, tags: $0.tags, deckID: $0.deckID)
      },
      noteTypes: noteTypes, idSpace: "crowdanki", modificationTime: modificationTime,
      checkingCount: NewNotes.cardLimit { [file] _, note in SourceLocation(file: file, item: "note \(note.guid)") })
    return DeckCollection(
      decks: decks, deckOptions: deckOptions, noteTypes: noteTypes,
      notes: renamedMedia.isEmpty ? modelNotes : MediaReferences.notes(modelNotes, referringTo: renamedMedia),
      cards: cards, media: media)
  }
}
