import DeckAnki
import DeckCore

/// What was kept of a collection when only some of its decks or tags were asked for
/// (``DeckCollection/selectingNotes(inDecks:taggedWith:spelling:at:)``, `deckport convert --only-deck`
/// and `--only-tag`): the decks as the collection names them, the tags searched for, and how much
/// of the collection that is.
public struct DeckSelection: Sendable, Equatable, Codable {
  /// How many notes, cards, reviews and media files a collection holds.
  public struct Counts: Sendable, Equatable, Codable {
    /// How many notes.
    public var notes: Int
    /// How many cards.
    public var cards: Int
    /// How many review-log entries.
    public var reviews: Int
    /// How many media files.
    public var media: Int

    /// The counts of `collection`.
    public init(_ collection: DeckCollection) {
      notes = collection.notes.count
      cards = collection.cards.count
      reviews = collection.reviews.count
      media = collection.media.count
    }
  }

  /// The decks chosen, spelled as the collection spells them: the deck each name given is, or
  /// the topmost of the decks a search with wildcards matches (``DeckSearch``); each comes with
  /// its subdecks.
  public var deckNames: [String]
  /// The tags searched for, as given (``TagSearch``); a note needed one of them.
  public var tags: [String] = []
  /// What was kept: through ``ExportChoices``, once its other choices are applied as well (no
  /// reviews without scheduling, no media files without media), what a conversion writes.
  public var kept: Counts
  /// What the whole collection holds.
  public var read: Counts

  private enum CodingKeys: String, CodingKey {
    case deckNames = "decks"
    case tags, kept, read
  }

  /// `Only the deck 'Spanish' and its subdecks: 4 of 9 notes, 6 of 15 cards, 2 of 8 reviews, 1
  /// of 6 media files` (or `Only the notes tagged 'verbs' (or a subtag)`, or both: `Only the
  /// notes of the deck …, tagged …`): what was kept, in words (names exact, to be escaped with
  /// ``TerminalText/escaped(_:)`` before they reach a terminal).
  public var line: String {
    func listed(_ names: [String]) -> String {
      // A search such as `*` may choose hundreds of decks: ten are shown.
      var quoted = names.prefix(10).map { "'\($0)'" }
      if names.count > 10 { quoted.append("\(names.count - 10) more") }
      return WordList.joined(quoted)
    }
    let decks =
      deckNames.isEmpty
      ? nil
      : deckNames.count == 1
        ? "the deck \(listed(deckNames)) and its subdecks"
        : "the decks \(listed(deckNames)) and their subdecks"
    let tagged =
      tags.isEmpty
      ? nil
      : tags.map { TagSearch.findsUntaggedNotes($0) ? "without tags" : "tagged '\($0)' (or a subtag)" }
        .joined(separator: " or ")
    let what: String
    switch (decks, tagged) {
    case (let decks?, let tagged?): what = "the notes of \(decks), \(tagged)"
    case (let decks?, nil): what = decks
    case (nil, let tagged?): what = "the notes \(tagged)"
    case (nil, nil): what = "everything"
    }
    func part(_ kept: Int, _ read: Int, _ what: String) -> String {
      "\(ConversionProgress.grouped(Int64(kept))) of \(ConversionProgress.grouped(Int64(read))) \(what)"
    }
    return "Only \(what): "
      + [
        part(kept.notes, read.notes, "notes"), part(kept.cards, read.cards, "cards"),
        part(kept.reviews, read.reviews, "reviews"), part(kept.media, read.media, "media files"),
      ].joined(separator: ", ")
  }
}

extension DeckCollection {
  /// The part of this collection that Anki's export of the decks `names` holds (its "Include:"
  /// choice), each with its subdecks: ``selectingNotes(inDecks:taggedWith:spelling:at:)`` without tags.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a name or search no deck
  ///   matches, listing the collection's decks.
  public func selectingDecks(named names: [String], at location: SourceLocation) throws -> (
    collection: DeckCollection, selection: DeckSelection
  ) {
    try selectingNotes(inDecks: names, taggedWith: [], at: location)
  }

