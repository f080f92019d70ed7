import DeckCore
import DeckIO
import Foundation

/// Reads a json-dir folder (`DeckJSONDirectory`) into the shared model.
///
/// ```swift
/// let (collection, warnings) = try DeckJSONDirectoryReader().read(path: "French")
/// ```
///
/// Every file is checked as the deckport JSON deck is: invalid JSON by line and column, a value
/// of the wrong shape by its JSON path, a note file whose name is not its GUID's, a media file
/// that is missing or whose bytes do not match the index's SHA-1 and size. Each error names the
/// file it is in. Media stay in their files and are read when a writer asks for them.
package struct DeckJSONDirectoryReader: DeckFileReader, Sendable {
  /// Creates a reader.
  package init() {}

  /// Reads the folder at `path`.
  ///
  /// - Throws: ``DeckError`` naming the file (and the JSON path in it) of the first problem.
  package func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let read = try reading(path: path)
    return (read.collection, read.warnings)
  }

  /// Reads the folder at `path` (see ``read(path:)``), telling which notes have their note
  /// file's time (or the index file's).
  package func reading(path: String) throws -> DeckJSONReader.Reading {
    let folder = URL(fileURLWithPath: path)
    let indexPath = folder.appendingPathComponent(DeckJSONDirectory.indexFileName).path
    let indexLocation = SourceLocation(file: indexPath)
    guard FileManager.default.fileExists(atPath: indexPath) else {
      throw DeckError(
        .missingPart, at: SourceLocation(file: path),
        "holds no \(DeckJSONDirectory.indexFileName), so it is not a json-dir folder")
    }
    // A folder from someone else (a backup, a repository) must not bring a file of this
    // machine's in through a symbolic link.
    let boundary = FolderBoundary(folder: path)
    let (index, indexUnknownKeys) = try Self.readIndex(at: indexPath, inside: boundary)
    let mediaFolder = folder.appendingPathComponent(DeckJSONDirectory.mediaFolder)
    var mapping = DeckJSONModelMapping(location: indexLocation) { position, media in
      try Self.mediaBlob(media, position: position, folder: mediaFolder, inside: boundary, index: indexLocation)
    }
    mapping.modificationTime = FileManager.default.modificationSeconds(atPath: indexPath) ?? 0
    var read = FolderReading(folder: folder, boundary: boundary, index: index, indexLocation: indexLocation)
    read.unknownKeys = indexUnknownKeys
    let header = DeckJSONDocument(
      creationTime: index.creationTime,
      deckOptions: try read.objects(
        index.deckOptions, "deckOptions", DeckJSONDirectory.deckOptionsFolder, DeckOptionsJSON.self),
      decks: try read.objects(index.decks, "decks", DeckJSONDirectory.decksFolder, DeckJSON.self),
      noteTypes: try read.objects(index.noteTypes, "noteTypes", DeckJSONDirectory.noteTypesFolder, NoteTypeJSON.self),
      notes: [], cards: nil, reviews: nil, deletions: index.deletions, settings: index.settings,
      tagRegistry: index.tagRegistry, media: nil)
    try read.relocating { try mapping.mapHeader(header) }
    let noteFiles = try read.noteFiles()
    var cards: [[CardJSON]] = []
    var reviews: [[ReviewJSON]] = []
    for (position, file) in noteFiles.enumerated() {
      // A note added by hand is as new as its file: editing the file makes it newer in Anki.
      let fileTime =
        file.note.modified == nil
        ? FileManager.default.modificationSeconds(
          atPath: read.path(DeckJSONDirectory.notesFolder, read.noteStems[position])) : nil
      try read.relocating {
        try mapping.add(note: file.note, index: position, makesCards: file.cards == nil, fileTime: fileTime)
      }
      cards.append(file.cards ?? [])
      reviews.append(file.reviews ?? [])
    }
    let cardOrder = try read.order(cards.map { $0.map(\.id) }, extra: [], given: index.cardOrder, key: "cardOrder")
    mapping.reserve(notes: 0, cards: cardOrder.count, reviews: 0)
    for (position, place) in cardOrder.enumerated() {
      try read.relocating { try mapping.add(card: cards[place.owner][place.offset], index: position) }
    }
    let unattached = index.reviewsWithoutCard ?? []
    let reviewOrder = try read.order(
      reviews.map { $0.map(\.id) }, extra: unattached.map(\.id), given: index.reviewOrder, key: "reviewOrder")
    for place in reviewOrder {
      mapping.add(review: place.owner < 0 ? unattached[place.offset] : reviews[place.owner][place.offset])
    }
    try read.relocating { try mapping.completeNotes() }
    try read.checkListed(DeckJSONDirectory.mediaFolder, index.media.map(\.name), key: "media", suffix: "")
    try mapping.mapMedia(
      index.media.map { MediaJSON(name: $0.name, mimeType: $0.mimeType, sha1: $0.sha1, size: $0.size, data: "") })
    return (mapping.collection, read.unknownKeys + read.relocated(mapping.warnings), mapping.notesTimedByFile)
  }

  /// The index file, checked for its format and version.
  /// The index file at `path`, and a warning for each key in it the format lacks.
  static func readIndex(at path: String, inside boundary: FolderBoundary) throws -> (
    index: DeckJSONDirectoryIndex, unknownKeys: [Diagnostic]
  ) {
    let location = SourceLocation(file: path)
    let data = try FolderReading.contents(of: path, inside: boundary)
    let header = try FolderReading.decode(DocumentHeader.self, from: data, location: location)
    try header.check(
      format: DeckJSONDirectory.formatName, version: DeckJSONDirectory.currentVersion, at: location,
      wrongFormat: { found in
        "not a json-dir index: \"format\" is \(found.map { "\"\($0)\"" } ?? "missing"), not \"\(DeckJSONDirectory.formatName)\""
      }, formatTitle: "json-dir")
    return try FolderReading.decodeNamingUnknownKeys(DeckJSONDirectoryIndex.self, from: data, location: location)
  }

  /// The blob of media file `position` of the index: the file `media/<name>`, checked against
  /// the index's size and SHA-1, and refused when it leads outside the json-dir folder
  /// (`boundary`).
  static func mediaBlob(
    _ media: MediaJSON, position: Int, folder: URL, inside boundary: FolderBoundary, index: SourceLocation
  ) throws -> MediaBlob {
    let path = folder.appendingPathComponent(media.name).path
    var place = index
    place.jsonPath = "media[\(position)]"
    // A named pipe would keep the read waiting, a link to a device such as /dev/zero never end it.
    if let kind = FileManager.default.notRegularFileKind(atPath: path) {
      throw DeckError(.unreadableFile, at: place, "the media file '\(path)' is \(kind), not a file")
    }
    if let link = boundary.outsideLink(at: path) {
      throw DeckError(
        .unreadableFile, at: place, "the media file '\(path)' is \(link); only the folder's own files are read")
    }
    guard FileManager.default.fileExists(atPath: path) else {
      throw DeckError(.missingPart, at: place, "the media file '\(path)' is missing")
    }
    let blob = MediaBlob(source: FileMediaSource(path: path))
    let actual = try blob.fingerprint()
    if let size = media.size, size != actual.size {
      throw DeckError(.corrupt, at: SourceLocation(file: path), "has \(actual.size) bytes, but \(place) says \(size)")
    }
    if let sha1 = media.sha1, sha1.lowercased() != SHA1.hex(actual.sha1) {
      throw DeckError(
        .corrupt, at: SourceLocation(file: path), "its SHA-1 is \(SHA1.hex(actual.sha1)), but \(place) says \(sha1)")
    }
    return blob
  }
}

