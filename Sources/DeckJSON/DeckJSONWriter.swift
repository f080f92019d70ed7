import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Writes the shared model as a deckport JSON deck document.
///
/// ```swift
/// try DeckJSONWriter().write(collection, to: "French.json")
/// ```
///
/// The same collection always gives the same bytes. The document is written front to back as
/// it is made: notes, cards and reviews one at a time, straight into the file, and media
/// base64-encoded from their source a chunk at a time by worker threads (``MediaWorkers``)
/// that start while the notes are written, so a deck of 100,000 notes and gigabytes of media
/// needs no more memory than its model, and both cores are busy.
package struct DeckJSONWriter: RepairingDeckWriter, Sendable {
  /// Where the writer reports what it is doing (writing notes, cards, reviews and media), or nil.
  package var progress: ProgressReporter?

  /// Creates a writer.
  package init(progress: ProgressReporter? = nil) {
    self.progress = progress
  }

  /// How many rows are written between two progress reports.
  static let progressStep = 2048

  /// Writes `collection`, repaired as ``CollectionRepair`` says (so that every document written
  /// can be read back), to `path` (created or replaced; callers wanting all-or-nothing output
  /// write to a temporary path and rename, as `DeckConverter` does).
  ///
  /// - Throws: ``DeckError`` when a note cannot be keyed by field name (an unknown note type) or
  ///   when writing fails; a file begun is then removed.
  package func writeRepaired(_ collection: DeckCollection, to path: String, location: SourceLocation) throws {
    let media = try Self.encodeMedia(of: collection, location: location)
    defer { media.stop() }
    try FileSink.writing(to: path) { sink in
      var writer = JSONStreamWriter(sink: sink)
      try writeDocument(collection, media: media, location: location, into: &writer)
      writer.append(byte: 0x0A)
      try writer.flush()
    }
  }

  /// Starts encoding the collection's media files in base64 on worker threads, hashing those
  /// whose SHA-1 is not known yet, so that they are ready when the writer reaches them after
  /// the notes, cards and reviews.
  private static func encodeMedia(of collection: DeckCollection, location: SourceLocation) throws -> MediaWorkers {
    let items = collection.media.map { file in
      MediaWorkers.Item(
        blob: file.blob, job: .encode(.base64), hashing: file.blob.knownFingerprint == nil,
        location: location.item("media file '\(MediaFileName.visible(file.name))'"))
    }
    return MediaWorkers(items, scratch: try TemporaryDirectory(), progress: nil)
  }

  /// The document's top-level object, its members in the order of ``DeckJSONDocument``'s
  /// properties, laid out exactly as the document's ``JSONValue`` would be; each media file's
  /// base64 comes from `media`.
  private func writeDocument(
    _ collection: DeckCollection, media: MediaWorkers, location: SourceLocation,
    into writer: inout JSONStreamWriter
  ) throws {
    writer.append(byte: UInt8(ascii: "{"))
    writer.appendKey("format", indent: 1)
    writer.appendString(DeckJSONDocument.formatName)
    writer.append(",")
    writer.appendKey("version", indent: 1)
    writer.appendNumber(DeckJSONDocument.currentVersion)
    writer.append(",")
    writer.appendKey("creationTime", indent: 1)
    writer.appendNumber(collection.creationTime)
    writer.append(",")

    writer.appendKey("deckOptions", indent: 1)
    try writeArray(collection.deckOptions, into: &writer) { options, writer in
      try writer.write(OrderedJSONEncoder().encode(DeckOptionsJSON(options)), indent: 2)
    }
    writer.append(",")
    writer.appendKey("decks", indent: 1)
    try writeArray(collection.decks, into: &writer) { deck, writer in
      try writer.write(OrderedJSONEncoder().encode(DeckJSON(deck)), indent: 2)
    }
    writer.append(",")
    writer.appendKey("noteTypes", indent: 1)
    try writeArray(collection.noteTypes, into: &writer) { noteType, writer in
      try writer.write(OrderedJSONEncoder().encode(NoteTypeJSON(noteType)), indent: 2)
    }
    writer.append(",")

    let fieldNames = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fieldNames) }, uniquingKeysWith: { first, _ in first })
    // Names that a JSON object would merge (equal as Swift strings) go the general way.
    let distinctNames = fieldNames.mapValues { Set($0).count == $0.count }
    try writeSection("notes", collection.notes, phase: .writingNotes, into: &writer) { note, writer in
      let names = try DeckJSONDocument.fieldNames(for: note, in: fieldNames, location: location)
      if distinctNames[note.noteTypeID] == true {
        Self.writeNote(note, names: names, into: &writer)
      } else {
        try writer.write(OrderedJSONEncoder().encode(DeckJSONDocument.noteJSON(note, names: names)), indent: 2)
      }
    }
    writer.append(",")
    try writeSection("cards", collection.cards, phase: .writingCards, into: &writer) { Self.writeCard($0, into: &$1) }
    writer.append(",")
    try writeSection("reviews", collection.reviews, phase: .writingReviews, into: &writer) {
      Self.writeReview($0, into: &$1)
    }
    writer.append(",")
    try writeUnlessEmpty("deletions", collection.deletions.map(DeletionJSON.init), into: &writer)
    if let settings = StringMembersJSON(properties: collection.settings) {
      writer.appendKey("settings", indent: 1)
      try writer.write(OrderedJSONEncoder().encode(settings), indent: 1)
      writer.append(",")
    }
    try writeUnlessEmpty("tagRegistry", collection.tagRegistry.map(RegisteredTagJSON.init), into: &writer)
    var mediaIndex = 0
    try writeSection("media", collection.media, phase: .copyingMedia, into: &writer) { file, writer in
      defer { mediaIndex += 1 }
      let fingerprint = try media.fingerprint(mediaIndex) ?? file.blob.fingerprint()
      let entry = MediaJSON(
        name: file.name, mimeType: file.mimeType, sha1: SHA1.hex(fingerprint.sha1), size: fingerprint.size,
        data: "")
      // The members as the document value has them, `data` (the last) streamed from the workers.
      let members = try OrderedJSONEncoder().encode(entry).members ?? []
      writer.append(byte: UInt8(ascii: "{"))
      for member in members where member.key != "data" {
        writer.appendKey(member.key, indent: 3)
        try writer.write(member.value, indent: 3)
        writer.append(byte: UInt8(ascii: ","))
      }
      writer.appendKey("data", indent: 3)
      try writer.appendUnescapedString(from: media.member(mediaIndex))
      writer.newline(2)
      writer.append(byte: UInt8(ascii: "}"))
    }
    writer.newline(0)
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// The member `key` of the top-level object, an array of `elements` (see
  /// ``writeArray(_:into:_:counting:)``), its progress reported as `phase`.
  private func writeSection<Element>(
    _ key: String, _ elements: [Element], phase: ConversionPhase, into writer: inout JSONStreamWriter,
    _ writeElement: (Element, inout JSONStreamWriter) throws -> Void
  ) throws {
    writer.appendKey(key, indent: 1)
    progress?.start(phase, total: Int64(elements.count))
    try writeArray(elements, into: &writer, writeElement) { progress?.set(phase, completed: $0) }
    progress?.finish(phase)
  }

  /// A top-level array at indent 1: `[]`, or each element on its own line at indent 2.
  /// The member `key` of the document, `elements` each encoded on a line, and the comma after
  /// it; nothing when there are none, as the document value leaves out a nil member.
  private func writeUnlessEmpty<Element: Encodable>(
    _ key: String, _ elements: [Element], into writer: inout JSONStreamWriter
  ) throws {
    guard !elements.isEmpty else { return }
    writer.appendKey(key, indent: 1)
    try writeArray(elements, into: &writer) { element, writer in
      try writer.write(OrderedJSONEncoder().encode(element), indent: 2)
    }
    writer.append(",")
  }

  private func writeArray<Element>(
    _ elements: [Element], into writer: inout JSONStreamWriter,
    _ writeElement: (Element, inout JSONStreamWriter) throws -> Void,
    counting: (Int64) -> Void = { _ in }
  ) throws {
    guard !elements.isEmpty else { return writer.append("[]") }
    writer.append(byte: UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index % Self.progressStep == 0 {
        try Cancellation.check()
        counting(Int64(index))
      }
      writer.newline(2)
      try writeElement(element, &writer)
      if index < elements.count - 1 { writer.append(byte: UInt8(ascii: ",")) }
      try writer.flushIfFull()
    }
    writer.newline(1)
    writer.append(byte: UInt8(ascii: "]"))
  }

  // MARK: - Notes, cards and reviews, written directly
  //
  // Each writes what `OrderedJSONEncoder` makes of the element's `Codable` type, laid out by
  // `JSONWriter` at indent 2 (the tests compare the two): the members in declaration order,
  // none left out, since the model gives every one a value.

  /// A ``NoteJSON``: id, guid, noteType (an id), fields (by name), tags, modified.
  static func writeNote(_ note: Note, names: [String], into writer: inout JSONStreamWriter) {
    writer.append(byte: UInt8(ascii: "{"))
    writer.appendKey("id", indent: 3)
    writer.appendNumber(note.id)
    writer.append(byte: UInt8(ascii: ","))
    writer.appendKey("guid", indent: 3)
    writer.appendString(note.guid)
    writer.append(byte: UInt8(ascii: ","))
    writer.appendKey("noteType", indent: 3)
    writer.appendNumber(note.noteTypeID)
    writer.append(byte: UInt8(ascii: ","))
    writer.appendKey("fields", indent: 3)
    if names.isEmpty {
      writer.append("{}")
    } else {
      writer.append(byte: UInt8(ascii: "{"))
      for (index, (name, value)) in zip(names, note.fields).enumerated() {
        writer.appendKey(name, indent: 4)
        writer.appendString(value)
        if index < names.count - 1 { writer.append(byte: UInt8(ascii: ",")) }
      }
      writer.newline(3)
      writer.append(byte: UInt8(ascii: "}"))
    }
    writer.append(byte: UInt8(ascii: ","))
    writer.appendKey("tags", indent: 3)
    if note.tags.isEmpty {
      writer.append("[]")
    } else {
      writer.append(byte: UInt8(ascii: "["))
      for (index, tag) in note.tags.enumerated() {
        writer.newline(4)
        writer.appendString(tag)
        if index < note.tags.count - 1 { writer.append(byte: UInt8(ascii: ",")) }
      }
      writer.newline(3)
      writer.append(byte: UInt8(ascii: "]"))
    }
    writer.append(byte: UInt8(ascii: ","))
    writer.appendKey("modified", indent: 3)
    writer.appendNumber(note.modificationTime)
    writer.newline(2)
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// A ``CardJSON``: id, note, template, deck (an id), modified, scheduling.
  static func writeCard(_ card: Card, into writer: inout JSONStreamWriter) {
    let s = card.scheduling
    writer.append(byte: UInt8(ascii: "{"))
    members(
      [
        "id": card.id, "note": card.noteID, "template": Int64(card.templateOrdinal), "deck": card.deckID,
        "modified": card.modificationTime,
      ], indent: 3, &writer)
    writer.appendKey("scheduling", indent: 3)
    writer.append(byte: UInt8(ascii: "{"))
    members(
      [
        "type": Int64(s.type.rawValue), "queue": Int64(s.queue.rawValue), "due": s.due, "interval": Int64(s.interval),
        "easeFactor": Int64(s.easeFactor), "reviews": Int64(s.reviews), "lapses": Int64(s.lapses),
        "remainingSteps": Int64(s.remainingSteps), "flags": Int64(s.flags), "originalDue": s.originalDue,
        "originalDeck": s.originalDeckID,
      ], indent: 4, &writer)
    writer.appendKey("data", indent: 4)
    writer.appendString(s.data)
    writer.newline(3)
    writer.append(byte: UInt8(ascii: "}"))
    writer.newline(2)
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// A ``ReviewJSON``: id, card, button, interval, lastInterval, easeFactor, duration, kind.
  static func writeReview(_ review: Review, into writer: inout JSONStreamWriter) {
    writer.append(byte: UInt8(ascii: "{"))
    members(
      [
        "id": review.id, "card": review.cardID, "button": Int64(review.ease), "interval": review.interval,
        "lastInterval": review.lastInterval, "easeFactor": Int64(review.easeFactor),
        "duration": Int64(review.duration), "kind": Int64(review.kind.rawValue),
      ], indent: 3, &writer, last: true)
    writer.newline(2)
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// `"key": number,` for each pair, each on a new line at `indent`; no comma after the last
  /// when `last` (the object's last members).
  private static func members(
    _ pairs: KeyValuePairs<String, Int64>, indent: Int, _ writer: inout JSONStreamWriter, last: Bool = false
  ) {
    for (position, pair) in pairs.enumerated() {
      writer.appendKey(pair.key, indent: indent)
      writer.appendNumber(pair.value)
      if !last || position < pairs.count - 1 { writer.append(byte: UInt8(ascii: ",")) }
    }
  }
}
