import DeckCore
import Foundation
import JSONCore

// The one boundary between the JSON format's types and the shared model.

extension DeckJSONDocument {
  /// The document for `collection`; each media file's `data` is left empty, for the writer to
  /// stream in.
  init(_ collection: DeckCollection, location: SourceLocation) throws {
    self.init(
      creationTime: collection.creationTime,
      deckOptions: collection.deckOptions.map(DeckOptionsJSON.init),
      decks: collection.decks.map(DeckJSON.init),
      noteTypes: collection.noteTypes.map(NoteTypeJSON.init),
      notes: try Self.notes(of: collection, location: location),
      cards: collection.cards.map(CardJSON.init),
      reviews: collection.reviews.map(ReviewJSON.init),
      deletions: collection.deletions.isEmpty ? nil : collection.deletions.map(DeletionJSON.init),
      settings: StringMembersJSON(properties: collection.settings),
      tagRegistry: collection.tagRegistry.isEmpty ? nil : collection.tagRegistry.map(RegisteredTagJSON.init),
      media: try collection.media.map { file in
        let fingerprint = try file.blob.fingerprint()
        return MediaJSON(
          name: file.name, mimeType: file.mimeType, sha1: SHA1.hex(fingerprint.sha1),
          size: fingerprint.size, data: "")
      })
  }

  private static func notes(of collection: DeckCollection, location: SourceLocation) throws -> [NoteJSON] {
    let fieldNames = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fieldNames) }, uniquingKeysWith: { first, _ in first })
    return try collection.notes.map { note in
      noteJSON(note, names: try Self.fieldNames(for: note, in: fieldNames, location: location))
    }
  }

  /// The field names `note`'s values are keyed by: its note type's, when it has one and as many
  /// fields as the note has values.
  static func fieldNames(for note: Note, in fieldNames: [Int64: [String]], location: SourceLocation) throws
    -> [String]
  {
    guard let names = fieldNames[note.noteTypeID] else {
      throw DeckError(
        .invalidRequest, at: location,
        "note \(note.id) uses note type \(note.noteTypeID), which the deck does not define; the JSON format keys field values by the note type's field names"
      )
    }
    guard names.count == note.fields.count else {
      throw DeckError(
        .invalidRequest, at: location,
        "note \(note.id) has \(note.fields.count) field values but its note type has \(names.count) fields; the JSON format keys field values by field name"
      )
    }
    return names
  }

  /// The document's form of `note`, its values keyed by `names`.
  static func noteJSON(_ note: Note, names: [String]) -> NoteJSON {
    NoteJSON(
      id: note.id, guid: note.guid, noteType: .id(note.noteTypeID),
      fields: StringMembersJSON(Array(zip(names, note.fields)).map { (name: $0.0, value: $0.1) }),
      tags: note.tags, modified: note.modificationTime)
  }
}

extension DeckOptionsJSON {
  init(_ options: DeckOptions) {
    id = options.id
    name = options.name
    modified = options.modificationTime
    switch options.settings {
    case .anki11JSON(let text): anki11Json = text
    case .anki18Protobuf(let blob): anki18Protobuf = blob.base64EncodedString()
    }
    ankiProperties = StringMembersJSON(properties: options.ankiProperties)
  }
}

extension DeckJSON {
  init(_ deck: Deck) {
    id = deck.id
    name = deck.name
    description = deck.description
    descriptionIsMarkdown = deck.descriptionIsMarkdown
    modified = deck.modificationTime
    crowdAnkiUUID = deck.crowdAnkiUUID
    ankiProperties = StringMembersJSON(properties: deck.ankiProperties)
    switch deck.kind {
    case .normal(let optionsID): options = optionsID
    case .filtered(let settings):
      filtered = FilteredDeckJSON(
        reschedule: settings.reschedule,
        searchTerms: settings.searchTerms.map {
          .init(search: $0.search, limit: $0.limit, order: $0.order)
        })
    }
  }
}

