import DeckCore
import DeckIO
import Foundation

/// Writes the shared model as a json-dir folder (`DeckJSONDirectory`): the deckport JSON deck
/// split into one file per note, note type, deck and option group, with raw media.
///
/// ```swift
/// try AtomicOutput.writeFolder(to: "French", replacing: false) { folder in
///   try DeckJSONDirectoryWriter().write(collection, to: folder, reportingAs: "French")
/// }
/// ```
///
/// The same collection always gives the same files, byte for byte: members in a fixed order,
/// two-space indentation, a final newline. Editing one note's field changes one file; studying
/// changes only the files of the notes studied. Media are copied from their source a chunk at a
/// time, never held whole.
package struct DeckJSONDirectoryWriter: RepairingDeckWriter, Sendable {
  /// Creates a writer.
  package init() {}

  /// Writes `collection`, repaired as `DeckJSONWriter` repairs it, into the existing, empty
  /// folder at `path`.
  ///
  /// - Throws: ``DeckError`` when a note cannot be keyed by field name, when a media name is not
  ///   one safe file name or differs from another only in case, or when writing fails.
  package func writeRepaired(_ repaired: DeckCollection, to path: String, location: SourceLocation) throws {
    let folder = URL(fileURLWithPath: path)
    for name in [
      DeckJSONDirectory.deckOptionsFolder, DeckJSONDirectory.decksFolder, DeckJSONDirectory.noteTypesFolder,
      DeckJSONDirectory.notesFolder, DeckJSONDirectory.mediaFolder,
    ] {
      do {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
      } catch {
        throw DeckError(
          .writeFailed, at: location, "cannot create the folder '\(name)' (\(error.localizedDescription))")
      }
    }
    let deckOptions = try writeObjects(
      repaired.deckOptions, id: \.id, into: folder.appendingPathComponent(DeckJSONDirectory.deckOptionsFolder)
    ) { DeckOptionsJSON($0) }
    let decks = try writeObjects(
      repaired.decks, id: \.id, into: folder.appendingPathComponent(DeckJSONDirectory.decksFolder)
    ) {
      DeckJSON($0)
    }
    let noteTypes = try writeObjects(
      repaired.noteTypes, id: \.id, into: folder.appendingPathComponent(DeckJSONDirectory.noteTypesFolder)
    ) { NoteTypeJSON($0) }
    let layout = NoteLayout(repaired)
    let notes = try writeNotes(
      repaired, layout: layout, into: folder.appendingPathComponent(DeckJSONDirectory.notesFolder), location: location)
    let media = try writeMedia(
      repaired.media, into: folder.appendingPathComponent(DeckJSONDirectory.mediaFolder), location: location)
    let index = DeckJSONDirectoryIndex(
      format: DeckJSONDirectory.formatName, version: DeckJSONDirectory.currentVersion,
      creationTime: repaired.creationTime, deckOptions: deckOptions, decks: decks, noteTypes: noteTypes,
      notes: Self.inIDOrder(repaired.notes) ? nil : notes,
      cardOrder: layout.cardOrder, reviewOrder: layout.reviewOrder,
      reviewsWithoutCard: layout.reviewsWithoutCard.isEmpty ? nil : layout.reviewsWithoutCard.map(ReviewJSON.init),
      deletions: repaired.deletions.isEmpty ? nil : repaired.deletions.map(DeletionJSON.init),
      settings: StringMembersJSON(properties: repaired.settings),
      tagRegistry: repaired.tagRegistry.isEmpty ? nil : repaired.tagRegistry.map(RegisteredTagJSON.init),
      media: media)
    try Self.writeJSON(index, to: folder.appendingPathComponent(DeckJSONDirectory.indexFileName).path)
  }

  /// Whether each note's id is above the one before it: then the reader finds the order from
  /// the note files themselves, and the index does not list them.
  static func inIDOrder(_ notes: [Note]) -> Bool {
    zip(notes, notes.dropFirst()).allSatisfy { $0.id < $1.id }
  }

  /// Writes `value` as indented JSON with a final newline.
  static func writeJSON(_ value: some Encodable, to path: String) throws {
    let json = try OrderedJSONEncoder().encode(value)
    try FileSink.writing(to: path) { sink in
      var writer = JSONStreamWriter(sink: sink)
      try writer.write(json)
    }
  }

  /// Writes one file per object, named by its id, and returns the names in order.
  private func writeObjects<Object, JSON: Encodable>(
    _ objects: [Object], id: (Object) -> Int64, into folder: URL, _ json: (Object) -> JSON
  ) throws -> [String] {
    var counter = DeckJSONDirectory.OccurrenceCounter<Int64>()
    return try objects.map { object in
      let stem = DeckJSONDirectory.idFileStem(id(object), occurrence: counter.next(id(object)))
      try Self.writeJSON(json(object), to: folder.appendingPathComponent(stem + ".json").path)
      return stem
    }
  }

  /// Writes one file per note, holding its cards and their reviews, and returns the names in order.
  private func writeNotes(
    _ collection: DeckCollection, layout: NoteLayout, into folder: URL, location: SourceLocation
  ) throws -> [String] {
    let fieldNames = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fieldNames) }, uniquingKeysWith: { first, _ in first })
    var counter = DeckJSONDirectory.OccurrenceCounter<String>()
    return try collection.notes.enumerated().map { position, note in
      try Cancellation.check(atItem: position)
      let names = try DeckJSONDocument.fieldNames(for: note, in: fieldNames, location: location)
      let stem = DeckJSONDirectory.noteFileStem(guid: note.guid, occurrence: counter.next(note.guid))
      let file = DeckJSONNoteFile(
        note: DeckJSONDocument.noteJSON(note, names: names),
        cards: layout.cards[position].map(CardJSON.init), reviews: layout.reviews[position].map(ReviewJSON.init))
      try Self.writeJSON(file, to: folder.appendingPathComponent(stem + ".json").path)
      return stem
    }
  }

  /// Copies each media file under its own name; names that are not one safe file name, or that
  /// differ from another only in case, are refused (as for a CrowdAnki folder).
  private func writeMedia(
    _ media: [MediaFile], into folder: URL, location: SourceLocation
  ) throws -> [DeckJSONDirectoryIndex.MediaEntry] {
    var seen: [String: String] = [:]
    return try media.map { file in
      try Cancellation.check()
      let place = location.item("media file '\(MediaFileName.visible(file.name))'")
      guard MediaFileName.isSafe(file.name) else {
        throw DeckError(
          .invalidRequest, at: place,
          "is not a single file name Anki accepts, so it cannot be written into the media folder")
      }
      let folded = file.name.canonicallyComposed.lowercased()
      if let other = seen[folded] {
        throw DeckError(
          .invalidRequest, at: place,
          "differs from '\(MediaFileName.visible(other))' only in case; one would overwrite the other on a case-insensitive file system"
        )
      }
      seen[folded] = file.name
      let fingerprint = try MediaBlob.namingSourceErrors(at: place) {
        try FileSink.writing(to: folder.appendingPathComponent(file.name).path) { sink in
          try file.blob.forEachChunk { try sink.write($0) }
        }
        return try file.blob.fingerprint()
      }
      return .init(name: file.name, mimeType: file.mimeType, sha1: SHA1.hex(fingerprint.sha1), size: fingerprint.size)
    }
  }
}

