import DeckAnki
import DeckCore
import DeckIO
import Foundation
import JSONCore

/// The deck file (`deck.json`) of a CrowdAnki folder being written: the deck tree as nested
/// `Deck` objects, each with its notes, the note models and option groups at the top, laid out as
/// CrowdAnki's export writes it (``CrowdAnkiJSON``).
///
/// The file is written a note and a deck at a time, straight from the model, so neither the
/// file's text nor a tree of its values is ever whole in memory: only one deck's own members are
/// built as values.
struct CrowdAnkiDeckFile {
  /// The collection as given (its media, and the notes that name them).
  let collection: DeckCollection
  let tree: DeckTree
  let notesByDeck: [Int64: [Note]]
  /// The note models and option groups, as written at the top.
  let models: [[String: Any]]
  let modelUUIDs: [Int64: String]
  let configs: [[String: Any]]
  let configUUIDs: [Int64: String]
  /// The decks with the properties a folder keeps, checked and fitted, by id.
  private let writtenDecks: [Int64: Deck]
  /// The names of the media files the folder holds.
  private let mediaPresent: Set<String>

  /// The deck file of `collection`; `written` is the collection with the properties a folder
  /// keeps, checked and fitted.
  init(
    collection: DeckCollection, written: DeckCollection, tree: DeckTree, notesByDeck: [Int64: [Note]],
    models: [[String: Any]], modelUUIDs: [Int64: String], configs: [[String: Any]], configUUIDs: [Int64: String]
  ) {
    self.collection = collection
    self.tree = tree
    self.notesByDeck = notesByDeck
    self.models = models
    self.modelUUIDs = modelUUIDs
    self.configs = configs
    self.configUUIDs = configUUIDs
    writtenDecks = Dictionary(written.decks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    mediaPresent = Set(collection.media.map(\.name))
  }

  /// How much text is gathered before it is written out.
  static let flushBytes = 1 << 20

  /// Writes the deck file at `path`; errors name `location`.
  ///
  /// - Throws: ``DeckError`` when the file cannot be written, or when a value is not one JSON can
  ///   hold.
  func write(to path: String, location: SourceLocation) throws {
    do {
      try FileSink.writing(to: path) { sink in
        var writer = JSONWriter(layout: CrowdAnkiJSON.layout)
        try write(tree.root, isRoot: true, path: "", indent: 0, into: &writer, sink: sink)
        try writer.bytes.withUnsafeBytes { try sink.write($0) }
      }
    } catch let error as CrowdAnkiJSON.Unrepresentable {
      throw DeckError(
        .writeFailed, at: location, "cannot encode the deck as JSON (the value at \(error.path) is not a JSON value)")
    } catch let error as DeckError where error.kind == .writeFailed {
      throw DeckError(.writeFailed, at: location, "cannot write '\(path)' (\(error.message))")
    }
  }

  /// Writes the `Deck` object of `deck` at `indent`, its notes and subdecks one at a time, handing
  /// `writer`'s bytes to `sink` as they grow. `path` is the deck's JSON path, for errors.
  private func write(
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
    for (position, member) in try members(of: deck, isRoot: isRoot, path: path).enumerated() {
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
          try write(
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

  /// The members of the deck file's `Deck` object of `deck`, keys in code point order as
  /// CrowdAnki writes them, `notes` and `children` left empty: ``write(to:location:)`` writes those
  /// a note and a deck at a time.
  private func members(of deck: Deck, isRoot: Bool, path: String) throws(CrowdAnkiJSON.Unrepresentable)
    -> [(key: String, value: JSONValue)]
  {
    let notes = notesByDeck[deck.id] ?? []
    var media = Set(notes.flatMap { $0.fields.flatMap(MediaReferences.fileNames(in:)) })
    if isRoot {
      media.formUnion(CrowdAnkiWriter.modelMedia(collection))
      // Files no note names still travel in media/; list them at the top so nothing is unlisted.
      let referenced = Set(collection.notes.flatMap { $0.fields.flatMap(MediaReferences.fileNames(in:)) })
      media.formUnion(collection.media.map(\.name).filter { !referenced.contains($0) })
    }
    var object = CrowdAnkiJSON.Members()
    object["__type__"] = .string("Deck")
    object["name"] = .string(tree.writtenName(of: deck))
    object["crowdanki_uuid"] = .string(
      deck.crowdAnkiUUID ?? CrowdAnkiWriter.derivedUUID("deck", deck.id, in: collection))
    object["desc"] = .string(deck.description)
    object["dyn"] = .integer(0)
    // Anki's limits of the deck's own, as a new deck has them (0, or null for none) unless the
    // deck's properties say otherwise (below).
    object["extendNew"] = .integer(0)
    object["extendRev"] = .integer(0)
    for key in ["desiredRetention", "newLimit", "newLimitToday", "reviewLimit", "reviewLimitToday"] {
      object[key] = .null
    }
    object["media_files"] = .array(media.filter(mediaPresent.contains).sorted().map(JSONValue.string))
    object["notes"] = .array([])
    object["children"] = .array([])
    if deck.descriptionIsMarkdown { object["md"] = .bool(true) }
    // What Anki keeps of the deck besides (JSON text the writer checked): its own limits replace a
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
}