extension NoteTypeJSON {
  init(_ noteType: NoteType) {
    id = noteType.id
    name = noteType.name
    kind = noteType.kind.rawValue
    fields = noteType.fields.map {
      FieldJSON(
        name: $0.name, font: $0.fontName, fontSize: $0.fontSize, rightToLeft: $0.rightToLeft,
        sticky: $0.sticky, description: $0.description, plainText: $0.plainText,
        collapsed: $0.collapsed, excludeFromSearch: $0.excludeFromSearch, ankiId: $0.ankiID,
        tag: $0.tag, preventDeletion: $0.preventDeletion,
        ankiProperties: StringMembersJSON(properties: $0.ankiProperties))
    }
    templates = noteType.templates.map {
      TemplateJSON(
        name: $0.name, question: $0.questionFormat, answer: $0.answerFormat,
        browserQuestion: $0.browserQuestionFormat, browserAnswer: $0.browserAnswerFormat,
        browserFont: $0.browserFontName, browserFontSize: $0.browserFontSize,
        targetDeck: $0.targetDeckID, ankiId: $0.ankiID,
        ankiProperties: StringMembersJSON(properties: $0.ankiProperties))
    }
    css = noteType.css
    sortField = noteType.sortFieldIndex
    latexPreamble = noteType.latexPreamble
    latexPostamble = noteType.latexPostamble
    latexSvg = noteType.latexSVG
    originalStockKind = noteType.originalStockKind
    originalId = noteType.originalID
    modified = noteType.modificationTime
    crowdAnkiUUID = noteType.crowdAnkiUUID
    ankiProperties = StringMembersJSON(properties: noteType.ankiProperties)
  }
}

extension CardJSON {
  init(_ card: Card) {
    let s = card.scheduling
    self.init(
      id: card.id, note: card.noteID, template: card.templateOrdinal, deck: .id(card.deckID),
      modified: card.modificationTime,
      scheduling: SchedulingJSON(
        type: s.type.rawValue, queue: s.queue.rawValue, due: s.due, interval: s.interval, easeFactor: s.easeFactor,
        reviews: s.reviews, lapses: s.lapses, remainingSteps: s.remainingSteps, flags: s.flags,
        originalDue: s.originalDue, originalDeck: s.originalDeckID, data: s.data))
  }
}

extension ReviewJSON {
  init(_ review: Review) {
    self.init(
      id: review.id, card: review.cardID, button: review.ease, interval: review.interval,
      lastInterval: review.lastInterval, easeFactor: review.easeFactor, duration: review.duration,
      kind: review.kind.rawValue)
  }
}

extension DeletionJSON {
  init(_ deletion: Deletion) {
    self.init(id: deletion.objectID, kind: deletion.kind.rawValue, usn: deletion.updateSequenceNumber)
  }
}

extension StringMembersJSON {
  /// The document's form of a collection's settings or of a deck's, note type's, field's or
  /// template's properties, sorted by key (as a reader gives them), or nil when there are none.
  init?(properties: [AnkiProperty]) {
    guard !properties.isEmpty else { return nil }
    let sorted = properties.sorted { $0.key < $1.key }
    self.init(names: sorted.map(\.key), values: sorted.map(\.jsonText))
  }
}

extension RegisteredTagJSON {
  init(_ tag: RegisteredTag) {
    self.init(name: tag.name, usn: tag.updateSequenceNumber, collapsed: tag.isCollapsed)
  }
}

extension RegisteredTag {
  init(_ tag: RegisteredTagJSON) {
    self.init(name: tag.name, updateSequenceNumber: tag.usn, isCollapsed: tag.collapsed)
  }
}

extension Deletion {
  init(_ deletion: DeletionJSON) {
    self.init(
      objectID: deletion.id, kind: DeletionKind(rawValue: deletion.kind), updateSequenceNumber: deletion.usn)
  }
}

// MARK: - Document to model

/// Turns a decoded document into the model, resolving references and reporting the JSON path
/// of the first problem.
///
/// The reader may hand over the document's notes, cards and reviews one at a time (``add(note:index:)``
/// and the like, after ``mapHeader(_:)``) instead of in the document; either way the model and
/// the first problem reported are the same, as ``collection(from:)`` shows.
struct DeckJSONModelMapping {
  let location: SourceLocation
  /// Makes the blob for `media[index]`.
  let mediaBlob: (_ index: Int, _ media: MediaJSON) throws -> MediaBlob

  /// The modification time of each note that gives none (and of the cards made for it): the
  /// document file's, in seconds since 1970, so that a hand-written document edited later
  /// updates the notes Anki imported from it. A json-dir note file's own time comes first
  /// (``add(note:index:makesCards:fileTime:)``).
  var modificationTime: Int64 = 0
  /// Whether the document leaves its cards out (it has no `cards` key): each note then gets the
  /// cards Anki would make for it on import, in the deck it names (``NoteJSON/deck``), or the
  /// document's only deck, or Default. A json-dir note file without `cards` asks the same for
  /// its own note (``add(note:index:makesCards:)``).
  var makesCards = false

