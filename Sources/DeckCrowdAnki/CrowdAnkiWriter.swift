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
/// reported.
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
    var warnings = lossWarnings(collection, location: location)
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
            "template-refused",
            at: location.item("\(CollectionValidation.label(noteType)), template '\(template)'"),
            "\(problem): Anki's note type API refuses such a template, which stops CrowdAnki's import part way (the folder keeps it as it is; Anki's import of a package would keep it too, and show the error on its cards)"
          ))
      }
      var object = Schema11Objects.noteType(noteType)
      let uuid = noteType.crowdAnkiUUID ?? Self.derivedUUID("note type", noteType.id)
      for key in ["id", "mod", "usn", "did"] { object[key] = nil }
      object["__type__"] = "NoteModel"
      object["crowdanki_uuid"] = uuid
      modelUUIDs[noteType.id] = uuid
      models.append(object)
    }
    var configs: [[String: Any]] = []
    var configUUIDs: [Int64: String] = [:]
    // Groups whose schema-11 settings hold a sync state other than 0 (a schema-18 group's is an
    // Anki property, which `ankiOnlyLosses` counts).
    var syncStatesDropped = 0
    for (options, source) in zip(written.deckOptions, collection.deckOptions) {
      var (object, optionWarnings) = try Schema11Objects.deckOptions(options, location: location)
      warnings += optionWarnings
      if case .anki11JSON(let text) = options.settings,
        let stored = (try? JSONParser.parse(Array(text.utf8)))?.foundationObject as? [String: Any]
      {
        object = CrowdAnkiJSON.keepingFloats(object, from: stored) as? [String: Any] ?? object
      }
      let uuid = (object["crowdanki_uuid"] as? String) ?? Self.derivedUUID("deck config", options.id)
      if source.ankiProperties.isEmpty, let usn = object["usn"] as? NSNumber, usn.int64Value != 0 {
        syncStatesDropped += 1
      }
      for key in ["id", "mod", "usn"] { object[key] = nil }
      object["__type__"] = "DeckConfig"
      object["crowdanki_uuid"] = uuid
      configUUIDs[options.id] = uuid
      configs.append(object)
    }

    if syncStatesDropped > 0 {
      warnings.append(
        Diagnostic(
          "anki-properties-dropped", at: location,
          "the sync state (usn) of \(CountedNoun.phrase(syncStatesDropped, "option group")) is not kept: a CrowdAnki folder has no place for it"
        ))
    }
    warnings += NoteIdentity.sharedGUIDWarnings(
      in: collection.notes, importer: "CrowdAnki's import", location: location)
    let notesByDeck = tree.notesByDeck(collection, location: location, warnings: &warnings)
    let writtenDecks = Dictionary(written.decks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let present = Set(collection.media.map(\.name))
    /// The members of the deck file's `Deck` object of `deck`, keys in code point order as
    /// CrowdAnki writes them, `notes` and `children` left empty: ``writeDeck`` writes those a note
    /// and a deck at a time.
    func deckMembers(_ deck: Deck, isRoot: Bool, path: String) throws(CrowdAnkiJSON.Unrepresentable)
      -> [(key: String, value: JSONValue)]
    {
      let notes = notesByDeck[deck.id] ?? []
      var media = Set(notes.flatMap { $0.fields.flatMap(MediaReferences.fileNames(in:)) })
      if isRoot {
        media.formUnion(Self.modelMedia(collection))
        // Files no note names still travel in media/; list them at the top so nothing is unlisted.
        let referenced = Set(collection.notes.flatMap { $0.fields.flatMap(MediaReferences.fileNames(in:)) })
        media.formUnion(collection.media.map(\.name).filter { !referenced.contains($0) })
      }
      var object = CrowdAnkiJSON.Members()
      object["__type__"] = .string("Deck")
      object["name"] = .string(tree.writtenName(of: deck))
      object["crowdanki_uuid"] = .string(deck.crowdAnkiUUID ?? Self.derivedUUID("deck", deck.id))
      object["desc"] = .string(deck.description)
      object["dyn"] = .integer(0)
      // Anki's limits of the deck's own, as a new deck has them (0, or null for none) unless the
      // deck's properties say otherwise (below).
      object["extendNew"] = .integer(0)
      object["extendRev"] = .integer(0)
      for key in ["desiredRetention", "newLimit", "newLimitToday", "reviewLimit", "reviewLimitToday"] {
        object[key] = .null
      }
      object["media_files"] = .array(media.filter(present.contains).sorted().map(JSONValue.string))
      object["notes"] = .array([])
      object["children"] = .array([])
      if deck.descriptionIsMarkdown { object["md"] = .bool(true) }
      // What Anki keeps of the deck besides (JSON text, checked above): its own limits replace a
      // new deck's.
      for property in writtenDecks[deck.id]?.ankiProperties ?? [] {
        if let value = try? JSONParser.parse(Array(property.jsonText.utf8)) {
          object[property.key] = try CrowdAnkiJSON.value(value.foundationObject, path: path + property.key)
        }
      }
      if case .normal(let optionsID) = deck.kind, let uuid = configUUIDs[optionsID] {
        object["deck_config_uuid"] = .string(uuid)
      } else if let first = configs.first?["crowdanki_uuid"] as? String {
        object["deck_config_uuid"] = .string(first)
      }
      if isRoot {
        object["note_models"] = .array(
          try models.enumerated().map { index, model throws(CrowdAnkiJSON.Unrepresentable) in
            try CrowdAnkiJSON.value(model, path: "note_models[\(index)]")
          })
        object["deck_configurations"] = .array(
          try configs.enumerated().map { index, config throws(CrowdAnkiJSON.Unrepresentable) in
            try CrowdAnkiJSON.value(config, path: "deck_configurations[\(index)]")
          })
      }
      return object.sorted
    }

    /// Writes the `Deck` object of `deck` at `indent`, its notes and subdecks one at a time,
    /// handing `writer`'s bytes to `sink` as they grow, so the file is never whole in memory.
    func writeDeck(
      _ deck: Deck, isRoot: Bool, path: String, indent: Int, into writer: inout JSONWriter, sink: FileSink
    ) throws {
      /// Writes `items` as the array at `indent`, each by `writeItem`.
      func writeArray<Item>(_ items: [Item], writeItem: (Item, inout JSONWriter) throws -> Void) throws {
        guard !items.isEmpty else { return writer.append("[]") }
        writer.append(byte: UInt8(ascii: "["))
        for (position, item) in items.enumerated() {
          if position > 0 { writer.append(byte: UInt8(ascii: ",")) }
          writer.newline(indent + 2)
          try writeItem(item, &writer)
          if writer.bytes.count >= Self.flushBytes {
            try writer.bytes.withUnsafeBytes { try sink.write($0) }
            writer.bytes.removeAll(keepingCapacity: true)
          }
        }
        writer.newline(indent + 1)
        writer.append(byte: UInt8(ascii: "]"))
      }
      writer.append(byte: UInt8(ascii: "{"))
      for (position, member) in try deckMembers(deck, isRoot: isRoot, path: path).enumerated() {
        if position > 0 { writer.append(byte: UInt8(ascii: ",")) }
        writer.appendKey(member.key, indent: indent + 1)
        switch member.key {
        case "notes":
          try writeArray(notesByDeck[deck.id] ?? []) { note, writer in
            // A note's keys, already in code point order.
            writer.write(
              .object([
                ("__type__", .string("Note")), ("fields", .array(note.fields.map(JSONValue.string))),
                ("guid", .string(note.guid)), ("note_model_uuid", .string(modelUUIDs[note.noteTypeID] ?? "")),
                ("tags", .array(note.tags.map(JSONValue.string))),
              ]), indent: indent + 2)
          }
        case "children":
          try writeArray(Array(tree.children(of: deck).enumerated())) { child, writer in
            try writeDeck(
              child.element, isRoot: false, path: "\(path)children[\(child.offset)].", indent: indent + 2,
              into: &writer, sink: sink)
          }
        default:
          writer.write(member.value, indent: indent + 1)
        }
      }
      writer.newline(indent)
      writer.append(byte: UInt8(ascii: "}"))
    }

    let folder = URL(fileURLWithPath: path)
    let deckFile = folder.appendingPathComponent(CrowdAnkiFolder.deckFileName).path
    do {
      try FileSink.writing(to: deckFile) { sink in
        var writer = JSONWriter(layout: CrowdAnkiJSON.layout)
        try writeDeck(tree.root, isRoot: true, path: "", indent: 0, into: &writer, sink: sink)
        try writer.bytes.withUnsafeBytes { try sink.write($0) }
      }
    } catch let error as CrowdAnkiJSON.Unrepresentable {
      throw DeckError(
        .writeFailed, at: location, "cannot encode the deck as JSON (the value at \(error.path) is not a JSON value)")
    } catch let error as DeckError where error.kind == .writeFailed {
      throw DeckError(.writeFailed, at: location, "cannot write '\(deckFile)' (\(error.message))")
    }
    warnings += Self.renamedDeckWarnings(tree, location: location)
    try writeMedia(
      collection.media, into: folder.appendingPathComponent(CrowdAnkiFolder.mediaFolderName).path, location: location)
    return (written, warnings)
  }

  /// A `deck-renamed` warning for each deck written whose full name Anki normalises when
  /// CrowdAnki's import saves it (`decks.save`), as it does a package's: the folder keeps the name
  /// as it is, as CrowdAnki's own export would, and says what Anki will call the deck.
  private static func renamedDeckWarnings(_ tree: DeckTree, location: SourceLocation) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    func visit(_ deck: Deck, parent: String?) {
      let name = parent.map { "\($0)::\(tree.writtenName(of: deck))" } ?? tree.writtenName(of: deck)
      let stored = Deck.storedName(name)
      if !stored.unicodeScalars.elementsEqual(name.unicodeScalars) {
        warnings.append(
          Diagnostic(
            "deck-renamed", at: location.item("deck '\(deck.name)' (id \(deck.id))"),
            "\(Deck.storedNameRule), so CrowdAnki's import saves it as '\(stored)'"
          ))
      }
      for child in tree.children(of: deck) { visit(child, parent: name) }
    }
    visit(tree.root, parent: nil)
    return warnings
  }

  /// How much deck file text is gathered before it is written out.
  static let flushBytes = 1 << 20

  /// A UUID derived from an Anki id, the same every time.
  static func derivedUUID(_ kind: String, _ id: Int64) -> String {
    UUID(nameBasedOn: Data("deckport crowdanki \(kind)\u{1F}\(id)".utf8)).uuidString.lowercased()
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
          "scheduling", at: location,
          "the scheduling of \(CountedNoun.phrase(scheduled, "card")) is not kept: CrowdAnki holds no scheduling, so its import gives new cards (or keeps the progress a collection already has)"
        ))
    }
    if !collection.reviews.isEmpty {
      warnings.append(
        Diagnostic(
          "review-log", at: location,
          "\(CountedNoun.phrase(collection.reviews.count, "review")) of the review log \(collection.reviews.count == 1 ? "is" : "are") not kept: CrowdAnki holds no review log"
        ))
    }
    warnings += CrowdAnkiProperties.leftOut(collection).ankiOnlyLosses(
      at: location, format: "a CrowdAnki folder", propertyExamples: CrowdAnkiProperties.leftOutExamples)
    let flagged = collection.cards.filter { $0.scheduling.flags & 0b111 != 0 }.count
    if flagged > 0 {
      warnings.append(
        Diagnostic(
          "card-flags", at: location,
          "the flags of \(CountedNoun.phrase(flagged, "card")) are not kept: CrowdAnki holds no cards"))
    }
    return warnings
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
      try FileSink.writing(to: target) { sink in try file.blob.forEachChunk { try sink.write($0) } }
    }
  }
}
