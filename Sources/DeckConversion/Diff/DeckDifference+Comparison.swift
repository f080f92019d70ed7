import DeckAnki
import DeckCore
import Foundation

extension DeckDifference {
  /// Compares two decks: what changed from `old` to `new`. Each part is compared only when both
  /// decks' formats hold it (``FormatDescription/holds``); the rest is listed in
  /// ``notCompared``. `fromName` and `toName` name the decks in the report (their files).
  ///
  /// Notes are matched by GUID, cards by their note's GUID and template position, reviews by id,
  /// deletion records by kind, id and update sequence number, option groups by id, then name
  /// (their settings as Anki's schema-11 `dconf` entry has them), settings and properties by key
  /// (their values by meaning: an object's members in any order), tags of the list by name,
  /// media files by name (in NFC), note types and decks by id, then by name (by name alone when
  /// a format holds no ids). Media files are compared by the SHA-1 of their bytes, read one
  /// file at a time in chunks. A card due on a day (under review, or in learning across days) is
  /// compared by the date it is due on, as ``DeckCollection/due(of:timeZone:)`` gives it in
  /// `timeZone`, not by its day number: the number counts days from its collection's creation,
  /// so a creation time moved with every day number moved to match changes no card, and a
  /// creation time moved alone changes every such card.
  ///
  /// ``ankiImport`` follows the update choices `ankiImportOptions` (by default those of Anki's
  /// import dialog).
  ///
  /// With `onlyDecks` or `onlyTags`, each side is compared as
  /// ``DeckCollection/selectingNotes(inDecks:taggedWith:spelling:at:)`` keeps it: the notes with a card in
  /// one of those decks or their subdecks, or with one of those tags or a subtag, whole, and what
  /// they use (a note moved out of the decks, or that lost the tags, shows as removed).
  /// ``ankiImport`` is then what Anki's import of the `to` deck's part, exported alone, does to a
  /// collection holding the whole `from` deck: a note of the part that the collection keeps in
  /// another deck is updated or kept there, not new.
  ///
  /// - Throws: ``DeckError`` when a media file of either deck cannot be read, or
  ///   (``DeckError/Kind/invalidRequest``, at `fromName` or `toName`) when a side has no deck
  ///   of a name in `onlyDecks`, or no note with a tag of `onlyTags`; `CancellationError` when
  ///   the task it runs in is cancelled (it stops between two media files).
  public init(
    from old: LoadedDeck, to new: LoadedDeck, fromName: String = "", toName: String = "",
    ankiImportOptions: AnkiImportOptions = AnkiImportOptions(), onlyDecks: [String] = [], onlyTags: [String] = [],
    timeZone: TimeZone = .current
  ) throws {
    var (oldPart, newPart) = (old, new)
    from = Side(name: fromName, format: old.formatName)
    to = Side(name: toName, format: new.formatName)
    let selects = !onlyDecks.isEmpty || !onlyTags.isEmpty
    if selects {
      let oldSelection = try old.collection.selectingNotes(
        inDecks: onlyDecks, taggedWith: onlyTags, spelling: AnkiNameSpelling(formatName: old.formatName),
        at: SourceLocation(file: fromName))
      let newSelection = try new.collection.selectingNotes(
        inDecks: onlyDecks, taggedWith: onlyTags, spelling: AnkiNameSpelling(formatName: new.formatName),
        at: SourceLocation(file: toName))
      oldPart.collection = oldSelection.collection
      newPart.collection = newSelection.collection
      from.selection = oldSelection.selection
      to.selection = newSelection.selection
    }
    let comparison = DeckComparison(old: oldPart, new: newPart, timeZone: timeZone)
    notCompared = DeckAspect.allCases.filter { !comparison.compared.contains($0) }.map { aspect in
      // The decks whose format lacks the aspect, each format named once.
      var lacking: [LoadedDeck] = []
      for deck in [old, new]
      where !deck.heldAspects.contains(aspect)
        && !lacking.contains(where: { $0.formatName == deck.formatName })
      {
        lacking.append(deck)
      }
      let formats = lacking.map(\.formatName)
      let parts = lacking.map { $0.readFormat?.holdsInPart[aspect] ?? "none" }
      let holders =
        parts.count == 2 && parts[0] == parts[1]
        ? "\(formats[0]) and \(formats[1]) hold \(parts[0])"
        : zip(formats, parts).map { "\($0) holds \($1)" }.joined(separator: "; ")
      return NotCompared(aspect: aspect, formats: formats, explanation: "\(aspect.title): not compared (\(holders))")
    }
    notes = comparison.noteDifferences()
    tags = comparison.tagDifferences()
    noteTypes = comparison.noteTypeDifferences()
    decks = comparison.deckDifferences()
    deckOptions = comparison.deckOptionDifferences()
    scheduling = comparison.schedulingDifferences()
    creationTime = comparison.creationTimeChange()
    reviews = comparison.reviewDifferences()
    media = try comparison.mediaDifferences()
    deletions = comparison.deletionDifferences()
    settings = comparison.settingDifferences()
    tagRegistry = comparison.tagRegistryDifferences()
    ankiProperties = comparison.ankiPropertyDifferences()
    if !selects {
      ankiImport = comparison.ankiImportPreview(
        noteChanges: notes.changed, noteTypeChanges: noteTypes.changed, cardChanges: scheduling.changed,
        cardAdditions: scheduling.added, options: ankiImportOptions)
    } else {
      // The collection the part is imported into is the whole `from` deck.
      let importing = DeckComparison(old: old, new: newPart, timeZone: timeZone)
      let scheduling = importing.schedulingDifferences()
      ankiImport = importing.ankiImportPreview(
        noteChanges: importing.noteDifferences().changed, noteTypeChanges: importing.noteTypeDifferences().changed,
        cardChanges: scheduling.changed, cardAdditions: scheduling.added, options: ankiImportOptions)
    }
  }
}

