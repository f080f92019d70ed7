import DeckAnki
import DeckCore
import JSONCore

extension DeckCollection {
  /// This collection as Anki's export holds it with "Include scheduling information" off
  /// (`rslib/src/import_export/gather.rs`, `schedule_as_new`): a deck to share without the
  /// sharer's progress.
  ///
  /// - Every card is new and in the new queue (suspended and buried ones too), with interval,
  ///   ease, review and lapse counts and flags 0, and is out of any filtered deck: it stays in
  ///   the deck it is in, and a filtered deck becomes a normal one using option group 1. Its
  ///   learning steps left are kept, as Anki keeps them.
  /// - A new card keeps its position (the one it had before a filtered deck took it); any other
  ///   card takes the position it had before it was first studied (`pos` in its data), or else
  ///   the next one from the collection's next new position (its `nextPos` setting, or 1, a new
  ///   collection's), in card id order. Its data loses that position and the FSRS memory state
  ///   (`pos`, `s`, `d`), and keeps the rest, as Anki's.
  /// - The review log is empty, notes lose the tags `marked` and `leech`, decks lose the day's
  ///   counts and today's limits and are expanded (all but Default), option groups lose their FSRS
  ///   parameters (fitted to the sharer's reviews), and deletion records go.
  public func withoutScheduling() -> DeckCollection {
    var result = self
    let systemTags: Set<String> = ["marked", "leech"]
    for index in result.notes.indices
    where result.notes[index].tags.contains(where: { systemTags.contains($0.lowercased()) }) {
      result.notes[index].tags.removeAll { systemTags.contains($0.lowercased()) }
    }
    var nextPosition: Int64 = 1
    if let setting = settings.first(where: { $0.key == "nextPos" }),
      let value = try? JSONParser.parse(setting.jsonText.utf8, options: .anki).writtenInteger
    {
      nextPosition = value
    }
    let order = result.cards.indices.sorted { result.cards[$0].id < result.cards[$1].id }
    for index in order {
      let old = result.cards[index].scheduling
      var data = old.data
      let originalPosition = Self.removingPositionAndMemoryState(from: &data)
      let lastPosition: Int64? =
        old.type == .new ? (old.originalDeckID != 0 ? old.originalDue : old.due) : originalPosition
      let position: Int64
      if let lastPosition {
        position = lastPosition
      } else {
        position = nextPosition
        nextPosition &+= 1
      }
      result.cards[index].scheduling = CardScheduling(
        type: .new, queue: .new, due: position, remainingSteps: old.remainingSteps, data: data)
    }
    result.reviews = []
    result.deletions = []
    result.deckOptions = deckOptions.map(\.withoutFSRSParameters)
    // A custom study session's tag choices (`activeTags`, `inactiveTags`) go with the rest.
    let studyKeys: Set<String> = [
      "collapsed", "browserCollapsed", "newToday", "revToday", "lrnToday", "timeToday", "extendNew", "extendRev",
      "reviewLimit", "newLimit", "reviewLimitToday", "newLimitToday", "activeTags", "inactiveTags",
    ]
    // A parent the file lacks is written too, so that it is expanded as the others: Anki's
    // import would make it, collapsed, as it makes a new deck.
    var table = DeckTable(
      known: result.decks.map { deck in
        var stored = deck
        stored.name = Deck.storedName(deck.name)
        return stored
      })
    for deck in result.decks where Deck.depthProblem(ofName: deck.name) == nil {
      // Parents by the name Anki stores (`Spanish :: Verbs` is a child of `Spanish`).
      let levels = Deck.levels(of: Deck.storedName(deck.name))
      for depth in levels.indices.dropLast() {
        _ = try? table.id(for: levels[...depth].joined(separator: Deck.levelSeparator), at: SourceLocation(file: ""))
      }
    }
    result.decks += table.decks
    for index in result.decks.indices {
      if case .filtered = result.decks[index].kind {
        result.decks[index].kind = .normal(optionsID: 1)
      }
      result.decks[index].ankiProperties.removeAll { studyKeys.contains($0.key) }
      // Anki's export expands every deck but Default, in the deck list and in the browser
      // (deckport's writer otherwise gives a deck Anki's default for a fresh one: collapsed).
      // (Deck 1 under another name, as genanki-go writes it, is a new deck to Anki's import.)
      if result.decks[index].id != 1 || Deck.matchingKey(result.decks[index].name) != Deck.matchingKey("Default") {
        result.decks[index].ankiProperties += [
          AnkiProperty(key: "browserCollapsed", jsonText: "false"), AnkiProperty(key: "collapsed", jsonText: "false"),
        ]
        result.decks[index].ankiProperties.sort { $0.key < $1.key }
      }
    }
    return result
  }

  /// Takes the original position (`pos`) and the FSRS memory state (`s`, `d`) out of a card's
  /// data, Anki's JSON object; returns the position, if there was a whole number there. Data
  /// that is not a JSON object is left as it is.
  private static func removingPositionAndMemoryState(from data: inout String) -> Int64? {
    guard data.contains("\""), let value = try? JSONParser.parse(Array(data.utf8), options: .anki),
      case .object(let members) = value
    else { return nil }
    var position: Int64?
    if let found = members.first(where: { $0.key == "pos" })?.value {
      switch found {
      case .integer(let number) where number >= 0 && number <= Int64(UInt32.max): position = number
      case .double(let number) where number >= 0 && number <= Double(UInt32.max) && number == number.rounded():
        position = Int64(number)
      default: break
      }
    }
    let kept = members.filter { !["pos", "s", "d"].contains($0.key) }
    if kept.count != members.count { data = JSONWriter.text(of: .object(kept)) }
    return position
  }
}