/// The files of one json-dir folder as they are read, and where each JSON path of the
/// assembled document came from, so that every error names the file it is in.
private struct FolderReading {
  let folder: URL
  /// What the folder's files may lead to: nothing outside it.
  let boundary: FolderBoundary
  let index: DeckJSONDirectoryIndex
  let indexLocation: SourceLocation
  /// The note files' names in deck order: the index's list, or, when it has none, every file
  /// in `notes/` in the order of the note ids (set by ``noteFiles()``).
  private(set) var noteStems: [String] = []
  /// A warning for each key of a file read so far that the format lacks (``UnknownKeys``).
  var unknownKeys: [Diagnostic] = []
  /// What the files read so far taught of the format's keys (most note files look alike).
  private let keyCheck = UnknownKeys()

  init(folder: URL, boundary: FolderBoundary, index: DeckJSONDirectoryIndex, indexLocation: SourceLocation) {
    self.folder = folder
    self.boundary = boundary
    self.index = index
    self.indexLocation = indexLocation
  }

  /// The note files in deck order, each checked to be named by its GUID: those the index lists,
  /// or every `.json` file in `notes/` ordered by note id when the index lists none (a file
  /// added by hand or by a merge is then part of the deck).
  mutating func noteFiles() throws -> [DeckJSONNoteFile] {
    var guids = DeckJSONDirectory.OccurrenceCounter<String>()
    if let listed = index.notes {
      try checkListed(DeckJSONDirectory.notesFolder, listed, key: "notes")
      noteStems = listed
      return try listed.map { stem in try checkedNoteFile(stem, try noteFile(stem), guids: &guids) }
    }
    let directory = folder.appendingPathComponent(DeckJSONDirectory.notesFolder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let stems = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    if let stray = names.filter({ !$0.hasPrefix(".") && !$0.hasSuffix(".json") }).sorted().first {
      throw DeckError(
        .corrupt, at: SourceLocation(file: directory.appendingPathComponent(stray).path),
        "is not a note file (notes/ holds only <GUID>.json files); remove it")
    }
    let files = try stems.map { stem in (stem: stem, file: try noteFile(stem)) }
      .sorted { ($0.file.note.id ?? 0, $0.stem) < ($1.file.note.id ?? 0, $1.stem) }
    noteStems = files.map(\.stem)
    return try files.map { try checkedNoteFile($0.stem, $0.file, guids: &guids) }
  }

  /// For each card and review of the assembled document, its note's position and its index in
  /// that note's file (-1 for a review listed in the index).
  private var cardPlaces: [(owner: Int, offset: Int)] = []
  private var reviewPlaces: [(owner: Int, offset: Int)] = []

  /// The bytes of the file at `path`, unless the work is no longer wanted (``Cancellation``):
  /// a folder is read file by file, and stops between two. An entry that is not a regular file
  /// is refused unopened: a named pipe would keep the read waiting, a link to a device such as
  /// /dev/zero never end it; so is one that leads outside the folder (`boundary`).
  static func contents(of path: String, inside boundary: FolderBoundary) throws -> Data {
    try Cancellation.check()
    if let kind = FileManager.default.notRegularFileKind(atPath: path) {
      throw DeckError(.unreadableFile, at: SourceLocation(file: path), "cannot be read (it is \(kind), not a file)")
    }
    if let link = boundary.outsideLink(at: path) {
      throw DeckError(
        .unreadableFile, at: SourceLocation(file: path),
        "cannot be read (it is \(link); only the folder's own files are read)")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DeckError(.unreadableFile, at: SourceLocation(file: path), "cannot be read (\(error.localizedDescription))")
    }
  }

  /// `data` decoded as `T`: invalid JSON by line and column, a value of the wrong shape by its
  /// JSON path.
  static func decode<T: Decodable>(_ type: T.Type, from data: Data, location: SourceLocation) throws -> T {
    try data.withUnsafeBytes { _ = try JSONSyntaxPass(bytes: $0, location: location) }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch let error as DecodingError {
      throw DecodingErrorMessage.deckError(error, location: location, json: data)
    }
  }

  /// `data` decoded as `T` (``decode(_:from:location:)``), and a warning for each key in it
  /// that `T` lacks.
  static func decodeNamingUnknownKeys<T: Decodable>(
    _ type: T.Type, from data: Data, location: SourceLocation, keyCheck: UnknownKeys = UnknownKeys()
  ) throws -> (T, [Diagnostic]) {
    let value = try decode(T.self, from: data, location: location)
    let warnings = try data.withUnsafeBytes {
      try keyCheck.warnings(in: $0, decoded: value, path: "", location: location)
    }
    return (value, warnings)
  }

  /// The file `<folder>/<stem>.json`.
  func path(_ folderName: String, _ stem: String) -> String {
    folder.appendingPathComponent(folderName).appendingPathComponent(stem + ".json").path
  }

  /// The objects of the files `stems` names in `folderName`, in order.
  mutating func objects<T: Decodable>(_ stems: [String], _ key: String, _ folderName: String, _ type: T.Type) throws
    -> [T]
  {
    try checkListed(folderName, stems, key: key)
    var objects: [T] = []
    for stem in stems {
      let path = path(folderName, stem)
      let (object, warnings) = try Self.decodeNamingUnknownKeys(
        T.self, from: try Self.contents(of: path, inside: boundary), location: SourceLocation(file: path),
        keyCheck: keyCheck)
      objects.append(object)
      unknownKeys += warnings
    }
    return objects
  }

  /// Refuses a file in `folderName` that the index's `key` list does not name, and a name in
  /// the list without its file (names get `suffix`).
  func checkListed(_ folderName: String, _ stems: [String], key: String, suffix: String = ".json") throws {
    let directory = folder.appendingPathComponent(folderName)
    let present = Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    for (position, stem) in stems.enumerated() where !present.contains(stem + suffix) || stem.contains("/") {
      var place = indexLocation
      place.jsonPath = "\(key)[\(position)]"
      throw DeckError(
        .missingPart, at: place, "names '\(directory.appendingPathComponent(stem + suffix).path)', which does not exist"
      )
    }
    let listed = Set(stems.map { $0 + suffix })
    // Hidden files (.DS_Store, .gitkeep) are no part of the deck.
    if let stray = present.subtracting(listed).filter({ !$0.hasPrefix(".") }).sorted().first {
      throw DeckError(
        .corrupt, at: SourceLocation(file: directory.appendingPathComponent(stray).path),
        "is not listed in \(DeckJSONDirectory.indexFileName) (\(key)); list it there or remove it")
    }
  }

  /// The note file `notes/<stem>.json`.
  private mutating func noteFile(_ stem: String) throws -> DeckJSONNoteFile {
    let path = path(DeckJSONDirectory.notesFolder, stem)
    let (file, warnings) = try Self.decodeNamingUnknownKeys(
      DeckJSONNoteFile.self, from: try Self.contents(of: path, inside: boundary), location: SourceLocation(file: path),
      keyCheck: keyCheck)
    unknownKeys += warnings
    return file
  }

  /// `file`, checked to be named by its GUID (with `~2`… for the later notes sharing it) and
  /// to hold only its own note's cards. A note with neither GUID nor id is one added by hand: its
  /// file may have any name, and the note gets a GUID derived as a hand-written document's does.
  private func checkedNoteFile(
    _ stem: String, _ file: DeckJSONNoteFile, guids: inout DeckJSONDirectory.OccurrenceCounter<String>
  ) throws -> DeckJSONNoteFile {
    var location = SourceLocation(file: path(DeckJSONDirectory.notesFolder, stem))
    if file.note.guid == nil, file.note.id != nil {
      location.jsonPath = "note"
      throw DeckError(
        .corrupt, at: location,
        "the key \"guid\" is missing, but the note has an id; a note file keeps its note's GUID (only a note added by hand, with neither, gets one)"
      )
    }
    if let guid = file.note.guid {
      let expected = DeckJSONDirectory.noteFileStem(guid: guid, occurrence: guids.next(guid))
      guard expected == stem else {
        location.jsonPath = "note.guid"
        throw DeckError(
          .corrupt, at: location,
          "the GUID '\(TerminalText.escaped(guid))' belongs in \(expected).json, not \(stem).json; rename the file (and its entry in \(DeckJSONDirectory.indexFileName)), fix the GUID, or leave both the GUID and the id out for a note added by hand"
        )
      }
    }
    if file.cards == nil, let reviews = file.reviews, !reviews.isEmpty {
      location.jsonPath = "reviews"
      throw DeckError(
        .corrupt, at: location,
        "the file has reviews but no \"cards\"; reviews belong to the cards they name, and a note file without cards gets new ones"
      )
    }
    for (offset, card) in (file.cards ?? []).enumerated() where file.note.id != nil && card.note != file.note.id {
      location.jsonPath = "cards[\(offset)].note"
      throw DeckError(
        .corrupt, at: location, "is \(card.note), but the card is in the file of note \(file.note.id ?? 0)")
    }
    return file
  }

  /// Where each card (or review) goes: by `given` (each item's note position) when the index has
  /// it, else every note's items then `extra`, sorted by id.
  mutating func order(_ groups: [[Int64]], extra: [Int64], given: [Int]?, key: String) throws -> [(
    owner: Int, offset: Int
  )] {
    var places: [(owner: Int, offset: Int)] = []
    if let given {
      var taken = Array(repeating: 0, count: groups.count)
      var takenExtra = 0
      var place = indexLocation
      for (position, owner) in given.enumerated() {
        place.jsonPath = "\(key)[\(position)]"
        if owner == -1 && key == "reviewOrder" && takenExtra < extra.count {
          places.append((-1, takenExtra))
          takenExtra += 1
        } else if owner >= 0 && owner < groups.count && taken[owner] < groups[owner].count {
          places.append((owner, taken[owner]))
          taken[owner] += 1
        } else {
          throw DeckError(
            .corrupt, at: place,
            "\(owner) is not the position of a note with one more item here (the note files do not match the order)")
        }
      }
      let total = groups.reduce(0) { $0 + $1.count } + extra.count
      guard places.count == total else {
        place.jsonPath = key
        throw DeckError(.corrupt, at: place, "lists \(places.count) items, but the note files hold \(total)")
      }
    } else {
      var items: [(id: Int64, owner: Int, offset: Int, sequence: Int)] = []
      for (owner, ids) in groups.enumerated() {
        for (offset, id) in ids.enumerated() { items.append((id, owner, offset, items.count)) }
      }
      for (offset, id) in extra.enumerated() { items.append((id, -1, offset, items.count)) }
      places = items.sorted { ($0.id, $0.sequence) < ($1.id, $1.sequence) }.map { ($0.owner, $0.offset) }
    }
    if key == "cardOrder" { cardPlaces = places } else { reviewPlaces = places }
    return places
  }

  /// Runs `body`, giving a ``DeckError`` it throws the file and path its JSON path stands for.
  func relocating<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DeckError {
      var moved = error
      moved.location = relocated(error.location)
      throw moved
    }
  }

