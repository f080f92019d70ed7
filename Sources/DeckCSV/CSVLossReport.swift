import DeckCore
import Foundation

/// What a collection loses when written as CSV, as warnings (one per kind of loss, with counts,
/// naming the items when there are few): a CSV row holds a note's GUID, note type name, deck
/// name, fields and tags, and nothing else.
enum CSVLossReport {
  /// The warnings for writing `collection` to the file `location` names; `deckOfNote` is the
  /// deck each note's row names; `keptColumns` are the sheet's scheduling columns, whose cells
  /// `scheduleWriting` states.
  static func warnings(
    for collection: DeckCollection, deckOfNote: NoteDecks,
    keptColumns: Set<ColumnMapping.SchedulingColumn> = [], scheduleWriting: CSVScheduleCells.Writing,
    location: SourceLocation
  ) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    func warn(_ category: Diagnostic.Category, _ message: String) {
      warnings.append(Diagnostic(category, at: location, message))
    }

    if let warning = schedulingLoss(
      collection, firstCards: deckOfNote, keptColumns: keptColumns, scheduleWriting: scheduleWriting)
    {
      warn(.csvScheduling, warning)
    }
    if !collection.reviews.isEmpty {
      warn(
        .csvReviews,
        "the review log is not kept: \(CountedNoun.phrase(collection.reviews.count, "review")) (a CSV holds no review history)"
      )
    }
    warnings += collection.ankiOnlyLosses(at: location, format: "a CSV file")
    if !collection.media.isEmpty {
      warn(
        .csvMedia,
        "\(collection.media.count) media file\(collection.media.count == 1 ? " is" : "s are") not kept (a CSV holds no file bytes; the fields still name them): \(ShortList.quoted(collection.media.map(\.name)))"
      )
    }

    let usedNoteTypeIDs = Set(collection.notes.map(\.noteTypeID))
    let changed = collection.noteTypes.filter { usedNoteTypeIDs.contains($0.id) && !StockNoteType.isUnchanged($0) }
    if !changed.isEmpty {
      let names = changed.map { noteType in
        let quoted = "'\(noteType.name)'"
        guard let differences = StockNoteType.differences(of: noteType), !differences.isEmpty else { return quoted }
        let verb = differences.count == 1 ? "differs" : "differ"
        return "\(quoted) (its \(WordList.joined(differences)) \(verb) from the stock one)"
      }
      warn(
        .csvNoteType,
        "a CSV names note types but cannot hold their fields' names, templates or styling; \(changed.count == 1 ? "this note type is" : "these \(changed.count) note types are") not Anki's stock ones, so \(changed.count == 1 ? "its definition is" : "their definitions are") not kept: \(ShortList.text(names))"
      )
    }

    deckLosses(collection, deckOfNote: deckOfNote, warn: warn)
    cardLosses(collection, warn: warn)