/// The two collections being compared, indexed, and the parts both formats hold; each part's
/// comparison is in its own `DeckComparison+Part.swift` file.
struct DeckComparison {
  let old: DeckCollection
  let new: DeckCollection
  /// The aspects both formats hold.
  let compared: Set<DeckAspect>
  /// Each side's notes by ``noteKeys(_:)``: the first note of a GUID under the GUID itself.
  let oldNotes: [String: Note]
  let newNotes: [String: Note]
  /// The keys of the notes paired by their text rather than their GUID
  /// (``pairByText(_:_:)``), and how: the same text, which their note types may lay out
  /// otherwise, or the same plain text.
  let pairedByText: [String: TextPairing]
  /// Each side's note keys (``noteKeys(_:)``) by note id, made once.
  let oldNoteKeys: [Int64: String]
  let newNoteKeys: [Int64: String]
  let oldNoteTypes: [Int64: NoteType]
  let newNoteTypes: [Int64: NoteType]
  /// The time zone whose dates cards due on a day are compared by.
  let timeZone: TimeZone

  /// The parts both decks' formats hold in the same part (two CrowdAnki folders: what Anki keeps
  /// of decks and note types that CrowdAnki's export writes), which are compared: each side holds
  /// the same of them.
  static func heldInTheSamePart(by old: LoadedDeck, _ new: LoadedDeck) -> Set<DeckAspect> {
    let oldParts = old.readFormat?.holdsInPart ?? [:]
    let newParts = new.readFormat?.holdsInPart ?? [:]
    return Set(oldParts.keys.filter { newParts[$0] == oldParts[$0] })
  }