  /// `warnings`, each naming the file its JSON path stands for.
  func relocated(_ warnings: [Diagnostic]) -> [Diagnostic] {
    warnings.map { warning in
      var moved = warning
      moved.location = relocated(warning.location)
      return moved
    }
  }

  /// The file and path inside it that a JSON path of the assembled document stands for:
  /// `notes[3].fields` is `notes/<stem>.json` at `note.fields`.
  func relocated(_ location: SourceLocation) -> SourceLocation {
    guard location.file == indexLocation.file, let jsonPath = location.jsonPath,
      let open = jsonPath.firstIndex(of: "["), let close = jsonPath.firstIndex(of: "]"), open < close,
      let position = Int(jsonPath[jsonPath.index(after: open)..<close])
    else { return location }
    let section = String(jsonPath[..<open])
    let rest = String(jsonPath[jsonPath.index(after: close)...])
    var moved = location
    func into(_ folderName: String, _ stems: [String], _ path: String) {
      guard position >= 0 && position < stems.count else { return }
      moved.file = self.path(folderName, stems[position])
      moved.jsonPath = path
    }
    switch section {
    case "deckOptions":
      into(
        DeckJSONDirectory.deckOptionsFolder, index.deckOptions, rest.isEmpty ? "(top level)" : String(rest.dropFirst()))
    case "decks":
      into(DeckJSONDirectory.decksFolder, index.decks, rest.isEmpty ? "(top level)" : String(rest.dropFirst()))
    case "noteTypes":
      into(DeckJSONDirectory.noteTypesFolder, index.noteTypes, rest.isEmpty ? "(top level)" : String(rest.dropFirst()))
    case "notes": into(DeckJSONDirectory.notesFolder, noteStems, "note" + rest)
    case "cards", "reviews":
      let places = section == "cards" ? cardPlaces : reviewPlaces
      guard position < places.count else { return location }
      let place = places[position]
      if place.owner < 0 {
        moved.jsonPath = "reviewsWithoutCard[\(place.offset)]" + rest
      } else {
        into(DeckJSONDirectory.notesFolder, noteStems, "\(section)[\(place.offset)]" + rest)
      }
    default: break
    }
    return moved
  }
}
