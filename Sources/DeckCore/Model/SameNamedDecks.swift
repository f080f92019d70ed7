import Foundation
import JSONCore

/// Decks whose names Anki matches as one (``Deck/matchingKey(_:)``: `Default` and `default`),
/// made one deck before a writer that names decks by name writes them.
///
/// A package may hold two such decks: a generator that starts from genanki's template
/// collection and calls its own deck "Default" writes deck 1 "Default" beside it (2anki does).
/// Anki's import matches decks by name and puts the cards of both in one deck, but which of the
/// two it keeps, and so the deck's name (`Default` or `Default_`), differs from one import to the
/// next. A writer makes them one deck instead, with a warning, so that every import gives the
/// same result.
package enum SameNamedDecks {
  /// `collection` with each group of decks of one name made one deck: deck 1 when it is among
  /// them, else the first of them in the collection's order. Names are compared as Anki stores
  /// them (``Deck/storedName(_:)``, then ``Deck/matchingKey(_:)``). The others' cards (and cards
  /// moved from them into a filtered deck), and templates that send cards to them, go to that
  /// deck, and their subdecks go under its name, as Anki's import puts them; settings that name
  /// a merged deck (`curDeck`, `activeDecks`, `_nt_<id>_lastDeck`, a note type's `did`) name the
  /// kept one. Each
  /// deck merged is reported, with what of it is not kept (its description, its option group).
  ///
  /// - Parameter filteredDecksWritten: false for a writer that leaves filtered decks out (a
  ///   CrowdAnki folder): they then take part in no group.
  /// - Throws: ``DeckError/Kind/invalidRequest`` when a filtered deck shares its name with
  ///   another deck that is written: the two cannot be one.
  package static func merged(
    _ collection: DeckCollection, filteredDecksWritten: Bool = true, location: SourceLocation
  ) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    var groups: [String: [Deck]] = [:]
    var keys: [String] = []
    for deck in collection.decks {
      if !filteredDecksWritten, case .filtered = deck.kind { continue }
      let key = Self.key(deck.name)
      if groups[key] == nil { keys.append(key) }
      groups[key, default: []].append(deck)
    }
    var mergedInto: [Int64: Int64] = [:]
    var keptNames: [String: String] = [:]
    var merges: [(merged: Deck, kept: Deck, here: SourceLocation)] = []
    for key in keys {
      guard let group = groups[key], group.count > 1 else { continue }
      let kept = group.first { $0.id == 1 } ?? group[0]
      keptNames[key] = kept.name
      for merged in group where merged.id != kept.id {
        let here = location.item("deck '\(merged.name)' (id \(merged.id))")
        guard case .normal = kept.kind, case .normal = merged.kind else {
          throw DeckError(
            .invalidRequest, at: here,
            "deck \(kept.id) has the same name (Anki compares names ignoring case), and one of the two is a filtered deck, so they cannot be made one; rename one of them"
          )
        }
        mergedInto[merged.id] = kept.id
        merges.append((merged, kept, here))
      }
    }
    guard !mergedInto.isEmpty else { return (collection, []) }
    var result = collection
    result.decks.removeAll { mergedInto[$0.id] != nil }
    var movedSubdecks: [String: Int] = [:]
    for index in result.decks.indices {
      let name = result.decks[index].name
      guard let (groupKey, renamed) = Self.underKeptNames(name, keptNames) else { continue }
      result.decks[index].name = renamed
      movedSubdecks[groupKey, default: 0] += 1
    }
    for index in result.cards.indices {
      if let target = mergedInto[result.cards[index].deckID] { result.cards[index].deckID = target }
      if let target = mergedInto[result.cards[index].scheduling.originalDeckID] {
        result.cards[index].scheduling.originalDeckID = target
      }
    }
    for typeIndex in result.noteTypes.indices {
      for templateIndex in result.noteTypes[typeIndex].templates.indices {
        if let deckID = result.noteTypes[typeIndex].templates[templateIndex].targetDeckID,
          let target = mergedInto[deckID]
        {
          result.noteTypes[typeIndex].templates[templateIndex].targetDeckID = target
        }
      }
      result.noteTypes[typeIndex].ankiProperties = Self.remapped(
        result.noteTypes[typeIndex].ankiProperties, mergedInto, keys: { $0 == "did" })
    }
    result.settings = Self.remapped(result.settings, mergedInto, keys: Self.isDeckSetting)
    let warnings = merges.enumerated().map { position, merge in
      // The subdecks of a group are counted in the warning of its first merged deck.
      let isFirstOfGroup = position == 0 || merges[position - 1].kept.id != merge.kept.id
      let subdecks = isFirstOfGroup ? movedSubdecks[Self.key(merge.kept.name)] ?? 0 : 0
      return warning(
        merging: merge.merged, into: merge.kept, subdecks: subdecks, collection: collection, at: merge.here)
    }
    return (result, warnings)
  }

  /// Whether a collection setting's value is deck ids: the deck selected (`curDeck`), the decks
  /// it studies (`activeDecks`) and, by note type, the deck last used to add a note
  /// (`_nt_<id>_lastDeck`).
  private static func isDeckSetting(_ key: String) -> Bool {
    key == "curDeck" || key == "activeDecks" || (key.hasPrefix("_nt_") && key.hasSuffix("_lastDeck"))
  }

  /// `properties` with each deck id that a property of `keys` holds (a number, or an array of
  /// numbers) replaced by the id of the deck it was merged into.
  private static func remapped(
    _ properties: [AnkiProperty], _ mergedInto: [Int64: Int64], keys: (String) -> Bool
  ) -> [AnkiProperty] {
    properties.map { property in
      guard keys(property.key), let value = try? JSONParser.parse(property.jsonText.utf8, options: .anki) else {
        return property
      }
      let elements = value.elements ?? [value]
      let ids = elements.compactMap(\.writtenInteger)
      guard ids.count == elements.count, ids.contains(where: { mergedInto[$0] != nil }) else { return property }
      var remapped = property
      if value.elements != nil {
        // A deck merged into another listed too is listed once.
        var seen = Set<Int64>()
        let kept = ids.map { mergedInto[$0] ?? $0 }.filter { seen.insert($0).inserted }
        remapped.jsonText = JSONWriter.text(of: .array(kept.map(JSONValue.integer)))
      } else {
        remapped.jsonText = JSONWriter.text(of: .integer(mergedInto[ids[0]] ?? ids[0]))
      }
      return remapped
    }
  }

  /// How Anki matches a deck's name: as it stores it, case-folded (``Deck/storedMatchingKey(_:)``).
  private static func key(_ name: String) -> String { Deck.storedMatchingKey(name) }

  /// `name` with its longest parent level that names a group of merged decks spelled as the
  /// deck kept of that group (itself so renamed), and that group's key; nil when no parent
  /// level names one, or it is spelled so already.
  private static func underKeptNames(_ name: String, _ keptNames: [String: String]) -> (String, String)? {
    let levels = Deck.levels(of: name)
    guard levels.count > 1 else { return nil }
    for count in stride(from: levels.count - 1, through: 1, by: -1) {
      let parent = levels[..<count].joined(separator: Deck.levelSeparator)
      let groupKey = key(parent)
      guard let kept = keptNames[groupKey] else { continue }
      let keptSpelled = underKeptNames(kept, keptNames)?.1 ?? kept
      guard keptSpelled != parent else { return nil }
      return (groupKey, ([keptSpelled] + levels[count...]).joined(separator: Deck.levelSeparator))
    }
    return nil
  }

  /// The warning for `merged`, made one with `kept`: its cards, what of it is not kept, and how
  /// many subdecks go under the kept deck's name.
  private static func warning(
    merging merged: Deck, into kept: Deck, subdecks: Int, collection: DeckCollection, at here: SourceLocation
  ) -> Diagnostic {
    var cards = 0
    for card in collection.cards where card.deckID == merged.id || card.scheduling.originalDeckID == merged.id {
      cards += 1
    }
    var lost: [String] = []
    if !merged.description.isEmpty && merged.description != kept.description { lost.append("its description") }
    if case .normal(let mergedOptions) = merged.kind, case .normal(let keptOptions) = kept.kind,
      mergedOptions != keptOptions
    {
      lost.append("its option group (id \(mergedOptions))")
    }
    let verb = lost.count == 1 ? "is" : "are"
    let notKept = lost.isEmpty ? "" : "; \(WordList.joined(lost)) \(verb) not kept"
    let moved =
      subdecks == 0
      ? ""
      : "; \(CountedNoun.phrase(subdecks, "subdeck")) \(subdecks == 1 ? "goes" : "go") under the name '\(kept.name)'"
    return Diagnostic(
      .decksMerged, at: here,
      "deck \(kept.id) has the same name (Anki compares names ignoring case), and Anki's import makes one deck of the two, keeping whichever it meets first, so the deck's name differs from one import to the next; they are written as one deck, id \(kept.id), which holds this deck's \(CountedNoun.phrase(cards, "card"))\(notKept)\(moved)"
    )
  }
}
