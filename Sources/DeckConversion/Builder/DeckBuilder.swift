import DeckAnki
import DeckAppStorage
import DeckCore
import DeckIO
import Foundation

/// Builds a deck from an app's own records, to be written in any format deckport writes: an
/// "Export to Anki" button in a few lines.
///
/// ```swift
/// var builder = DeckBuilder(namespace: "com.example.vocabulary")
/// for word in words {
///   try builder.addNote(
///     id: word.id.uuidString, fields: [word.spanish, word.english], format: .plainText,
///     deck: "Spanish::Verbs", tags: ["verbs"], modified: word.updatedAt)
/// }
/// try builder.addMedia(contentsOf: recordingURL, named: "hablar.m4a")
/// let report = try await DeckConverter().write(builder.build(), to: URL(filePath: "Spanish.apkg"))
/// ```
///
/// What makes the deck behave in Anki as a user expects:
///
/// * **The same record updates the same note.** A note's GUID, the identity Anki matches notes
///   by on import, is derived from the builder's `namespace` and the record's `id`. Export again
///   after editing a record and Anki updates the note, keeping its schedule, instead of adding a
///   second one. Two apps (two namespaces) never share a GUID, even for notes with the same text.
/// * **Updates land only when newer.** Anki replaces a note on import only when the package's
///   modification time is later than its own. Give each note the time the app last changed its
///   record (`modified`), so notes the user edited in Anki since are kept, and notes the app
///   changed are updated. A time in the future (a clock set wrong) is brought back to now, with
///   a warning: Anki would treat the note as changed until that time passes.
/// * **Cards as Anki makes them.** Each note gets the cards Anki would make for it: one per
///   template whose front is not empty, one per cloze number of a cloze note.
/// * **Note types keep their ids.** Anki's stock note types (``StockNoteType``) have the ids
///   deckport gives them everywhere; an app's own (``noteType(named:kind:fields:templates:css:modified:)``)
///   has an id derived from the namespace and its name, and the builder's modification time, so
///   fixing a template later updates the note type in Anki instead of creating a second one.
///
/// Mistakes are errors that name the note or file, thrown by the call that makes them: a record
/// id given twice, a field count that is not the note type's, a note type Anki would refuse, a
/// deck name with an empty level, a tag with a space, a media name Anki would change or a file
/// that cannot be read. Nothing is read or written until the deck is: media files are streamed
/// from where they are. A card Anki would show its message on instead of what its template asks
/// for (a template naming a field the note type does not have, a front whose fields are all
/// empty, a cloze note without a cloze) is still made, as Anki makes it, and ``build()`` gives
/// one `card-rendering` warning that counts such cards and names the first.
public struct DeckBuilder: Sendable {
  /// What keeps this app's notes apart from every other deck's, such as the app's bundle id.
  public let namespace: String
  /// The modification time of notes added without one (by default, when the builder was made).
  public let modificationDate: Date

  private var drafts: [NewNotes.Draft] = []
  /// The review state the app gave every card of a note, by the position of its note's draft.
  private var reviewStates: [Int: ReviewState] = [:]
  /// The review states the app gave single cards, by the position of their note's draft and the
  /// cards' ordinals.
  private var cardReviewStates: [Int: [Int: ReviewState]] = [:]
  /// The positions of the drafts whose cards are suspended.
  private var suspendedNotes: Set<Int> = []
  /// The ordinals of the cards suspended alone, by draft position.
  private var suspendedCards: [Int: Set<Int>] = [:]
  private var recordIDs: Set<String> = []
  /// The record ids, by the position of their note's draft.
  private var recordOrder: [String] = []
  private var noteTypes: [NoteType] = []
  private var decks = DeckTable()
  private var media: [MediaFile] = []
  private var mediaNames: Set<String> = []
  private var warnings: [Diagnostic] = []
  /// How many notes had a time in the future, and the first of them.
  private var futureTimes: (count: Int, firstID: String?) = (0, nil)
  /// The deck names given that Anki stores otherwise, and the first of them as it is stored.
  private var renamedDecks: Set<String> = []
  private var firstRenamedDeck: (given: String, stored: String)?