  /// The part of this collection that Anki's export of the notes of the decks `names` (each
  /// taken as Anki's search `deck:NAME` takes it, ``DeckSearch``: the deck and its subdecks,
  /// ignoring case, with Anki's wildcards, `*` for every card and `filtered` for those in
  /// filtered decks) that have a tag `tags` finds (``TagSearch``: the tag or a subtag, ignoring
  /// case, with Anki's wildcards): Anki's search `(deck:A or deck:B) (tag:x or tag:y)`. Without
  /// names, every deck; without tags, every note of the decks.
  ///
  /// As Anki's exporter gathers them (`rslib/src/import_export/gather.rs`): the notes the search
  /// finds, those with a card in one of the decks or taken from one into a filtered deck (Anki's
  /// "export this deck" would leave out those, silently), kept whole with all their cards; the
  /// decks those cards are in (and were in) with their parents, and, without tags, the selected
  /// decks' empty subdecks; the note types the notes use; the option groups of the kept decks
  /// (and group 1); the reviews of the kept cards; the media files the notes and note types
  /// refer to. The collection's settings stay; its list of tags keeps the tags of the kept notes
  /// and their parents; deletion records, which belong to the whole collection, go.
  ///
  /// Deck names and tags are compared as Anki holds them when it holds them as `spelling` says:
  /// by default as its import of a package stores them; a collection package's, which Anki
  /// restores as they are, with ``AnkiNameSpelling/init(formatName:)`` of its format.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` (by default none: the error is
  ///   its message alone) for a name or search no deck matches, listing the collection's decks,
  ///   for an empty name or `current`, and for a tag no note has (nor a subtag of it), listing
  ///   the collection's tags.
  public func selectingNotes(
    inDecks names: [String], taggedWith tags: [String], spelling: AnkiNameSpelling = .imported,
    at location: SourceLocation = SourceLocation(file: "")
  ) throws
    -> (collection: DeckCollection, selection: DeckSelection)
  {
    var selected = Set<Int64>()
    var spelled: [String] = []
    var spelledNames = Set<String>()
    var deckSearches: [(search: DeckSearch, deckIDs: Set<Int64>)] = []
    for name in names {
      let search = try DeckSearch(name, at: location)
      let matching = decks.filter { search.matches(deck: $0, spelling: spelling) }
      guard !matching.isEmpty else {
        let known = Self.shown(decks.map(\.name))
        let problem =
          switch name {
          case "*": "the collection has no decks"
          case "filtered":
            "no deck is a filtered deck, whose cards 'filtered' finds (a deck named so is found as 'Filtered'; its decks: \(known))"
          default:
            search.isPattern
              ? "no deck matches '\(name)' (its decks: \(known))" : "no deck is named '\(name)' (its decks: \(known))"
          }
        throw DeckError(.invalidRequest, at: location, problem)
      }
      let deckIDs = Set(matching.map(\.id))
      // Each matching deck's subdecks match too: the topmost ones name what was selected.
      let keys = Set(matching.map { Deck.storedMatchingKey($0.name) })
      for deck in matching where !spelledNames.contains(deck.name) {
        let parents = Self.nameAndParents(deck.name).dropFirst()
        if !parents.contains(where: { keys.contains(Deck.storedMatchingKey($0)) }) {
          spelled.append(deck.name)
          spelledNames.insert(deck.name)
        }
      }
      selected.formUnion(deckIDs)
      deckSearches.append((search, deckIDs))
    }
    let searches = try tags.map { try TagSearch($0, at: location) }
    let tagged = try notesTagged(searches, spelling: spelling, at: location)

    var result = self
    var noteIDs = Set<Int64>()
    if names.isEmpty {
      noteIDs = Set(notes.map(\.id))
    } else {
      for card in cards where deckSearches.contains(where: { $0.search.finds(card, matchingDecks: $0.deckIDs) }) {
        noteIDs.insert(card.noteID)
      }
    }
    if let tagged { noteIDs.formIntersection(tagged) }
    result.notes = notes.filter { noteIDs.contains($0.id) }
    result.cards = cards.filter { noteIDs.contains($0.noteID) }
    let cardIDs = Set(result.cards.map(\.id))
    result.reviews = reviews.filter { cardIDs.contains($0.cardID) }

    // The selected decks stay even when empty, unless a tag chose the notes among them.
    var deckIDs = tags.isEmpty ? selected : []
    for card in result.cards {
      deckIDs.insert(card.deckID)
      if card.scheduling.originalDeckID != 0 { deckIDs.insert(card.scheduling.originalDeckID) }
    }
    var deckKeys = Set<String>()
    for deck in decks where deckIDs.contains(deck.id) {
      for name in Self.nameAndParents(deck.name) { deckKeys.insert(Deck.storedMatchingKey(name)) }
    }
    result.decks = decks.filter { deckKeys.contains(Deck.storedMatchingKey($0.name)) }
    var optionIDs: Set<Int64> = [1]
    for deck in result.decks {
      if case .normal(let optionsID) = deck.kind { optionIDs.insert(optionsID) }
    }
    result.deckOptions = deckOptions.filter { optionIDs.contains($0.id) }
    let noteTypeIDs = Set(result.notes.map(\.noteTypeID))
    result.noteTypes = noteTypes.filter { noteTypeIDs.contains($0.id) }

    let referenced = MediaReferences.referencedNames(in: result)
    result.media = media.filter { referenced.contains(Array(MediaFileName.normalized($0.name).unicodeScalars)) }
    var tagKeys = Set<String>()
    for tag in Set(result.notes.lazy.flatMap(\.tags)) {
      for name in Self.nameAndParents(tag) { tagKeys.insert(FullCaseFolding.key(name)) }
    }
    result.tagRegistry = tagRegistry.filter { tagKeys.contains(FullCaseFolding.key($0.name)) }
    result.deletions = []
    let selection = DeckSelection(
      deckNames: spelled, tags: tags, kept: DeckSelection.Counts(result), read: DeckSelection.Counts(self))
    return (result, selection)
  }