  private(set) var collection = DeckCollection()
  private(set) var warnings: [Diagnostic] = []
  /// The positions of the notes that give no modification time: they have their file's.
  private var notesWithoutTime: [Int] = []
  /// The positions of the notes that give no GUID: theirs is derived once every note and card
  /// is known (``completeNotes()``), from their deck.
  private var notesWithoutGUID: [Int] = []
  /// The positions of the notes that give neither GUID nor id: their id follows their GUID.
  private var notesWithoutID = Set<Int>()
  /// The positions of the notes that get the cards Anki would make (in order), and the deck
  /// each names (nil where it names none).
  private var notesMakingCards: [Int] = []
  private var namedDecks: [Int64?] = []
  /// The decks the document defines (``DeckTable/init(known:)``), and those its notes name
  /// without defining them, added with their parents.
  private var deckTable = DeckTable()
  /// The normal decks the document itself defines, and how many decks it defines: a note that
  /// names no deck gets its cards in the only normal one, or in Default when there is none.
  private var definedNormalDecks: [Int64] = []
  private var definedDeckCount = 0
  /// The empty values the notes that leave fields out are filled with, within their limit.
  private var fieldFilling = FieldFilling()
  private var noteTypesByID: [Int64: KnownNoteType] = [:]
  private var noteTypesByName: [String: KnownNoteType] = [:]
  // Sets of ids, not ids with their indexes: a million-note deck's index would cost some
  // 100 MB. The first index of a duplicate is looked up when one is found (notes and cards are
  // appended in document order, so a note's or card's index is its position).
  private var noteIDs = IDSet()
  /// The ids the document gives (not derived), for duplicate ids.
  private var givenNoteIDs = IDSet()
  private var deckIDsByName: [String: Int64] = [:]
  private var deckIDs = IDSet()
  private var cardIDs = IDSet()
  /// One array per distinct tag list (``TagListCache``).
  private var tagLists = TagListCache()

  init(location: SourceLocation, mediaBlob: @escaping (_ index: Int, _ media: MediaJSON) throws -> MediaBlob) {
    self.location = location
    self.mediaBlob = mediaBlob
  }

  /// The ids of the notes that give no modification time (they have their file's), once
  /// ``completeNotes()`` has given every note its id: a format that holds such times does not
  /// lose one of these notes' (``LoadedDeck/notesTimedByReader``).
  var notesTimedByFile: Set<Int64> { Set(notesWithoutTime.map { collection.notes[$0].id }) }

  /// The whole document at once: its header, notes, cards, reviews and media in turn.
  func collection(from document: DeckJSONDocument) throws -> (
    collection: DeckCollection, warnings: [Diagnostic], notesTimedByFile: Set<Int64>
  ) {
    var mapping = self
    mapping.makesCards = document.cards == nil
    try mapping.mapHeader(document)
    mapping.reserve(
      notes: document.notes.count, cards: document.cards?.count ?? 0, reviews: document.reviews?.count ?? 0)
    for (index, note) in document.notes.enumerated() { try mapping.add(note: note, index: index) }
    for (index, card) in (document.cards ?? []).enumerated() { try mapping.add(card: card, index: index) }
    for review in document.reviews ?? [] { mapping.add(review: review) }
    try mapping.completeNotes()
    try mapping.mapMedia(document.media)
    return (mapping.collection, mapping.warnings, mapping.notesTimedByFile)
  }