  init(old: LoadedDeck, new: LoadedDeck, timeZone: TimeZone) {
    self.timeZone = timeZone
    self.old = old.collection
    self.new = new.collection
    compared = old.heldAspects.intersection(new.heldAspects).union(Self.heldInTheSamePart(by: old, new))
    oldNoteKeys = Self.noteKeys(old.collection.notes)
    newNoteKeys = Self.noteKeys(new.collection.notes)
    var oldNotes = Self.byKey(old.collection.notes, oldNoteKeys)
    let newNotes = Self.byKey(new.collection.notes, newNoteKeys)
    pairedByText =
      compared.contains(.noteGUIDs)
      ? [:] : Self.pairByText(&oldNotes, newNotes, oldMedia: old.collection.media, newMedia: new.collection.media)
    self.oldNotes = oldNotes
    self.newNotes = newNotes
    oldNoteTypes = Dictionary(old.collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    newNoteTypes = Dictionary(new.collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Notes by the key ``noteKeys(_:)`` gives them (`keys`).
  private static func byKey(_ notes: [Note], _ keys: [Int64: String]) -> [String: Note] {
    Dictionary(notes.map { (keys[$0.id] ?? $0.guid, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// How two notes were paired by their text (``pairByText(_:_:)``).
  enum TextPairing {
    /// Their non-empty fields hold the same text in the same order.
    case sameText
    /// Their fields hold the same plain text (markup, media references and character references
    /// aside; ``plainText(_:)``) in the same order, but not the same text: `positions` are the
    /// fields that hold plain text, the old note's beside the new one's.
    case samePlainText(positions: [(old: Int, new: Int)])
    /// Neither holds plain text, and their fields refer to media files of the same bytes in the
    /// same order (a picture alone, which app storage names by its SHA-1).
    case samePictures
  }

  /// Where a format holds no note GUIDs (app storage): each new note that no old note matches
  /// by GUID is paired with the first old note left unmatched whose non-empty fields have the
  /// same text in the same order, which is keyed as the new one, so the two are compared as one
  /// note. Records keep a note's text but not its note type's layout (the records of several
  /// note types share one, with an empty field for each key a note lacks), so empty fields do
  /// not count. The notes still unmatched are then paired the same way by their fields' plain
  /// text: records hold text, not HTML, so a field whose formatting or picture did not fit
  /// differs only there, and is shown as a change of that note. Keys are taken in sorted order,
  /// so the pairing does not depend on the decks' order of notes. Last, notes without plain text
  /// (a picture alone) are paired by the bytes of the media their fields refer to (`oldMedia`,
  /// `newMedia`: each side's files), as app storage renames a picture by its SHA-1. Returns the
  /// keys paired so.
  private static func pairByText(
    _ oldNotes: inout [String: Note], _ newNotes: [String: Note], oldMedia: [MediaFile], newMedia: [MediaFile]
  ) -> [String: TextPairing] {
    var paired: [String: TextPairing] = [:]
    pair(&oldNotes, newNotes, into: &paired) { note in
      (note.fields.filter { !$0.isEmpty }, [])
    } as: { _, _ in
      .sameText
    }
    // A note without plain text (a picture alone) is paired by its pictures below.
    pair(&oldNotes, newNotes, into: &paired) { note in
      let fields = plainText(note)
      return fields.isEmpty ? nil : (fields.map(\.text), fields.map(\.index))
    } as: { old, new in
      .samePlainText(positions: zip(old, new).map { ($0, $1) })
    }
    var oldPictures = MediaDigests(oldMedia)
    var newPictures = MediaDigests(newMedia)
    pair(&oldNotes, newNotes, into: &paired) { note in
      oldPictures.key(of: note)
    } newBy: { note in
      newPictures.key(of: note)
    } as: { _, _ in
      .samePictures
    }
    return paired
  }

  /// The SHA-1s of one side's media files, read when a note without plain text needs them.
  private struct MediaDigests {
    private let files: [String: MediaFile]
    private var digests: [String: String] = [:]

    init(_ media: [MediaFile]) {
      files = Dictionary(media.map { ($0.name.canonicallyComposed, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// For a note without plain text that refers to media, the SHA-1 of each file its fields
    /// refer to, in order (a file the side lacks, or cannot read, by its name); nil otherwise.
    mutating func key(of note: Note) -> (text: [String], positions: [Int])? {
      guard DeckComparison.plainText(note).isEmpty else { return nil }
      var key: [String] = []
      for field in note.fields {
        for name in MediaReferences.fileNames(in: field) {
          key.append(digest(of: name.canonicallyComposed))
        }
      }
      return key.isEmpty ? nil : (key, [])
    }

    private mutating func digest(of name: String) -> String {
      if let known = digests[name] { return known }
      let digest =
        files[name].flatMap { try? $0.blob.fingerprint() }.map { SHA1.hex($0.sha1) } ?? "missing \(name)"
      digests[name] = digest
      return digest
    }
  }

  /// One pass of ``pairByText(_:_:)``: the notes left unmatched, paired by the `text` of their
  /// fields, with the positions of those fields (a note without it, nil, is not paired).
  private static func pair(
    _ oldNotes: inout [String: Note], _ newNotes: [String: Note], into paired: inout [String: TextPairing],
    by text: (Note) -> (text: [String], positions: [Int])?,
    newBy newText: ((Note) -> (text: [String], positions: [Int])?)? = nil,
    as pairing: ([Int], [Int]) -> TextPairing
  ) {
    var unmatchedOld: [[String]: [(key: String, positions: [Int])]] = [:]
    for noteKey in oldNotes.keys.sorted() where newNotes[noteKey] == nil {
      guard let note = oldNotes[noteKey], let found = text(note) else { continue }
      unmatchedOld[found.text, default: []].append((noteKey, found.positions))
    }
    guard !unmatchedOld.isEmpty else { return }
    // Each list reversed, so the first key is taken from the end, in place.
    unmatchedOld = unmatchedOld.mapValues { $0.reversed() }
    for noteKey in newNotes.keys.sorted() where oldNotes[noteKey] == nil {
      guard let note = newNotes[noteKey], let found = newText.map({ $0(note) }) ?? text(note),
        let old = unmatchedOld[found.text]?.popLast()
      else { continue }
      oldNotes[noteKey] = oldNotes.removeValue(forKey: old.key)
      paired[noteKey] = pairing(old.positions, found.positions)
    }
  }

  /// The fields of `note` that hold plain text, with their positions: each as one line without
  /// markup, media references or character references (``AnkiFieldText/plainTextLine(_:)``,
  /// then ``HTMLEntities/decode(_:)`` for the references Anki's decoder leaves),
  /// each run of white space as one space (a no-break space too: `&nbsp;` reads as a space, and
  /// app text holds the character), trimmed.
  static func plainText(_ note: Note) -> [(index: Int, text: String)] {
    note.fields.indices.compactMap { index in
      // Anki's decoder leaves every reference of a field undecoded when one `&` is not a
      // reference (`Tom & Jerry&#x27;s`); records hold the text decoded.
      let text = HTMLEntities.decode(AnkiFieldText.plainTextLine(note.fields[index])).collapsingWhiteSpace()
      return text.isEmpty ? nil : (index, text)
    }
  }

  /// The key each note (by id) is matched by across the two sides: its GUID; for a later note
  /// that shares the GUID (an empty one, or a copy), the GUID with its place among those notes
  /// (`guid␀2` for the second), so that the second note of a GUID on one side is compared with
  /// the second on the other, not folded into the first.
  static func noteKeys(_ notes: [Note]) -> [Int64: String] {
    var seen: [String: Int] = [:]
    var keys: [Int64: String] = [:]
    keys.reserveCapacity(notes.count)
    for note in notes where keys[note.id] == nil {
      let count = seen[note.guid, default: 0] + 1
      seen[note.guid] = count
      keys[note.id] = count == 1 ? note.guid : note.guid + occurrenceSeparator + String(count)
    }
    return keys
  }

  /// The GUID a note key (``noteKeys(_:)``) names.
  static func guid(ofKey key: String) -> String {
    guard let separator = key.utf8.firstIndex(of: 0) else { return key }
    return String(key[..<separator])
  }

  /// The place of a note key's note among the notes of its GUID (1 for the first).
  static func occurrence(ofKey key: String) -> Int {
    guard let separator = key.utf8.firstIndex(of: 0) else { return 1 }
    return Int(key[key.utf8.index(after: separator)...]) ?? 1
  }

  /// Whether a note key names the first note of its GUID (as Anki's import, which matches by
  /// GUID alone, sees the notes). The separator is looked for as a byte: these run for every
  /// note, and a `String` search goes through Foundation.
  static func isFirstOfGUID(_ key: String) -> Bool { !key.containsUTF8Byte(0) }

  /// What comes between a GUID and its note's place in a note key (U+0000, which no GUID holds).
  private static let occurrenceSeparator = "\u{0}"

  /// Pairs items that have an id and a name (note types, decks) as
  /// ``paired(_:_:id:name:)`` does; the items left without a partner are returned as entries,
  /// sorted by name, then id.
  func pairedByName<Item>(
    _ oldItems: [Item], _ newItems: [Item], id: (Item) -> Int64, name: (Item) -> String
  ) -> (pairs: [(old: Item, new: Item)], removed: [DeckDifference.NamedEntry], added: [DeckDifference.NamedEntry]) {
    let matched = paired(oldItems, newItems, id: id, name: name)
    func entries(_ items: [Item]) -> [DeckDifference.NamedEntry] {
      items.map { DeckDifference.NamedEntry(id: id($0), name: name($0)) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
    return (matched.pairs, entries(matched.removed), entries(matched.added))
  }

  /// Pairs items of the old and new side: by id first (when both formats hold ids), then the
  /// rest by name. Returns the pairs (in the new side's order) and the items of each side left
  /// without a partner.
  func paired<Item>(
    _ oldItems: [Item], _ newItems: [Item], id: (Item) -> Int64, name: (Item) -> String
  ) -> (pairs: [(old: Item, new: Item)], removed: [Item], added: [Item]) {
    var unmatchedOld = Array(oldItems.indices)
    var partner: [Int: Int] = [:]  // new index → old index
    if compared.contains(.identities) {
      var oldByID: [Int64: Int] = [:]
      for index in oldItems.indices where oldByID[id(oldItems[index])] == nil { oldByID[id(oldItems[index])] = index }
      for index in newItems.indices {
        if let match = oldByID.removeValue(forKey: id(newItems[index])) { partner[index] = match }
      }
      let taken = Set(partner.values)
      unmatchedOld.removeAll { taken.contains($0) }
    }
    var oldByName: [String: [Int]] = [:]
    for index in unmatchedOld { oldByName[name(oldItems[index]), default: []].append(index) }
    for index in newItems.indices where partner[index] == nil {
      if var candidates = oldByName[name(newItems[index])], !candidates.isEmpty {
        partner[index] = candidates.removeFirst()
        oldByName[name(newItems[index])] = candidates
      }
    }
    let taken = Set(partner.values)
    return (
      newItems.indices.compactMap { index in partner[index].map { (oldItems[$0], newItems[index]) } },
      oldItems.indices.filter { !taken.contains($0) }.map { oldItems[$0] },
      newItems.indices.filter { partner[$0] == nil }.map { newItems[$0] }
    )
  }
}
