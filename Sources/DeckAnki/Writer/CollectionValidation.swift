import DeckCore
import DeckIO
import Foundation

/// The checks a collection must pass before it is written as an Anki package, and the few
/// changes the writer makes (each reported) so that Anki reads back what was meant.
///
/// Refused, with an error naming the item, because Anki would otherwise rename, merge or drop
/// something on import: a note type with no fields or templates, an empty or duplicate name,
/// a field name Anki rewrites (`:`, `{`, `}`, `"`, a leading `#`, `/` or `^`, surrounding
/// spaces), a name not in Unicode NFC, a sort field out of range; a note whose note type is
/// missing; two notes, cards, reviews, decks or option
/// groups with one id; two decks or note types with one name; two cards of one note with one
/// template ordinal (``CardOrdinals``).
///
/// Changed, with a warning: a field value holding U+001F (Anki's field separator) or U+0000
/// loses it, and in a deck package the other control characters Anki's import removes
/// (``ImportRemovedCharacters``); a media reference by a name Anki would not store is renamed as Anki's import
/// renames it (``MediaReferences/storedNames(in:)``); a
/// tag holding a space or a control character loses those (a space would split it in two);
/// an empty tag is dropped; in a deck package, tags are written as Anki's import stores them
/// (``ImportedTags``: empty levels, NFC, spellings that differ only in case); a deck name is normalised as Anki normalises it; a number Anki
/// cannot read is brought into its range (``AnkiValueRanges``), and so is a value in the JSON
/// of a deck, note type or option group (``Schema11ValueFitting``); a card whose note does not
/// exist, a card in a missing deck and a note whose field count differs from its note type's
/// are repaired as Anki's Check Database repairs them (``CollectionRepair``).
///
/// Notes and note types modified in the future, which Anki would never update from a later
/// export, are reported by the package writer once it knows what it writes (``FutureTimes``).
package enum CollectionValidation {
  /// The field separator of `notes.flds`.
  static let fieldSeparator: Character = "\u{1F}"

  /// `collection` checked and, where reported, adjusted; references that point nowhere and
  /// notes with the wrong number of fields are first repaired as ``CollectionRepair`` says.
  ///
  /// - Parameters:
  ///   - kind: the package written: Anki's import of a deck package changes more than the
  ///     restore of a collection package (``ImportRemovedCharacters``).
  ///   - duplicateGUIDs: what to do with notes that share a GUID (see
  ///     ``DuplicateGUIDPolicy``); a note left out takes its cards and their reviews with it.
  /// - Returns: the collection to write, and the checks of it that change nothing (card data
  ///   Anki's import rewrites, two cards of one template), started on another thread so that
  ///   they run beside the write: wait for them before the package is kept.
  static func validated(
    _ collection: DeckCollection, kind: AnkiPackageKind, duplicateGUIDs: DuplicateGUIDPolicy = .fail,
    location: SourceLocation, log: inout DiagnosticLog
  ) throws -> Checked {
    var named = collection
    named.noteTypes = SameNamedNoteTypes.renamed(collection, kind: kind, location: location, log: &log)
    // A deck package holds only the note types its notes use: an unused one's name takes none.
    let written = kind == .apkg ? Set(named.notes.map(\.noteTypeID)) : nil
    try checkNoteTypes(named.noteTypes, namesTakenBy: written, location: location)
    try requireUniqueIDs(named.notes.map(\.id), what: "note", location: location)
    try requireUniqueIDs(named.cards.map(\.id), what: "card", location: location)
    let repair = try CollectionRepair.repaired(named, location: location)
    log.append(contentsOf: repair.warnings)
    let collection = repair.collection
    var result = collection
    // The field checks run on the notes they may change alone, found on both cores.
    let fieldCounts = Dictionary(
      collection.noteTypes.map { ($0.id, $0.fields.count) }, uniquingKeysWith: { first, _ in first })
    let candidates = FieldCheckCandidates.indices(of: collection.notes, fieldCounts: fieldCounts, kind: kind)
    let candidateIDs = candidates.map { collection.notes[$0].id }
    result.notes = try checkedNotes(
      collection, candidates: candidates, fieldCounts: fieldCounts, kind: kind, location: location, log: &log)
    // GUIDs first: a note it leaves out (a later duplicate) takes its cards and reviews along, so
    // the warnings below name only what is written; a GUID it derives comes from the fields as
    // the deck holds them.
    let identity = try NoteIdentity.assigningGUIDs(
      to: result.notes, policy: duplicateGUIDs, location: location, log: &log)
    result.notes = identity.notes
    var cards = collection.cards
    var reviews = collection.reviews
    if !identity.dropped.isEmpty {
      let droppedCards = Set(cards.filter { identity.dropped.contains($0.noteID) }.map(\.id))
      cards.removeAll { droppedCards.contains($0.id) }
      reviews.removeAll { droppedCards.contains($0.cardID) }
      result.reviews = reviews
    }
    // The cards' data is checked on another thread while the notes' text and tags are.
    let readCards = cards
    let cardData =
      kind == .apkg
      ? BackgroundWork {
        var cardLog = DiagnosticLog()
        ImportedCardData.report(readCards, location: location, log: &cardLog)
        return cardLog.finished()
      } : nil
    var sideWarningsPosition = log.position
    if kind == .apkg {
      // The candidates again, by id: the GUID step may have left notes out.
      var candidateSet = IDSet(candidateIDs)
      let written = result.notes.indices.filter { candidateSet.contains(result.notes[$0].id) }
      result.notes = ImportRemovedCharacters.removed(from: result.notes, among: written, location: location, log: &log)
      result.notes = ImportComposedText.composed(result.notes, among: written, location: location, log: &log)
      // The card data's warning comes here, as when it was checked in turn.
      sideWarningsPosition = log.position
      result.notes = ImportedTags.stored(result.notes, location: location, log: &log)
    }
    result.decks = try checkedDecks(collection.decks, location: location, log: &log)
    result.cards = cards
    let sameNamed = try SameNamedDecks.merged(result, location: location)
    log.append(contentsOf: sameNamed.warnings)
    result = sameNamed.collection
    try requireUniqueIDs(reviews.map(\.id), what: "review", location: location)
    try requireUniqueIDs(collection.deckOptions.map(\.id), what: "option group", location: location)
    reportNotesWithoutCards(result.notes, cards: result.cards, location: location, log: &log)
    let givenCards = result.cards
    result = AnkiValueRanges.fitted(result, location: location, log: &log)
    let fittedCards = result.cards
    let sideChecks = BackgroundWork {
      try CardOrdinals.requireOneCardPerTemplate(fittedCards, given: givenCards, location: location)
      return try cardData?.wait() ?? []
    }
    return Checked(
      collection: Schema11ValueFitting(reader: .ankiPackage).fitted(result, location: location, log: &log),
      sideChecks: sideChecks, sideWarningsPosition: sideWarningsPosition)
  }

  /// A collection checked for writing (``validated(_:kind:duplicateGUIDs:location:log:)``).
  struct Checked {
    /// The collection to write.
    var collection: DeckCollection
    /// The checks that change nothing, running beside the write: their warnings, or the error
    /// refusing the package.
    var sideChecks: BackgroundWork<[Diagnostic]>
    /// Where their warnings go in the log (``DiagnosticLog/position``): their turn had they run
    /// in order.
    var sideWarningsPosition: Int
  }

  // MARK: - Note types

  /// How messages name a note type: its name and id.
  package static func label(_ noteType: NoteType) -> String { "note type '\(noteType.name)' (id \(noteType.id))" }

  /// Throws what Anki would refuse or rewrite in `noteTypes`; two of one name only among those
  /// in `written` (by id), when given.
  private static func checkNoteTypes(
    _ noteTypes: [NoteType], namesTakenBy written: Set<Int64>?, location: SourceLocation
  )
    throws
  {
    try requireUniqueIDs(noteTypes.map(\.id), what: "note type", location: location)
    var names: [String: NoteType] = [:]
    for noteType in noteTypes {
      let here = location.item(label(noteType))
      if written?.contains(noteType.id) ?? true {
        if let other = names[uniqueKey(noteType.name)] {
          throw DeckError(
            .invalidRequest, at: here,
            "another note type, id \(other.id), has the same name; Anki would rename one of them")
        }
        names[uniqueKey(noteType.name)] = noteType
      }
      try checkNoteType(noteType, at: here)
    }
  }

  /// Throws, at `here`, what Anki would refuse or rewrite in `noteType` itself: its name, no
  /// fields or no templates, a field or template name Anki changes or that another has, a sort
  /// field it does not have.
  package static func checkNoteType(_ noteType: NoteType, at here: SourceLocation) throws {
    func refuse(_ message: String) -> DeckError {
      DeckError(.invalidRequest, at: here, message)
    }
    if let problem = nameProblem(noteType.name, forbidden: ["\""], forbiddenStarts: [], trims: false) {
      throw refuse("the note type name \(problem)")
    }
    guard !noteType.fields.isEmpty else { throw refuse("it has no fields; Anki needs at least one") }
    guard !noteType.templates.isEmpty else { throw refuse("it has no card templates; Anki needs at least one") }
    var fieldNames = Set<String>()
    for field in noteType.fields {
      if let problem = nameProblem(
        field.name, forbidden: [":", "{", "}", "\""], forbiddenStarts: ["#", "/", "^"], trims: true)
      {
        throw refuse("field name '\(field.name)' \(problem)")
      }
      guard fieldNames.insert(uniqueKey(field.name)).inserted else {
        throw refuse("two fields are named '\(field.name)' (Anki compares names ignoring case); Anki would rename one")
      }
    }
    var templateNames = Set<String>()
    for template in noteType.templates {
      if let problem = nameProblem(template.name, forbidden: ["\""], forbiddenStarts: [], trims: false) {
        throw refuse("template name '\(template.name)' \(problem)")
      }
      guard templateNames.insert(uniqueKey(template.name)).inserted else {
        throw refuse(
          "two card templates are named '\(template.name)' (Anki compares names ignoring case); Anki would rename one")
      }
    }
    guard noteType.sortFieldIndex >= 0 else {
      throw refuse("its sort field index is \(noteType.sortFieldIndex), which names no field (they count from 0)")
    }
    guard noteType.fields.indices.contains(noteType.sortFieldIndex) else {
      throw refuse(
        "its sort field is number \(CountedPosition.text(ofIndex: noteType.sortFieldIndex)), but it has \(noteType.fields.count) fields"
      )
    }
  }

  /// Why Anki would refuse or rewrite `name`, or nil when it keeps it as it is.
  static func nameProblem(
    _ name: String, forbidden: Set<Character>, forbiddenStarts: Set<Character>, trims: Bool
  ) -> String? {
    if name.isEmpty { return "is empty" }
    if let bad = name.first(where: { forbidden.contains($0) }) {
      return "contains '\(bad)', which Anki removes from such names"
    }
    if let first = name.first, forbiddenStarts.contains(first) {
      return "starts with '\(first)', which Anki removes from such names"
    }
    if trims, name.first?.isWhitespace == true || name.last?.isWhitespace == true {
      return "starts or ends with white space, which Anki removes"
    }
    if !name.unicodeScalars.elementsEqual(name.canonicallyComposed.unicodeScalars) {
      return "is not in Unicode NFC, which Anki converts it to"
    }
    return nil
  }

  /// The form in which Anki compares names for uniqueness: ignoring case, as Unicode full case
  /// folding does (``FullCaseFolding``: `Straße` and `STRASSE` are one name, `Tip` and `Tıp` two).
  static func uniqueKey(_ name: String) -> String {
    FullCaseFolding.key(name)
  }

  // MARK: - Notes

  /// The notes of `collection`, each checked against its note type and with the characters
  /// Anki removes from every field taken out; in a collection package, with its tags cleaned
  /// (a deck package's tags are left to ``ImportedTags``, which reports them once). Only the
  /// notes at `candidates` are looked at: the others are left as they are
  /// (``FieldCheckCandidates``).
  private static func checkedNotes(
    _ collection: DeckCollection, candidates: [Int], fieldCounts: [Int64: Int], kind: AnkiPackageKind,
    location: SourceLocation, log: inout DiagnosticLog
  ) throws -> [Note] {
    // The note ids are unique (``validated(_:kind:duplicateGUIDs:location:log:)`` checked them).
    // The note types, for the messages; `fieldCounts`, looked up for every candidate.
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Notes are written back only when something changes, so the usual collection is not copied.
    var notes = collection.notes
    for index in candidates {
      let note = notes[index]
      guard let fieldCount = fieldCounts[note.noteTypeID] else {
        throw DeckError(
          .invalidRequest, at: location.item("note \(note.id)"),
          "note uses note type \(note.noteTypeID), which the collection does not define; Anki would refuse the package")
      }
      guard note.fields.count == fieldCount else {
        throw DeckError(
          .invalidRequest, at: location.item("note \(note.id)"),
          "note has \(note.fields.count) fields, but its \(noteTypes[note.noteTypeID].map(label) ?? "") has \(fieldCount); Anki would refuse the package"
        )
      }
      // U+001F is a grapheme of its own (a control character), so looking for its byte finds
      // exactly the values `contains(Character)` would.
      for (fieldIndex, value) in note.fields.enumerated() where value.containsUTF8Byte(0x1F) {
        notes[index].fields[fieldIndex] = value.replacingOccurrences(of: String(fieldSeparator), with: "")
        let fieldName = noteTypes[note.noteTypeID]?.fields[fieldIndex].name ?? ""
        log.reportLimited(
          .fieldChanged, at: location.item("note \(note.id)"), summaryAt: location,
          "field '\(fieldName)' holds the control character U+001F, which Anki uses between fields; it is removed"
        )
      }
      for (fieldIndex, value) in notes[index].fields.enumerated() where value.containsUTF8Byte(0) {
        notes[index].fields[fieldIndex] = value.withoutNUL
        let fieldName = noteTypes[note.noteTypeID]?.fields[fieldIndex].name ?? ""
        log.reportLimited(
          .fieldChanged, at: location.item("note \(note.id)"), summaryAt: location,
          "field '\(fieldName)' holds the character U+0000 (NUL), which Anki removes from every field it saves, as its import of a package does; it is removed"
        )
      }
      for (fieldIndex, value) in notes[index].fields.enumerated() {
        guard let stored = MediaReferences.storedNames(in: value) else { continue }
        if let field = stored.field { notes[index].fields[fieldIndex] = field }
        let fieldName = noteTypes[note.noteTypeID]?.fields[fieldIndex].name ?? ""
        let names = ShortList.text(
          stored.renamed.map { "'\(MediaFileName.visible($0.from))' as '\(MediaFileName.visible($0.to))'" })
        let one = stored.renamed.count == 1
        let written =
          stored.field == nil
          ? "it is written as it is, since Anki's import would rename the renamed text again" : "it is written so"
        log.reportLimited(
          .fieldChanged, at: location.item("note \(note.id)"), summaryAt: location,
          "field '\(fieldName)' refers to media by \(one ? "a name" : "names") Anki does not store as \(one ? "it is" : "they are") (it removes what a file name may not hold), and its import of a package renames the reference: \(names); \(written)"
        )
      }
      if kind == .colpkg, !note.tags.allSatisfy(isCleanTag) {
        notes[index].tags = checkedTags(note.tags, at: location.item("note \(note.id)"), location: location, log: &log)
      }
    }
    return notes
  }

  /// Whether ``checkedTags(_:at:location:log:)`` keeps `tag` as it is: not empty, and no byte
  /// of a space, an ASCII control character or U+3000 (E3 80 80).
  package static func isCleanTag(_ tag: String) -> Bool {
    // Over the string's own UTF-8 storage: every tag of every note is checked, on the one
    // thread a package write starts with, and the `utf8` view goes byte by byte.
    var tag = tag
    return tag.withUTF8 { bytes in
      guard !bytes.isEmpty else { return false }
      for index in bytes.indices {
        let byte = bytes[index]
        if byte <= 0x20 || byte == 0x7F { return false }
        if byte == 0x80 && index >= 2 && bytes[index - 1] == 0x80 && bytes[index - 2] == 0xE3 { return false }
      }
      return true
    }
  }

  /// `tag` without the characters Anki splits tags at (space, U+3000) or removes (ASCII
  /// control characters).
  static func cleanedTag(_ tag: String) -> String {
    String(
      String.UnicodeScalarView(
        tag.unicodeScalars.filter { !($0 == " " || $0 == "\u{3000}" || $0.value < 0x20 || $0.value == 0x7F) }))
  }

  /// Tags without the characters Anki splits tags at (space, U+3000) or removes (ASCII
  /// control characters); empty tags dropped.
  private static func checkedTags(
    _ tags: [String], at here: SourceLocation, location: SourceLocation, log: inout DiagnosticLog
  ) -> [String] {
    var result: [String] = []
    for tag in tags {
      let cleaned = cleanedTag(tag)
      if cleaned.isEmpty {
        log.reportLimited(
          .tagChanged, at: here, summaryAt: location,
          "tag '\(MediaFileName.visible(tag))' is empty once spaces and control characters are removed; it is left out")
        continue
      }
      if cleaned != tag {
        log.reportLimited(
          .tagChanged, at: here, summaryAt: location,
          "tag '\(MediaFileName.visible(tag))' holds spaces or control characters, which Anki treats as separators; it is written as '\(cleaned)'"
        )
      }
      result.append(cleaned)
    }
    return result
  }

  // MARK: - Decks

  private static func checkedDecks(
    _ decks: [Deck], location: SourceLocation, log: inout DiagnosticLog
  ) throws -> [Deck] {
    try requireUniqueIDs(decks.map(\.id), what: "deck", location: location)
    try Deck.checkDepth(of: decks, at: location)
    var result = decks
    for index in result.indices {
      let deck = result[index]
      let here = location.item("deck '\(MediaFileName.visible(deck.name))' (id \(deck.id))")
      let normalized = Deck.storedName(deck.name)
      if !normalized.unicodeScalars.elementsEqual(deck.name.unicodeScalars) {
        log.report(
          .deckRenamed, at: here,
          "\(Deck.storedNameRule); it is written as '\(MediaFileName.visible(normalized))'"
        )
        result[index].name = normalized
      }
    }
    return result
  }

  private static func reportNotesWithoutCards(
    _ notes: [Note], cards: [Card], location: SourceLocation, log: inout DiagnosticLog
  ) {
    var withCards = IDSet(cards.map(\.noteID))
    // By index: a note taken out of the array is a copy, one retain for each of its strings.
    for index in notes.indices where !withCards.contains(notes[index].id) {
      log.reportLimited(
        .noteWithoutCards, at: location.item("note \(notes[index].id)"), summaryAt: location,
        "note has no cards; Anki does not create cards when it imports a package, so it cannot be studied")
    }
  }

  // MARK: - Ids

  private static func requireUniqueIDs(_ ids: [Int64], what: String, location: SourceLocation) throws {
    // Rows read from a collection come in id order, and strictly increasing ids are unique.
    if zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) { return }
    var seen = Set<Int64>()
    for id in ids where !seen.insert(id).inserted {
      throw DeckError(
        .invalidRequest, at: location.item("\(what) \(id)"),
        "two of the collection's \(what)s have the id \(id); an Anki collection cannot hold both")
    }
  }
}