  /// The creation time, option groups, decks, note types and deletion records (not the
  /// document's notes, cards, reviews or media).
  mutating func mapHeader(_ document: DeckJSONDocument) throws {
    collection = DeckCollection(
      creationTime: document.creationTime ?? 0, deletions: (document.deletions ?? []).map(Deletion.init),
      settings: try properties(document.settings, path: "settings", what: "setting"),
      tagRegistry: (document.tagRegistry ?? []).map(RegisteredTag.init))
    collection.deckOptions = try (document.deckOptions ?? []).enumerated().map {
      try deckOptions($1, path: "deckOptions[\($0)]")
    }
    collection.decks = try (document.decks ?? []).enumerated().map { try deck($1, path: "decks[\($0)]") }
    collection.noteTypes = try (document.noteTypes ?? []).enumerated().map {
      try noteType($1, path: "noteTypes[\($0)]")
    }
    let known = collection.noteTypes.map { KnownNoteType(noteType: $0, fieldNames: $0.fieldNames) }
    noteTypesByID = Dictionary(known.map { ($0.noteType.id, $0) }, uniquingKeysWith: { a, _ in a })
    noteTypesByName = Dictionary(known.map { ($0.noteType.name, $0) }, uniquingKeysWith: { a, _ in a })
    deckIDsByName = Dictionary(collection.decks.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
    deckIDs = IDSet(minimumCapacity: collection.decks.count)
    for deck in collection.decks { deckIDs.insert(deck.id) }
    deckTable = DeckTable(known: collection.decks)
    definedNormalDecks = collection.decks.compactMap { if case .normal = $0.kind { $0.id } else { nil } }
    definedDeckCount = collection.decks.count
  }

  /// Room for this many notes, cards and reviews.
  mutating func reserve(notes: Int, cards: Int, reviews: Int) {
    collection.notes.reserveCapacity(notes)
    collection.cards.reserveCapacity(cards)
    collection.reviews.reserveCapacity(reviews)
    noteIDs.reserveCapacity(notes)
    cardIDs.reserveCapacity(cards)
  }

  /// `notes[index]`; notes come before cards. With `makesCards` (by default ``makesCards``) the
  /// note gets the cards Anki would make for it (a json-dir note file without `cards`). A note
  /// that gives no modification time has `fileTime` (a json-dir note file's time), or
  /// ``modificationTime``.
  mutating func add(note: NoteJSON, index: Int, makesCards noteMakesCards: Bool? = nil, fileTime: Int64? = nil)
    throws
  {
    let makesCards = noteMakesCards ?? self.makesCards
    let known: KnownNoteType
    switch note.noteType {
    case .id(let id):
      guard let found = noteTypesByID[id] else {
        throw problem("notes[\(index)].noteType", "no note type has the id \(id)")
      }
      known = found
    case .name(let name):
      known = try noteTypesByName[name] ?? addStockNoteType(named: name, path: "notes[\(index)].noteType")
    }
    var mapped = try self.note(note, of: known, index: index, fileTime: fileTime ?? modificationTime)
    mapped.tags = tagLists.shared(mapped.tags)
    if let id = note.id, !givenNoteIDs.insert(id) {
      let first = collection.notes.firstIndex { $0.id == id } ?? 0
      throw problem(
        "notes[\(index)].id",
        "notes[\(first)] has the same id \(id); cards refer to notes by id, so each note needs its own")
    }
    if let deck = note.deck {
      guard makesCards else {
        throw problem(
          "notes[\(index)].deck",
          noteMakesCards != nil
            ? "a note names its cards' deck only when it leaves its cards out; this one has 'cards', which name theirs"
            : "a note names its cards' deck only in a document that leaves the cards out; this document has 'cards', which name theirs"
        )
      }
      namedDecks.append(try deckForNewCards(deck, path: "notes[\(index)].deck"))
    } else if makesCards {
      namedDecks.append(nil)
    }
    if makesCards { notesMakingCards.append(collection.notes.count) }
    if note.guid?.isEmpty == true {
      warnings.append(
        Diagnostic(
          .guidEmpty, at: at("notes[\(index)].guid"),
          "the GUID is empty: Anki imports the note so, but cannot tell it from other notes without one when the package is imported again; a package deckport writes gives it a GUID derived from its note type and fields (leave \"guid\" out for one derived from its note type, deck and first field)"
        ))
    }
    if note.modified == nil { notesWithoutTime.append(collection.notes.count) }
    if note.guid == nil {
      notesWithoutGUID.append(collection.notes.count)
      if note.id == nil { notesWithoutID.insert(collection.notes.count) }
    }
    if note.id == nil, let guid = note.guid {
      // Notes that share a GUID (duplicates, which the package writer settles by
      // --duplicate-guids) each get an id of their own, as two notes.
      var occurrence = 2
      while noteIDs.contains(mapped.id) {
        mapped.id = DerivedID.id(for: "note\u{1F}\(guid)\u{1F}\(occurrence)")
        occurrence += 1
      }
    }
    collection.notes.append(mapped)
    if note.guid != nil || note.id != nil { noteIDs.insert(mapped.id) }
  }

  /// The stock note type Anki names `name` in one of its languages
  /// (``StockNoteType/noteType(named:fieldNames:)``), added to the collection for a note that
  /// names it and a document that does not define it (a hand-written one may leave it out).
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `path` when `name` is no stock note type's either,
  ///   or when its id is one the document gives another note type.
  private mutating func addStockNoteType(named name: String, path: String) throws -> KnownNoteType {
    guard let stock = StockNoteType.noteType(named: name) else {
      throw problem(path, "no note type is named '\(name)' in noteTypes, and it is none of Anki's stock note types")
    }
    if let known = noteTypesByName[stock.name] {
      noteTypesByName[name] = known
      return known
    }
    guard noteTypesByID[stock.id] == nil else {
      throw problem(
        path, "the stock note type '\(stock.name)' would take the id \(stock.id), which another note type has")
    }
    let known = KnownNoteType(noteType: stock, fieldNames: stock.fieldNames)
    collection.noteTypes.append(stock)
    noteTypesByID[stock.id] = known
    noteTypesByName[stock.name] = known
    noteTypesByName[name] = known
    return known
  }

  /// Gives each note without a GUID of its own one derived from its identity
  /// (``DerivedNoteGUIDs/next(noteTypeID:deck:firstField:)``: its note type, its first field
  /// and its top-level deck, the deck it names or that of its first card), and an id from that
  /// GUID to one without an id; then makes the cards of every note that leaves them out. After
  /// every note and card, before the media.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `notes[i]` when a note that leaves its cards out
  ///   names no deck and the document defines several.
  mutating func completeNotes() throws {
    try checkCardTemplates()
    var cardDecks: [Int64] = []
    cardDecks.reserveCapacity(notesMakingCards.count)
    var defaultDeck: Int64?
    for (named, index) in zip(namedDecks, notesMakingCards) {
      if let named {
        cardDecks.append(named)
      } else {
        let deck = try defaultDeck ?? defaultDeckForNewCards(noteIndex: index)
        defaultDeck = deck
        cardDecks.append(deck)
      }
    }
    let everyNoteMakesCards = notesMakingCards.count == collection.notes.count
    if !notesWithoutGUID.isEmpty {
      let deckNames = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
      var firstCardDecks: [Int64: Int64] = [:]
      for card in collection.cards where firstCardDecks[card.noteID] == nil {
        firstCardDecks[card.noteID] = card.deckID
      }
      let newCardDecks =
        everyNoteMakesCards
        ? [:] : Dictionary(zip(notesMakingCards, cardDecks), uniquingKeysWith: { first, _ in first })
      var guids = DerivedNoteGUIDs()
      var pending = notesWithoutGUID[...]
      for (index, note) in collection.notes.enumerated() {
        if pending.first == index {
          pending.removeFirst()
        } else {
          guids.insert(note.guid)
        }
      }
      for index in notesWithoutGUID {
        let note = collection.notes[index]
        let deckID = everyNoteMakesCards ? cardDecks[index] : newCardDecks[index] ?? firstCardDecks[note.id]
        let guid = guids.next(
          noteTypeID: note.noteTypeID, deck: deckID.flatMap { deckNames[$0] } ?? "",
          firstField: note.fields.first ?? "")
        collection.notes[index].guid = guid
        if notesWithoutID.contains(index) {
          collection.notes[index].id = DerivedID.id(for: "note\u{1F}" + guid)
          noteIDs.insert(collection.notes[index].id)
        }
      }
    }
    guard !notesMakingCards.isEmpty else { return }
    var made = try NewNotes.cards(
      for: everyNoteMakesCards ? collection.notes : notesMakingCards.map { collection.notes[$0] },
      deckIDs: cardDecks, noteTypes: collection.noteTypes, idSpace: "json",
      checkingCount: NewNotes.cardLimit { [location, notesMakingCards] position, _ in
        location.atJSONPath("notes[\(notesMakingCards[position])]")
      })
    // Beside cards a json-dir's note files hold: new cards after theirs in the new queue, and
    // no id one of theirs has.
    let lastNewPosition = collection.cards.lazy.filter { $0.scheduling.type == .new }.map(\.scheduling.due).max() ?? 0
    for index in made.indices {
      if lastNewPosition > 0, lastNewPosition < Int64.max - made[index].scheduling.due {
        made[index].scheduling.due += lastNewPosition
      }
      while !cardIDs.insert(made[index].id) { made[index].id &+= 1 }
    }
    collection.cards.append(contentsOf: made)
  }

  /// The deck the cards made for `notes[noteIndex]`, the first note that leaves its cards out
  /// and names no deck, go to: the only normal deck the document defines, or Default (added)
  /// when it defines none.
  private mutating func defaultDeckForNewCards(noteIndex: Int) throws -> Int64 {
    if definedNormalDecks.count == 1 { return definedNormalDecks[0] }
    if definedDeckCount == 0 {
      return try deckForNewCards(.name("Default"), path: "notes[\(noteIndex)]")
    }
    throw problem(
      "notes[\(noteIndex)]",
      definedNormalDecks.isEmpty
        ? "the note leaves its cards out and names no deck, and the only decks are filtered ones, which are no card's own deck; name a normal deck for its cards (\"deck\": a deck's name, added if it is new)"
        : "the note leaves its cards out and names no deck, and there are \(definedNormalDecks.count) decks; name the one for its cards (\"deck\": a deck's name or id)"
    )
  }

  /// The id of the deck `reference` names at `path` for a note's new cards: a normal deck the
  /// document defines (by id, or by name ignoring case, as Anki matches deck names), or one it
  /// names without defining it, added with the parents it lacks (as Anki's import adds them).
  private mutating func deckForNewCards(_ reference: Reference, path: String) throws -> Int64 {
    let id: Int64
    switch reference {
    case .id:
      id = try deckID(of: reference, path: path)
    case .name(let name):
      if let found = deckIDsByName[name] ?? deckTable.existingID(for: name) {
        id = found
      } else {
        guard !name.isEmpty else { throw problem(path, "a deck name is empty") }
        if let tooDeep = Deck.depthProblem(ofName: name) { throw problem(path, tooDeep) }
        var prefix = ""
        for component in Deck.levels(of: name).dropLast() {
          prefix += prefix.isEmpty ? component : Deck.levelSeparator + component
          if let parent = deckTable.existingID(for: prefix),
            let deck = collection.decks.first(where: { $0.id == parent }),
            case .filtered = deck.kind
          {
            throw problem(path, "'\(deck.name)' is a filtered deck, which cannot hold other decks")
          }
        }
        let before = deckTable.decks.count
        id = try deckTable.id(for: name, at: at(path))
        for deck in deckTable.decks[before...] {
          collection.decks.append(deck)
          deckIDs.insert(deck.id)
          deckIDsByName[deck.name] = deck.id
        }
      }
    }
    if let deck = collection.decks.first(where: { $0.id == id }), case .filtered = deck.kind {
      throw problem(path, "'\(deck.name)' is a filtered deck, which holds cards only while they are studied there")
    }
    return id
  }

  /// The id of the deck `reference` names at `path` (a name matched ignoring case, as a note's
  /// deck is).
  private mutating func deckID(of reference: Reference, path: String) throws -> Int64 {
    switch reference {
    case .id(let given):
      guard deckIDs.contains(given) else { throw problem(path, "no deck has the id \(given)") }
      return given
    case .name(let name):
      guard let found = deckIDsByName[name] ?? deckTable.existingID(for: name) else {
        throw problem(path, "no deck is named '\(name)'")
      }
      return found
    }
  }

  /// `cards[index]`, after every note; cards come before reviews.
  mutating func add(card: CardJSON, index: Int) throws {
    var path: String { "cards[\(index)]" }
    if !cardIDs.insert(card.id) {
      let first = collection.cards.firstIndex { $0.id == card.id } ?? 0
      throw problem(
        path + ".id",
        "cards[\(first)] has the same id \(card.id); reviews refer to cards by id, so each card needs its own")
    }
    guard noteIDs.contains(card.note) else { throw problem(path + ".note", "no note has the id \(card.note)") }
    let deckID = try deckID(of: card.deck, path: path + ".deck")
    let s = card.scheduling
    collection.cards.append(
      Card(
        id: card.id, noteID: card.note, templateOrdinal: card.template, deckID: deckID,
        modificationTime: card.modified ?? 0,
        scheduling: s.map {
          CardScheduling(
            type: CardType(rawValue: $0.type), queue: CardQueue(rawValue: $0.queue), due: $0.due, interval: $0.interval,
            easeFactor: $0.easeFactor,
            reviews: $0.reviews, lapses: $0.lapses, remainingSteps: $0.remainingSteps, flags: $0.flags,
            originalDue: $0.originalDue, originalDeckID: $0.originalDeck, data: $0.data)
        } ?? CardScheduling()))
  }

  /// Throws for the first card whose template its note's note type does not have: a standard
  /// note type has a template for each ordinal from 0, a cloze note type's one template makes a
  /// card for any cloze number (ordinal 0 and up). Anki cannot show such a card, and its Check
  /// Database deletes it.
  private func checkCardTemplates() throws {
    var templateCounts: [Int64: Int] = [:]
    for noteType in collection.noteTypes where noteType.kind != .cloze {
      templateCounts[noteType.id] = noteType.templates.count
    }
    // Most cards have an ordinal every standard note type has: only the others need their note.
    let fewest = templateCounts.values.min() ?? Int.max
    let suspects = collection.cards.indices.filter {
      collection.cards[$0].templateOrdinal < 0 || collection.cards[$0].templateOrdinal >= fewest
    }
    guard !suspects.isEmpty else { return }
    let suspectNotes = Set(suspects.map { collection.cards[$0].noteID })
    var noteTypeOfNote: [Int64: Int64] = [:]
    for note in collection.notes where suspectNotes.contains(note.id) { noteTypeOfNote[note.id] = note.noteTypeID }
    for index in suspects {
      let card = collection.cards[index]
      let path = "cards[\(index)].template"
      guard card.templateOrdinal >= 0 else {
        throw problem(path, "\(card.templateOrdinal) is not a template ordinal (they count from 0)")
      }
      guard let noteTypeID = noteTypeOfNote[card.noteID], let count = templateCounts[noteTypeID],
        card.templateOrdinal >= count
      else { continue }
      let name = collection.noteTypes.first { $0.id == noteTypeID }?.name ?? "\(noteTypeID)"
      let templates =
        count == 0 ? "no templates" : "\(CountedNoun.phrase(count, "template")) (ordinals 0 to \(count - 1))"
      throw problem(
        path,
        "note type '\(name)' has \(templates), none of ordinal \(card.templateOrdinal); Anki cannot show such a card, and its Check Database deletes it"
      )
    }
  }

  /// A review of `reviews`, after every card. It may name a card the deck does not have: a
  /// collection keeps the review log of the cards it deleted, and so do a package read and the
  /// document deckport writes from it.
  mutating func add(review: ReviewJSON) {
    collection.reviews.append(
      Review(
        id: review.id, cardID: review.card, ease: review.button, interval: review.interval,
        lastInterval: review.lastInterval, easeFactor: review.easeFactor, duration: review.duration,
        kind: ReviewKind(rawValue: review.kind)))
  }

  /// The media files, last.
  mutating func mapMedia(_ media: [MediaJSON]?) throws {
    var seenNames = Set<String>()
    collection.media = try (media ?? []).enumerated().map { index, media in
      let path = "media[\(index)]"
      guard MediaFileName.isSafe(media.name) else {
        throw problem(
          path + ".name",
          "'\(MediaFileName.visible(media.name))' is not a safe media file name (one path component, NFC, none of []<>:\"/?*^\\| or control characters)"
        )
      }
      guard seenNames.insert(media.name).inserted else {
        throw problem(path + ".name", "a media file named '\(media.name)' comes earlier in the list")
      }
      return MediaFile(name: media.name, mimeType: media.mimeType, blob: try mediaBlob(index, media))
    }
  }

  /// The collection's settings (at `path` `settings`, `what` "setting") or a deck's, option
  /// group's, note type's, field's or template's properties (`decks[0].ankiProperties`, "property"), each
  /// value checked to be JSON text.
  private func properties(_ properties: StringMembersJSON?, path: String, what: String) throws -> [AnkiProperty] {
    guard let properties else { return [] }
    return try zip(properties.names, properties.values).map { key, text in
      guard (try? JSONParser.parse(Array(text.utf8))) != nil else {
        throw problem(
          "\(path).\(key)",
          "the \(what)'s value is not JSON text (a \(what) is kept as the JSON text of its value, such as \"4\" or \"true\")"
        )
      }
      return AnkiProperty(key: key, jsonText: text)
    }
  }

  private func deckOptions(_ options: DeckOptionsJSON, path: String) throws -> DeckOptions {
    let settings: DeckOptions.Settings
    switch (options.anki11Json, options.anki18Protobuf) {
    case (let json?, nil): settings = .anki11JSON(json)
    case (nil, let base64?):
      guard let blob = Data(base64Encoded: base64) else { throw problem(path + ".anki18Protobuf", "not valid base64") }
      settings = .anki18Protobuf(blob)
    default: throw problem(path, "expected exactly one of 'anki11Json' and 'anki18Protobuf'")
    }
    return DeckOptions(
      id: options.id, name: options.name, modificationTime: options.modified ?? 0, settings: settings,
      ankiProperties: try properties(options.ankiProperties, path: path + ".ankiProperties", what: "property"))
  }

  private func deck(_ deck: DeckJSON, path: String) throws -> Deck {
    // As for a name a note gives: a deck of more levels could not be written as a CSV or a package.
    if let tooDeep = Deck.depthProblem(ofName: deck.name) { throw problem(path + ".name", tooDeep) }
    if deck.filtered != nil && deck.options != nil {
      throw problem(path, "a deck has either 'options' (a normal deck) or 'filtered', not both")
    }
    let kind: Deck.Kind =
      deck.filtered.map { filtered in
        .filtered(
          FilteredDeck(
            reschedule: filtered.reschedule,
            searchTerms: filtered.searchTerms.map { .init(search: $0.search, limit: $0.limit, order: $0.order) }))
      } ?? .normal(optionsID: deck.options ?? 1)
    return Deck(
      id: deck.id ?? DerivedID.id(for: "deck\u{1F}" + deck.name), name: deck.name,
      description: deck.description ?? "", descriptionIsMarkdown: deck.descriptionIsMarkdown ?? false,
      kind: kind, modificationTime: deck.modified ?? 0, crowdAnkiUUID: deck.crowdAnkiUUID,
      ankiProperties: try properties(deck.ankiProperties, path: path + ".ankiProperties", what: "property"))
  }

  private func noteType(_ noteType: NoteTypeJSON, path: String) throws -> NoteType {
    let kind: NoteType.Kind
    switch noteType.kind {
    case nil: kind = .standard
    case let text?:
      guard let parsed = NoteType.Kind(rawValue: text) else {
        throw problem(path + ".kind", "expected \"standard\" or \"cloze\", found \"\(text)\"")
      }
      kind = parsed
    }
    var names = Set<String>()
    for (index, field) in noteType.fields.enumerated() where !names.insert(field.name).inserted {
      throw problem(path + ".fields[\(index)].name", "the field name '\(field.name)' is used twice")
    }
    return NoteType(
      id: noteType.id ?? DerivedID.id(for: "notetype\u{1F}" + noteType.name), name: noteType.name, kind: kind,
      fields: try noteType.fields.enumerated().map { index, field in
        NoteType.Field(
          name: field.name, fontName: field.font ?? "Arial", fontSize: field.fontSize ?? 20,
          rightToLeft: field.rightToLeft ?? false, sticky: field.sticky ?? false,
          description: field.description ?? "", plainText: field.plainText ?? false,
          collapsed: field.collapsed ?? false, excludeFromSearch: field.excludeFromSearch ?? false,
          ankiID: field.ankiId, tag: field.tag, preventDeletion: field.preventDeletion ?? false,
          ankiProperties: try properties(
            field.ankiProperties, path: path + ".fields[\(index)].ankiProperties", what: "property"))
      },
      templates: try noteType.templates.enumerated().map { index, template in
        NoteType.CardTemplate(
          name: template.name, questionFormat: template.question, answerFormat: template.answer ?? "",
          browserQuestionFormat: template.browserQuestion ?? "", browserAnswerFormat: template.browserAnswer ?? "",
          browserFontName: template.browserFont ?? "", browserFontSize: template.browserFontSize ?? 0,
          targetDeckID: template.targetDeck, ankiID: template.ankiId,
          ankiProperties: try properties(
            template.ankiProperties, path: path + ".templates[\(index)].ankiProperties", what: "property"))
      },
      css: noteType.css ?? "", sortFieldIndex: noteType.sortField ?? 0,
      latexPreamble: noteType.latexPreamble ?? "", latexPostamble: noteType.latexPostamble ?? "",
      latexSVG: noteType.latexSvg ?? false, originalStockKind: noteType.originalStockKind ?? 0,
      originalID: noteType.originalId, modificationTime: noteType.modified ?? 0,
      crowdAnkiUUID: noteType.crowdAnkiUUID,
      ankiProperties: try properties(noteType.ankiProperties, path: path + ".ankiProperties", what: "property"))
  }

  /// `notes[index]`, a note of `known`; `fileTime` is its modification time if it gives none.
  private mutating func note(_ note: NoteJSON, of known: KnownNoteType, index: Int, fileTime: Int64) throws -> Note {
    let noteType = known.noteType
    let fieldNames = known.fieldNames
    let values: [String]
    if note.fields.names == fieldNames {
      // Every field, in the note type's order, as deckport writes them.
      values = note.fields.values
      fieldFilling.countText(of: values)
    } else {
      for name in note.fields.names where !fieldNames.contains(name) {
        throw problem(
          "notes[\(index)].fields",
          "'\(name)' is not a field of note type '\(noteType.name)' (its fields: \(fieldNames.joined(separator: ", ")))"
        )
      }
      // Counted before the values are made: a note type of many fields makes them large.
      fieldFilling.countText(of: note.fields.values)
      try fieldFilling.countFill(
        given: note.fields.names.count, of: fieldNames.count, noteType: noteType.name,
        at: at("notes[\(index)].fields"))
      values = fieldNames.map { note.fields[$0] ?? "" }
    }
    // A note without a GUID gets one (and an id, if it has none) in completeNotes(); one with a
    // GUID and no id, an id from its GUID now.
    return Note(
      id: note.id ?? note.guid.map { DerivedID.id(for: "note\u{1F}" + $0) } ?? 0, guid: note.guid ?? "",
      noteTypeID: noteType.id, fields: values, tags: note.tags ?? [],
      modificationTime: note.modified ?? fileTime)
  }

  /// A note type the document defines, with its field names.
  private struct KnownNoteType {
    var noteType: NoteType
    var fieldNames: [String]
  }

  private func at(_ path: String) -> SourceLocation {
    var place = location
    place.jsonPath = path
    return place
  }

  private func problem(_ path: String, _ message: String) -> DeckError {
    DeckError(.corrupt, at: at(path), message)
  }
}