  /// A builder whose notes' GUIDs are derived from `namespace` and each record's id.
  /// `modificationDate` is the modification time of notes added without one.
  public init(namespace: String, modificationDate: Date = Date()) {
    self.namespace = namespace
    self.modificationDate = modificationDate
  }

  /// How field text is given.
  public enum FieldFormat: Sendable {
    /// HTML, stored as it is (as Anki stores a field).
    case html
    /// Plain text: `&`, `<` and `>` are escaped and line breaks become `<br>`, so that Anki shows
    /// the text exactly as the app does.
    case plainText
  }

  /// Adds a note for one of the app's records, with the cards Anki would make for it.
  ///
  /// - Parameters:
  ///   - id: the record's own identity, stable across exports (a UUID, a database key); the
  ///     note's GUID is derived from it and ``namespace``.
  ///   - fields: one value per field of `noteType`, in its order.
  ///   - format: whether `fields` are HTML or plain text.
  ///   - noteType: a ``StockNoteType``'s note type (Basic by default) or one made with
  ///     ``noteType(named:kind:fields:templates:css:modified:)``.
  ///   - deck: the full deck name, levels separated by `::`; parents are made as needed. A name
  ///     Anki stores otherwise (white space, `:` or control characters around or in a level) is
  ///     stored as Anki stores it, with a `deck-renamed` warning.
  ///   - tags: the note's tags (hierarchy as `a::b`).
  ///   - modified: when the app last changed the record (``modificationDate`` when nil).
  ///   - reviewState: where the user stands with the note's cards in the app's scheduler, its
  ///     history included; nil for new cards, due in the order the notes were added. Every card
  ///     of the note gets it.
  ///   - cardReviewStates: review states of single cards, by the card's ordinal: the position of
  ///     its template (0 for the front of a Basic (and reversed card) note, 1 for its back), or,
  ///     for a cloze note, the cloze number less one. They replace `reviewState` for those
  ///     cards; for an app that schedules the cards of a note apart.
  ///   - suspended: whether the cards are suspended (Anki keeps them out of study).
  ///   - suspendedCards: single cards to suspend, by ordinal (as in `cardReviewStates`): for an
  ///     app that lets the user set one direction of a note aside.
  /// - Returns: the note's GUID.
  /// - Throws: ``DeckError/Kind/invalidRequest`` naming the record when `id` is empty or was
  ///   added before, when `fields` does not have one value per field of `noteType`, when Anki
  ///   would refuse `noteType` (no fields or templates, a name it changes, two fields of one
  ///   name) or another note type with its id or name was used before, when the deck name has
  ///   an empty level or more than 100, when a tag is empty or holds a space or control character, when a review
  ///   state is one Anki cannot hold (an interval under a day, an ease under 1.3, a past review
  ///   dated in the future), or when `cardReviewStates` or `suspendedCards` names a card Anki
  ///   would not make.
  @discardableResult
  public mutating func addNote(
    id: String, fields: [String], format: FieldFormat = .html,
    noteType: NoteType = StockNoteType.basic.noteType, deck: String = "Default", tags: [String] = [],
    modified: Date? = nil, reviewState: ReviewState? = nil, cardReviewStates: [Int: ReviewState] = [:],
    suspended: Bool = false, suspendedCards: Set<Int> = []
  ) throws -> String {
    let location = self.location.item("note '\(id)'")
    guard !id.isEmpty else { throw DeckError(.invalidRequest, at: location, "has an empty id") }
    guard !recordIDs.contains(id) else {
      throw DeckError(.invalidRequest, at: location, "was added before; each record is one note")
    }
    guard fields.count == noteType.fields.count else {
      throw DeckError(
        .invalidRequest, at: location,
        "has \(CountedNoun.phrase(fields.count, "field value")); note type '\(noteType.name)' has \(noteType.fields.count) (\(noteType.fieldNames.joined(separator: ", ")))"
      )
    }
    let deckName = try checkedDeckName(deck, at: location)
    if let tag = tags.first(where: { !CollectionValidation.isCleanTag($0) }) {
      throw DeckError(
        .invalidRequest, at: location,
        "has tag '\(MediaFileName.visible(tag))', which is empty or holds a space or control character; Anki separates tags at spaces (use '_' or '::' within a tag)"
      )
    }
    if let problem = reviewState?.problem {
      throw DeckError(.invalidRequest, at: location, "has a review state with \(problem)")
    }
    for (ordinal, state) in cardReviewStates.sorted(by: { $0.key < $1.key }) {
      if let problem = state.problem {
        throw DeckError(.invalidRequest, at: location, "has a review state for card \(ordinal) with \(problem)")
      }
    }
    let storedFields = format == .plainText ? fields.map(FieldText.html) : fields
    if !cardReviewStates.isEmpty || !suspendedCards.isEmpty {
      var generation = CardGeneration()
      let made = generation.ordinals(for: storedFields, tags: tags, of: noteType)
      let named =
        cardReviewStates.keys.sorted().map { ("has a review state for", $0) }
        + suspendedCards.sorted().map { ("suspends", $0) }
      if let (what, missing) = named.first(where: { !made.contains($0.1) }) {
        throw DeckError(
          .invalidRequest, at: location,
          "\(what) card \(missing), which Anki would not make; the note makes \(made.isEmpty ? "no cards" : "\(CountedNoun.noun("card", for: made.count)) \(made.map(String.init).joined(separator: ", "))") (a template's position from 0, or a cloze number less one)"
        )
      }
    }
    let noteTypeIndex = try index(of: noteType, at: location)
    let deckID = try decks.id(for: deckName, at: location)
    noteRenaming(deck, to: deckName)
    let guid = AnkiGUID.derived(from: [namespace, id])
    if let reviewState { reviewStates[drafts.count] = reviewState }
    if !cardReviewStates.isEmpty { self.cardReviewStates[drafts.count] = cardReviewStates }
    if suspended { suspendedNotes.insert(drafts.count) }
    if !suspendedCards.isEmpty { self.suspendedCards[drafts.count] = suspendedCards }
    drafts.append(
      NewNotes.Draft(
        guid: guid, noteTypeIndex: noteTypeIndex, fields: storedFields, tags: tags,
        deckID: deckID, modificationTime: modificationTime(modified ?? modificationDate, of: id)))
    recordIDs.insert(id)
    recordOrder.append(id)
    return guid
  }