    let emptyFirst = collection.notes.filter { $0.fields.first?.isEmpty ?? true }
    if !emptyFirst.isEmpty {
      warn(
        .csvEmptyFirstField,
        "\(emptyFirst.count) note\(emptyFirst.count == 1 ? " has" : "s have") an empty first field; Anki's CSV importer skips such rows (\(CountedNoun.noun("GUID", for: emptyFirst.count)) \(ShortList.quoted(emptyFirst.map(\.guid))))"
      )
    }
    let withCR = collection.notes.filter { note in note.fields.contains { $0.containsUTF8Byte(0x0D) } }
    if !withCR.isEmpty {
      warn(
        .csvCarriageReturn,
        "\(withCR.count) note\(withCR.count == 1 ? " has" : "s have") carriage returns in a field, which Anki's CSV importer removes (\(CountedNoun.noun("GUID", for: withCR.count)) \(ShortList.quoted(withCR.map(\.guid))))"
      )
    }
    return warnings
  }

  /// What the sheet does not keep of the cards' scheduling, or nil when it keeps it all.
  ///
  /// With a `due` column, a note's first card under review keeps its schedule; with a
  /// `suspended` column, a note's first card keeps its suspension; the sheet's reader gives a
  /// row's schedule to every card of its note (``CSVScheduleCells/Writing/readBack(ofNoteWithFirstCard:keepsReview:keepsSuspension:)``).
  /// The cards counted are those whose state that changes, as Anki sees it: type, queue (so
  /// suspension and burying), due day (but a new card's position), interval, ease, reviews,
  /// lapses, learning steps, flag or filtered deck; the reasons are what those cards have, and the
  /// first of them is named. What Anki keeps beside the schedule in a card's data is lost too.
  private static func schedulingLoss(
    _ collection: DeckCollection, firstCards: NoteDecks, keptColumns: Set<ColumnMapping.SchedulingColumn>,
    scheduleWriting: CSVScheduleCells.Writing
  ) -> String? {
    let keepsReview = keptColumns.contains(.due)
    let keepsSuspension = keptColumns.contains(.suspended)
    var changed = 0
    var firstChanged: Card?
    var reasons: Set<SchedulingLossReason> = []
    // A note's cards follow one another: its row's read-back is made once for them.
    var lastReadBack: (firstIndex: Int, scheduling: CardScheduling)?
    for card in collection.cards {
      guard let firstIndex = firstCards.firstCardIndex(of: card.noteID) else { continue }
      let first = collection.cards[firstIndex]
      let readBack: CardScheduling
      if let lastReadBack, lastReadBack.firstIndex == firstIndex {
        readBack = lastReadBack.scheduling
      } else {
        readBack = scheduleWriting.readBack(
          ofNoteWithFirstCard: first, keepsReview: keepsReview, keepsSuspension: keepsSuspension)
        lastReadBack = (firstIndex, readBack)
      }
      let lost = lostReasons(
        of: card, readBack: readBack, isFirst: first.id == card.id, keepsReview: keepsReview,
        keepsSuspension: keepsSuspension)
      guard !lost.isEmpty else { continue }
      changed += 1
      if firstChanged == nil { firstChanged = card }
      reasons.formUnion(lost)
    }
    // `{}` is Anki's empty data: nothing is lost with it.
    let withData = collection.cards.count { !$0.scheduling.data.isEmpty && $0.scheduling.data != "{}" }
    guard changed > 0 || withData > 0 else { return nil }
    let beside =
      "what Anki keeps beside the schedule of \(CountedNoun.phrase(withData, "card")) (an original position, the last review's time, FSRS memory state)"
    guard changed > 0 else { return "\(beside) is not kept: a CSV holds none" }
    let data = withData == 0 ? "" : "; nor is \(beside)"
    let named = firstChanged.map { card in
      let guid = collection.notes.first { $0.id == card.noteID }?.guid ?? ""
      return
        "; the first is card \(card.id) (note GUID '\(guid)', card \(CountedPosition.text(ofIndex: card.templateOrdinal)) of its note)"
    }
    let why = SchedulingLossReason.allCases.filter(reasons.contains).map(\.text)
    let lostPart =
      "the scheduling of \(changed) of \(collection.cards.count) cards is not kept (\(WordList.joined(why)))\(named ?? "")"
    guard keepsReview || keepsSuspension else {
      return "\(lostPart): a CSV holds no scheduling, so Anki makes every card new\(data)"
    }
    let held: String
    switch (keepsReview, keepsSuspension) {
    case (true, true):
      held =
        "a row's due, interval, ease, reviews, lapses and suspended columns hold the schedule of its note's first card when it is under review, and whether it is suspended"
    case (true, false):
      held =
        "a row's due, interval, ease, reviews and lapses columns hold the schedule of its note's first card when it is under review"
    default:
      held = "a row's suspended column holds whether its note's first card is suspended"
    }
    return "\(lostPart): \(held), and the sheet's reader gives it to every card of the note\(data)"
  }

  /// Why a card's state as Anki sees it is not what the sheet's reader gives it, in the order
  /// the warning lists them.
  private enum SchedulingLossReason: CaseIterable {
    case schedule, reviewCounts, learning, flags, suspension, burying, filtered, otherCards, unheld

    var text: String {
      switch self {
      case .schedule: "due dates, intervals, ease"
      case .reviewCounts: "the review counts of new cards"
      case .learning: "learning steps"
      case .flags: "flags"
      case .suspension: "suspension"
      case .burying: "burying"
      case .filtered: "filtered decks"
      case .otherCards: "the schedules of a note's other cards, which take its first card's"
      case .unheld: "schedules Anki holds but the columns do not (an interval, ease or due date out of their range)"
      }
    }
  }

  /// Why `card` does not come back from the sheet as it is (empty when it does): the sheet's
  /// reader gives it `readBack`; compared as Anki sees a card (a new card's position is its own
  /// after any import, and not compared).
  private static func lostReasons(
    of card: Card, readBack: CardScheduling, isFirst: Bool, keepsReview: Bool, keepsSuspension: Bool
  ) -> Set<SchedulingLossReason> {
    let s = card.scheduling
    let due = s.homeDue
    let same =
      s.type == readBack.type && s.queue == readBack.queue && s.interval == readBack.interval
      && s.easeFactor == readBack.easeFactor && s.reviews == readBack.reviews && s.lapses == readBack.lapses
      && s.remainingSteps == readBack.remainingSteps && s.flags == 0 && s.originalDeckID == 0
      && (s.type == .new || due == readBack.due)
    guard !same else { return [] }
    var reasons: Set<SchedulingLossReason> = []
    if s.type == .learning || s.type == .relearning || [.learning, .dayLearning, .preview].contains(s.queue)
      || (s.type == .new && s.remainingSteps != 0)
    {
      reasons.insert(.learning)
    }
    if s.flags != 0 { reasons.insert(.flags) }
    if s.originalDeckID != 0 { reasons.insert(.filtered) }
    if s.queue == .buriedBySibling || s.queue == .buriedByUser { reasons.insert(.burying) }
    if s.queue == .suspended && !keepsSuspension { reasons.insert(.suspension) }
    if !isFirst {
      reasons.insert(.otherCards)
    } else if s.type == .review && !keepsReview {
      reasons.insert(.schedule)
    } else if s.type == .review && readBack.type != .review {
      reasons.insert(.unheld)
    } else if s.type == .new && (s.reviews != 0 || s.lapses != 0 || s.interval != 0 || s.easeFactor != 0) {
      reasons.insert(.reviewCounts)
    }
    // A change no reason above names (a card state Anki does not make) is still counted.
    if reasons.isEmpty { reasons.insert(keepsReview ? .unheld : .schedule) }
    return reasons
  }

  private static func deckLosses(
    _ collection: DeckCollection, deckOfNote: NoteDecks, warn: (Diagnostic.Category, String) -> Void
  ) {
    // A note is split when one of its cards' home deck is not the deck its row names.
    var splitNoteIDs: Set<Int64> = []
    for card in collection.cards {
      if let named = deckOfNote[card.noteID], named != NoteDecks.homeDeckID(of: card) {
        splitNoteIDs.insert(card.noteID)
      }
    }
    let split = collection.notes.filter { splitNoteIDs.contains($0.id) }
    if !split.isEmpty {
      warn(
        .csvDeck,
        "\(split.count) note\(split.count == 1 ? " has" : "s have") cards in more than one deck; a CSV row names one deck, so \(split.count == 1 ? "it keeps" : "each keeps") the deck of its first card (\(CountedNoun.noun("GUID", for: split.count)) \(ShortList.quoted(split.map(\.guid))))"
      )
    }
    let withoutCards = collection.notes.filter { deckOfNote[$0.id] == nil }
    if !withoutCards.isEmpty {
      warn(
        .csvDeck,
        "\(withoutCards.count) note\(withoutCards.count == 1 ? " has" : "s have") no cards, so no deck; Anki's importer puts \(withoutCards.count == 1 ? "it" : "them") in its current deck (\(CountedNoun.noun("GUID", for: withoutCards.count)) \(ShortList.quoted(withoutCards.map(\.guid))))"
      )
    }
    let filteredCards = collection.cards.filter { $0.scheduling.originalDeckID != 0 }
    if !filteredCards.isEmpty {
      warn(
        .csvDeck,
        "\(filteredCards.count) card\(filteredCards.count == 1 ? " is" : "s are") borrowed by a filtered deck; the CSV names \(filteredCards.count == 1 ? "its" : "their") home deck, and filtered decks are not kept"
      )
    }

    let namesWithCards = Set(deckOfNote.deckIDs.compactMap { id in collection.deck(id: id)?.name })
    let empty = collection.decks.filter { deck in
      if case .filtered = deck.kind { return false }
      return deck.id != 1
        && !namesWithCards.contains { $0 == deck.name || $0.hasPrefix(deck.name + Deck.levelSeparator) }
    }
    if !empty.isEmpty {
      warn(
        .csvDeck,
        "\(empty.count) deck\(empty.count == 1 ? " holds" : "s hold") no notes' cards and \(empty.count == 1 ? "is" : "are") not kept (a CSV names only the decks of its rows): \(ShortList.quoted(empty.map(\.name)))"
      )
    }
    let described = collection.decks.filter { !$0.description.isEmpty }
    if !described.isEmpty {
      warn(
        .csvDeck,
        "deck descriptions are not kept: \(ShortList.quoted(described.map(\.name)))")
    }
    let groups = collection.deckOptions.filter { $0.id != 1 }
    if !groups.isEmpty {
      warn(
        .csvDeck,
        "deck option groups (presets) are not kept: \(ShortList.quoted(groups.map(\.name)))")
    }
  }

  /// Cards the import of the CSV would not make, or would make anew: Anki's CSV importer makes
  /// a note's cards from its fields (``CardGeneration``), so a card whose template shows nothing
  /// or whose cloze number the text no longer holds (kept by Anki until Empty Cards removes it)
  /// is not made again, and a card the note lacks is made.
  private static func cardLosses(_ collection: DeckCollection, warn: (Diagnostic.Category, String) -> Void) {
    let regeneration = CardGeneration.regeneration(of: collection)
    let (lostCards, lostGUIDs) = (regeneration.lostCards, regeneration.lostGUIDs)
    let (madeCards, madeGUIDs) = (regeneration.madeCards, regeneration.madeGUIDs)
    if lostCards > 0 {
      warn(
        .csvCards,
        "\(lostCards) card\(lostCards == 1 ? " is" : "s are") not kept: Anki's CSV importer makes a note's cards from its fields, and \(lostCards == 1 ? "this card's" : "these cards'") template shows nothing or \(lostCards == 1 ? "its" : "their") cloze number is no longer in the text (\(CountedNoun.noun("GUID", for: lostGUIDs.count)) \(ShortList.quoted(lostGUIDs)))"
      )
    }
    if madeCards > 0 {
      warn(
        .csvCards,
        "\(CountedNoun.phrase(madeCards, "card")) the collection does not hold will be made by Anki's CSV importer from the notes' fields (\(CountedNoun.noun("GUID", for: madeGUIDs.count)) \(ShortList.quoted(madeGUIDs)))"
      )
    }
  }
}