  /// The ids of the notes that have a tag one of `searches` finds, compared as `spelling` says;
  /// nil without searches.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a search of a tag that no
  ///   note has (nor a subtag of it).
  private func notesTagged(_ searches: [TagSearch], spelling: AnkiNameSpelling, at location: SourceLocation) throws
    -> Set<Int64>?
  {
    guard !searches.isEmpty else { return nil }
    // Notes share their tags: each distinct tag is looked at once per search.
    let distinctTags = Set(notes.lazy.flatMap(\.tags))
    var found = Set<Int64>()
    for search in searches {
      let matchingTags = distinctTags.filter { search.matches(tag: $0, spelling: spelling) }
      if matchingTags.isEmpty && search.findsTags {
        throw DeckError(
          .invalidRequest, at: location,
          "no note has the tag '\(search.text)' or a subtag of it (its tags: \(Self.shown(distinctTags.sorted())))")
      }
      for note in notes
      where search.findsTags
        ? note.tags.contains(where: matchingTags.contains) : search.matches(tags: note.tags, spelling: spelling)
      {
        found.insert(note.id)
      }
    }
    return found
  }

  /// The first 20 of `names`, quoted, for an error that lists what there is.
  private static func shown(_ names: [String]) -> String {
    let known = names.sorted()
    guard !known.isEmpty else { return "none" }
    return ShortList.quoted(known, limit: 20)
  }

  /// `name` and the names of its parents (`A::B::C`, `A::B`, `A`), for deck names and tags. A
  /// name of more levels than a deck may have (``Deck/maximumLevels``) gives itself alone: its
  /// parents' names would cost time and memory that grow with the square of its length.
  private static func nameAndParents(_ name: String) -> [String] {
    guard Deck.depthProblem(ofName: name) == nil else { return [name] }
    var levels = Deck.levels(of: name)
    var names: [String] = []
    while !levels.isEmpty {
      names.append(levels.joined(separator: Deck.levelSeparator))
      levels.removeLast()
    }
    return names
  }
}

extension LoadedDeck {
  /// The deck with its collection reduced to the notes of the decks `names` and with the tags
  /// `tags`, as ``DeckCollection/selectingNotes(inDecks:taggedWith:spelling:at:)`` keeps them, and what
  /// was kept.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a name no deck has, or a tag
  ///   no note has.
  public func selectingNotes(
    inDecks names: [String], taggedWith tags: [String], at location: SourceLocation = SourceLocation(file: "")
  ) throws
    -> (deck: LoadedDeck, selection: DeckSelection)
  {
    var part = self
    let selection: DeckSelection
    (part.collection, selection) = try collection.selectingNotes(
      inDecks: names, taggedWith: tags, spelling: AnkiNameSpelling(formatName: formatName), at: location)
    return (part, selection)
  }
}