  /// Gives the deck `name` (made with its parents if no note named it yet) the description Anki
  /// shows on the deck's overview screen: HTML, or Markdown when `isMarkdown`.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` when the deck name has an empty level, or more
  ///   than 100.
  public mutating func describeDeck(_ name: String, as description: String, isMarkdown: Bool = false) throws {
    let here = location.item("deck '\(name)'")
    let deckName = try checkedDeckName(name, at: here)
    try decks.describe(deckName, as: description, isMarkdown: isMarkdown, at: here)
    noteRenaming(name, to: deckName)
  }

  /// A note type of the app's own, to give ``addNote(id:fields:format:noteType:deck:tags:modified:reviewState:cardReviewStates:suspended:suspendedCards:)``.
  /// Its id is derived from ``namespace`` and `name`, so the same name is the same note type in
  /// every export, even after its templates or style change.
  ///
  /// Anki replaces its copy of a note type on import only when the package's is newer: give
  /// `modified` the time the app last changed the note type's definition (by default the
  /// builder's ``modificationDate``, so that every export brings Anki the current definition,
  /// and a change the user made to it in Anki is replaced).
  ///
  /// - Parameters:
  ///   - kind: standard (a card per template whose front is not empty) or cloze (a card per
  ///     cloze number, from the one template).
  ///   - templates: the card templates, fronts and backs in Anki's template language
  ///     (`{{Field}}`, `{{FrontSide}}`, `{{cloze:Field}}`).
  ///   - css: the style sheet; Anki's stock one when nil.
  ///   - modified: when the app last changed the definition (``modificationDate`` when nil; a
  ///     time in the future is taken as now).
  public func noteType(
    named name: String, kind: NoteType.Kind = .standard, fields: [String], templates: [NoteType.CardTemplate],
    css: String? = nil, modified: Date? = nil
  ) -> NoteType {
    NoteType(
      id: DerivedID.id(for: "notetype\u{1F}\(namespace)\u{1F}\(name)"), name: name, kind: kind,
      fields: fields.map { NoteType.Field(name: $0) }, templates: templates, css: css ?? NoteType.stockBasicCSS,
      modificationTime: Self.seconds(min(modified ?? modificationDate, Date())))
  }