/// Which note's file holds each card and review, and the order lists the index needs when the
/// deck's order is not the order of the ids.
struct NoteLayout {
  /// The cards of each note (by position in the deck's notes), in deck order.
  var cards: [[Card]]
  /// The reviews of each note's cards, in deck order.
  var reviews: [[Review]]
  /// Reviews of cards the deck does not have.
  var reviewsWithoutCard: [Review] = []
  var cardOrder: [Int]?
  var reviewOrder: [Int]?

  init(_ collection: DeckCollection) {
    var notePositions: [Int64: Int] = [:]
    for (position, note) in collection.notes.enumerated() where notePositions[note.id] == nil {
      notePositions[note.id] = position
    }
    cards = Array(repeating: [], count: collection.notes.count)
    reviews = Array(repeating: [], count: collection.notes.count)
    var cardPositions: [Int64: Int] = [:]
    var cardOwners: [Int] = []
    for card in collection.cards {
      // Repair has left out cards whose note is missing.
      guard let position = notePositions[card.noteID] else { continue }
      cards[position].append(card)
      cardOwners.append(position)
      if cardPositions[card.id] == nil { cardPositions[card.id] = position }
    }
    var reviewOwners: [Int] = []
    for review in collection.reviews {
      if let position = cardPositions[review.cardID] {
        reviews[position].append(review)
        reviewOwners.append(position)
      } else {
        reviewsWithoutCard.append(review)
        reviewOwners.append(-1)
      }
    }
    if cardOwners != Self.idOrder(cards.map { $0.map(\.id) }, extra: []) { cardOrder = cardOwners }
    if reviewOwners != Self.idOrder(reviews.map { $0.map(\.id) }, extra: reviewsWithoutCard.map(\.id)) {
      reviewOrder = reviewOwners
    }
  }

  /// The owner of each item (its note's position, -1 for `extra`) in the order the reader gives
  /// when the index names none: every note's items in turn, then `extra`, sorted by id, equal
  /// ids keeping that order. Items of one note keep their order either way, so the owners
  /// tell the whole order.
  static func idOrder(_ groups: [[Int64]], extra: [Int64]) -> [Int] {
    var items: [(id: Int64, owner: Int, offset: Int)] = []
    for (owner, ids) in groups.enumerated() { for id in ids { items.append((id, owner, items.count)) } }
    for id in extra { items.append((id, -1, items.count)) }
    let sorted = items.sorted { ($0.id, $0.offset) < ($1.id, $1.offset) }
    // The order only holds when each note's items are already in id order.
    var next: [Int: Int] = [:]
    for item in sorted {
      let expected = next[item.owner] ?? item.offset
      if item.offset < expected { return [] }
      next[item.owner] = item.offset + 1
    }
    return sorted.map(\.owner)
  }
}