  /// Adds a media file the fields refer to by `name` (`<img src="name">`, `[sound:name]`).
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` when Anki would store the file under another
  ///   name (see ``addMedia(contentsOf:named:)``) or a file of that name was added before.
  public mutating func addMedia(_ data: Data, named name: String) throws {
    try addMedia(MediaFile(name: name, blob: MediaBlob(data: data)))
  }

  /// Adds the media file at the file URL `file`, read only when the deck is written, under
  /// `name` (its own name when nil).
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when `file` is not a file that exists;
  ///   ``DeckError/Kind/invalidRequest`` when it is not a file URL, when a file of that name was
  ///   added before, or when Anki would store the file under another name: one path component
  ///   in Unicode NFC, at most 120 bytes, none of `[]<>:"/?*^\|`, no control characters, not a
  ///   Windows device name, not ending in a space or dot. The error names the name Anki would
  ///   use; name the file so, and refer to it by that name.
  public mutating func addMedia(contentsOf file: URL, named name: String? = nil) throws {
    let path = try FileURL.path(of: file)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw DeckError(.unreadableFile, at: SourceLocation(file: path), "no such file (a media file for the deck)")
    }
    try addMedia(MediaFile(name: name ?? file.lastPathComponent, blob: MediaBlob(source: FileMediaSource(path: path))))
  }

  /// The deck: note types, decks, notes with their cards, media, and the warnings building gave
  /// (future modification times, deck names Anki stores otherwise, cards that would show Anki's
  /// message instead of their template).
  public func build() -> LoadedDeck {
    // Review cards are due on a day counted from the collection's creation: the start of the
    // Anki day (4 a.m.) of the earliest moment the deck speaks of.
    let dueDates = (reviewStates.values + cardReviewStates.values.flatMap(\.values)).map(\.due)
    let creation = ReviewSchedule.ankiDayStart(of: dueDates.reduce(modificationDate, min))
    let (notes, newCards) = NewNotes.assemble(
      drafts, noteTypes: noteTypes, idSpace: "deck-builder\u{1F}\(namespace)",
      modificationTime: Self.seconds(modificationDate),
      // An app's own notes and note types: no limit on the cards they make.
      checkingCount: { _, _, _ in })
    let (cards, reviews) = Self.scheduled(
      newCards, of: notes, noteStates: reviewStates, cardStates: cardReviewStates, suspended: suspendedNotes,
      suspendedCards: suspendedCards,
      creation: creation)
    var warnings = warnings
    if futureTimes.count > 0 {
      warnings.append(
        Diagnostic(
          .modificationTime, at: location.item("note '\(futureTimes.firstID ?? "")'"),
          "\(futureTimes.count) note\(futureTimes.count == 1 ? " was" : "s were") given a modification time in the future, which Anki would take as changed until then; \(futureTimes.count == 1 ? "it was" : "they were") given the present time instead"
        ))
    }
    if let first = firstRenamedDeck {
      let count = renamedDecks.count
      warnings.append(
        Diagnostic(
          .deckRenamed, at: location.item("deck '\(first.given)'"),
          "\(Deck.storedNameRule); \(count == 1 ? "this deck is" : "\(count) deck names are") written as Anki stores \(count == 1 ? "it" : "them"), this one as '\(first.stored)'"
        ))
    }
    let collection = DeckCollection(
      creationTime: Self.seconds(creation), decks: decks.decks.sorted { $0.id < $1.id },
      noteTypes: noteTypes.sorted { $0.id < $1.id }, notes: notes,
      cards: cards, reviews: reviews, media: media)
    if let warning = Self.cardProblemWarning(in: collection, recordIDs: recordOrder, at: location) {
      warnings.append(warning)
    }
    return LoadedDeck(collection: collection, formatName: "deck-builder", warnings: warnings)
  }

  /// Where the builder's errors and warnings say they are.
  private var location: SourceLocation { SourceLocation(file: "DeckBuilder '\(namespace)'") }

  /// The position of `noteType` among the note types used, adding it on first use.
  private mutating func index(of noteType: NoteType, at location: SourceLocation) throws -> Int {
    if let known = noteTypes.firstIndex(where: { $0.id == noteType.id }) {
      guard noteTypes[known] == noteType else {
        throw DeckError(
          .invalidRequest, at: location,
          "uses note type '\(noteType.name)', which differs from the note type with its id (\(noteType.id)) used before"
        )
      }
      return known
    }
    do {
      try CollectionValidation.checkNoteType(noteType, at: location)
    } catch let problem as DeckError {
      throw DeckError(
        .invalidRequest, at: location, "uses note type '\(noteType.name)', which Anki would refuse: \(problem.message)")
    }
    if let named = noteTypes.first(where: { $0.name.lowercased() == noteType.name.lowercased() }) {
      throw DeckError(
        .invalidRequest, at: location,
        "uses a note type named '\(noteType.name)' with id \(noteType.id), but another one of that name (id \(named.id)) was used before; Anki would rename one of them"
      )
    }
    noteTypes.append(noteType)
    return noteTypes.count - 1
  }

  /// `name` as Anki stores it (``Deck/storedLevel(_:)`` for each level).
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` when nothing is left of a level, or the name has
  ///   more than ``Deck/maximumLevels`` levels.
  private func checkedDeckName(_ name: String, at location: SourceLocation) throws -> String {
    if let problem = Deck.depthProblem(ofName: name) { throw DeckError(.invalidRequest, at: location, problem) }
    let levels = Deck.levels(of: name).map(Deck.storedLevel)
    guard !levels.contains(where: \.isEmpty) else {
      throw DeckError(.invalidRequest, at: location, "names deck '\(name)', which has an empty level")
    }
    return levels.joined(separator: Deck.levelSeparator)
  }

  /// Counts `name` for the `deck-renamed` warning when Anki stores it as `stored`; called once
  /// the call that names it can no longer fail.
  private mutating func noteRenaming(_ name: String, to stored: String) {
    if !stored.unicodeScalars.elementsEqual(name.unicodeScalars), renamedDecks.insert(name).inserted {
      if renamedDecks.count == 1 { firstRenamedDeck = (name, stored) }
    }
  }

  /// `date` in whole seconds since 1970, brought back to the present (and counted) when it is in
  /// the future.
  private mutating func modificationTime(_ date: Date, of id: String) -> Int64 {
    let now = Date()
    guard date <= now else {
      futureTimes.count += 1
      if futureTimes.firstID == nil { futureTimes.firstID = id }
      return Self.seconds(now)
    }
    return Self.seconds(date)
  }

  /// `date` in whole seconds since 1970 (0 for a date before 1970).
  private static func seconds(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    return seconds > 0 && seconds < 1e15 ? Int64(seconds) : 0
  }

  private mutating func addMedia(_ file: MediaFile) throws {
    let location = self.location.item("media file '\(MediaFileName.visible(file.name))'")
    guard MediaFileName.isSafe(file.name) else {
      let anki = MediaFileName.normalized(file.name)
      throw DeckError(
        .invalidRequest, at: location,
        anki.isEmpty
          ? "is not a name Anki can store"
          : "is not a name Anki stores as it is; it would store it as '\(MediaFileName.visible(anki))': name the file so, and refer to it by that name"
      )
    }
    guard mediaNames.insert(file.name).inserted else {
      throw DeckError(.invalidRequest, at: location, "was added before")
    }
    media.append(file)
  }
}
